import { Schema } from "effect"
import { BookingsQuery } from "./booking.ts"
import { LocalDate, QueryInt } from "./common.ts"
import { CustomersQuery } from "./customer.ts"

/** Rows read from the database at a time while an export is written. */
export const EXPORT_PAGE_ROWS = 500
/** The most rows one MCP call of an export answers (it gives `next` to carry on). */
export const MCP_EXPORT_ROWS = 1000

const Limit = Schema.optional(
  QueryInt(
    1,
    10_000_000,
    `At most this many rows. REST: all of them unless set; an MCP call answers at most ${MCP_EXPORT_ROWS} (the default there) with next`
  )
)

const { limit: _limit, after: _after, ...bookingFilters } = BookingsQuery.fields

export const BookingsExportQuery = Schema.Struct({
  ...bookingFilters,
  after: Schema.optional(Schema.UUID).annotations({
    description: "Rows after this booking (the id of the last row received, or an MCP answer's next)"
  }),
  limit: Limit
})
export type BookingsExportQuery = typeof BookingsExportQuery.Type

export const GuestsExportQuery = Schema.Struct({
  q: CustomersQuery.fields.q,
  after: Schema.optional(Schema.UUID).annotations({
    description: "Rows after this guest (the id of the last row received, or an MCP answer's next)"
  }),
  limit: Limit
})
export type GuestsExportQuery = typeof GuestsExportQuery.Type

/** A row of payments.csv: a payment, or the refund of one (a refund's key is its payment's id, kind refund). */
export const PaymentKind = Schema.Literal("payment", "refund")
export type PaymentKind = typeof PaymentKind.Type
export const PAYMENT_CURSOR = /^(payment|refund):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const PaymentsExportQuery = Schema.Struct({
  from: Schema.optional(LocalDate).annotations({ description: "First local date (the org's zone) of the rows' time" }),
  to: Schema.optional(LocalDate).annotations({ description: "Last local date, inclusive" }),
  kind: Schema.optional(PaymentKind).annotations({ description: "Only payments, or only refunds" }),
  booking_id: Schema.optional(Schema.UUID).annotations({ description: "Only this booking's payments and refunds" }),
  after: Schema.optional(Schema.String.pipe(Schema.pattern(PAYMENT_CURSOR))).annotations({
    description:
      "Rows after this one: <kind>:<id> of the last row received (payment:… or refund:…), or an MCP answer's next"
  }),
  limit: Limit
})
export type PaymentsExportQuery = typeof PaymentsExportQuery.Type

/** What an MCP call of an export answers: a page of the CSV and where to carry on. */
export const ExportPage = Schema.Struct({
  csv: Schema.String.annotations({ description: "CSV text: the header line, then up to 1,000 rows (CRLF line ends)" }),
  rows: Schema.Int.annotations({ description: "Rows in csv, the header not counted" }),
  next: Schema.NullOr(Schema.String).annotations({
    description: "Pass as after for the rows that follow; null when this page is the last"
  })
}).annotations({ identifier: "ExportPage" })
