import { Schema } from "effect"
import { described, LocalDate, strict } from "./common.ts"
import { TimeInput } from "./offering.ts"

const meaning = {
  offering_id: "The offering it closes; null: the whole org (every offering)",
  starts_on: "First local date closed (the org's time zone)",
  ends_on: "Last local date closed, inclusive (default: starts_on)",
  open_hours:
    "Hours open on those dates after all, in place of the weekly hours (Cal.com's date overrides); empty: closed all day",
  note: "Shown to guests: why it is closed (up to 500 characters)",
  guests:
    "What happens to bookings inside it (closures.preview lists them): refund cancels and refunds them, choose lets their guests pick another time (as sessions.cancel); needed when there are any"
}

export const OpenHoursEntry = Schema.Struct({ start_time: TimeInput, end_time: TimeInput }).annotations(strict)

export const Closure = Schema.Struct(
  described(meaning, {
    id: Schema.String,
    offering_id: Schema.NullOr(Schema.String),
    starts_on: Schema.String,
    ends_on: Schema.String,
    open_hours: Schema.Array(Schema.Struct({ start_time: Schema.String, end_time: Schema.String })),
    note: Schema.NullOr(Schema.String),
    starts_at: Schema.String.annotations({ description: "The span's first instant (midnight of starts_on), UTC" }),
    ends_at: Schema.String.annotations({ description: "The span's end (midnight after ends_on), UTC" }),
    created_at: Schema.String
  })
).annotations({ identifier: "Closure" })
export type Closure = typeof Closure.Type

const GuestsChoice = Schema.Literal("refund", "choose")

export const ClosureCreate = Schema.Struct(
  described(meaning, {
    offering_id: Schema.optional(Schema.NullOr(Schema.UUID)),
    starts_on: LocalDate,
    ends_on: Schema.optional(LocalDate),
    open_hours: Schema.optional(Schema.Array(OpenHoursEntry).pipe(Schema.maxItems(12))),
    note: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(500)))),
    guests: Schema.optional(GuestsChoice)
  })
).annotations({
  ...strict,
  identifier: "ClosureCreate",
  examples: [
    { starts_on: "2026-12-24", ends_on: "2026-12-26", note: "Closed for the holidays" },
    {
      offering_id: "6f1c2f0e-8a51-4a39-9a57-1f4d2b7c9e10",
      starts_on: "2026-12-31",
      open_hours: [{ start_time: "10:00", end_time: "14:00" }],
      note: "Short hours on New Year's Eve",
      guests: "choose"
    }
  ]
})
export type ClosureCreate = typeof ClosureCreate.Type

export const ClosuresQuery = Schema.Struct({
  offering_id: Schema.optional(
    Schema.UUID.annotations({ description: "Only the closures that apply to this offering (its own and the org's)" })
  ),
  from: Schema.optional(LocalDate).annotations({ description: "Closures ending on or after this local date" }),
  to: Schema.optional(LocalDate).annotations({ description: "Closures starting on or before this local date" })
})

/** A time on a calendar inside the closure, with places booked. */
const AffectedTime = Schema.Struct({
  session_id: Schema.String,
  offering_id: Schema.String,
  starts_at: Schema.String,
  ends_at: Schema.String,
  booked: Schema.Int
})

/** A booking on weekly hours (an appointment or a rental) inside the closure. */
const AffectedBooking = Schema.Struct({
  booking_id: Schema.String,
  offering_id: Schema.String,
  starts_at: Schema.String,
  ends_at: Schema.String,
  status: Schema.String
})

export const ClosurePreview = Schema.Struct({
  closure: Closure.annotations({ description: "The closure as it would be made (its id is not kept)" }),
  times: Schema.Array(AffectedTime).annotations({
    description: "Booked times on calendars inside it: cancelled with guests refund or choose, as sessions.cancel"
  }),
  bookings: Schema.Array(AffectedBooking).annotations({
    description: "Bookings on weekly hours inside it: cancelled and refunded (refund) or called off to choose again"
  })
}).annotations({ identifier: "ClosurePreview" })
export type ClosurePreview = typeof ClosurePreview.Type
