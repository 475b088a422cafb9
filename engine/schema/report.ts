import { Schema } from "effect"
import { LocalDate } from "./common.ts"

const Cents = Schema.Number.annotations({ description: "Minor units of the org's currency" })

export const ReportQuery = Schema.Struct({
  from: Schema.optional(LocalDate).annotations({
    description: "First local date (the org's zone); default 30 days ago"
  }),
  to: Schema.optional(LocalDate).annotations({ description: "Last local date, inclusive; default today" }),
  offering_id: Schema.optional(Schema.UUID).annotations({
    description: "Only this offering's figures (another org's id, or an unknown one, has none)"
  })
})

export const RevenueQuery = Schema.Struct({
  ...ReportQuery.fields,
  by: Schema.optional(Schema.Literal("day", "week", "month", "offering")).annotations({
    description: "Rows per local day (default), ISO week (from Monday), month, or offering"
  })
})

const frame = {
  currency: Schema.String,
  timezone: Schema.String,
  from: Schema.String,
  to: Schema.String
}

/** A report: its frame (currency, zone, dates) and its rows. */
const report = <Row extends Schema.Schema.Any>(identifier: string, row: Row) =>
  Schema.Struct({ ...frame, data: Schema.Array(row) }).annotations({ identifier })

export const RevenueRow = Schema.Struct({
  period: Schema.NullOr(Schema.String).annotations({ description: "First local date of the day, week or month" }),
  offering_id: Schema.NullOr(Schema.String),
  offering_name: Schema.NullOr(Schema.String),
  bookings: Schema.Int,
  charged_cents: Cents,
  refunded_cents: Cents,
  net_cents: Cents,
  gift_card_cents: Cents,
  discount_cents: Cents,
  deposits_due_cents: Cents.annotations({ description: "Confirmed bookings paid in part: what remains of their total" })
})
export const RevenueReport = report("RevenueReport", RevenueRow)

export const OccupancyRow = Schema.Struct({
  offering_id: Schema.String,
  offering_name: Schema.String,
  hour: Schema.Int.annotations({ description: "Local hour of day (0-23) the times start" }),
  times: Schema.Int,
  places_offered: Schema.Int,
  places_sold: Schema.Int
})
export const OccupancyReport = report("OccupancyReport", OccupancyRow)

export const AttendanceRow = Schema.Struct({
  offering_id: Schema.String,
  offering_name: Schema.String,
  bookings: Schema.Int.annotations({ description: "Bookings confirmed at some point, starting in the range" }),
  cancelled: Schema.Int,
  checked_in: Schema.Int,
  no_shows: Schema.Int
})
export const AttendanceReport = report("AttendanceReport", AttendanceRow)

export const WaitlistRow = Schema.Struct({
  offering_id: Schema.String,
  offering_name: Schema.String,
  joins: Schema.Int,
  got_a_place: Schema.Int
})
export const WaitlistReport = report("WaitlistReport", WaitlistRow)
