import { Schema } from "effect"
import { Instant, Int, LocalDate, strict, Text } from "./common.ts"
import { TimeInput } from "./offering.ts"

export const Repeat = Schema.Literal("none", "daily", "weekly", "monthly", "yearly", "weekdays")
export const Teacher = Schema.NullOr(Schema.Struct({ user_id: Schema.String, name: Schema.String }))

export const Entry = Schema.Struct({
  id: Schema.String,
  org_id: Schema.String,
  offering_id: Schema.String,
  starts_on: Schema.String,
  start_time: Schema.NullOr(Schema.String),
  end_time: Schema.NullOr(Schema.String),
  span_days: Schema.Int,
  repeat: Repeat,
  capacity: Schema.NullOr(Schema.Int),
  ends_on: Schema.NullOr(Schema.String),
  made_until: Schema.String,
  teacher: Teacher,
  created_at: Schema.String
}).annotations({ identifier: "CalendarEntry" })
export type Entry = typeof Entry.Type

const entryFields = {
  starts_on: LocalDate,
  start_time: Schema.optional(Schema.NullOr(TimeInput)),
  end_time: Schema.optional(Schema.NullOr(TimeInput)),
  span_days: Schema.optional(Int(0, 30)),
  repeat: Schema.optional(Repeat),
  capacity: Schema.optional(Schema.NullOr(Int(1, 10000))),
  teacher: Schema.optional(Schema.NullOr(Schema.UUID)),
  ends_on: Schema.optional(Schema.NullOr(LocalDate))
}

export const EntryCreate = Schema.Struct({ ...entryFields, offering_id: Schema.UUID }).annotations({ ...strict, identifier: "CalendarEntryCreate" })
export type EntryCreate = typeof EntryCreate.Type
export const EntryUpdate = Schema.Struct({ ...entryFields, starts_on: Schema.optional(LocalDate) }).annotations({ ...strict, identifier: "CalendarEntryUpdate" })
export type EntryUpdate = typeof EntryUpdate.Type

export const Session = Schema.Struct({
  id: Schema.String,
  org_id: Schema.String,
  offering_id: Schema.String,
  starts_at: Schema.String,
  ends_at: Schema.String,
  capacity: Schema.NullOr(Schema.Int),
  status: Schema.Literal("scheduled", "cancelled"),
  series_id: Schema.NullOr(Schema.String),
  occurs_on: Schema.NullOr(Schema.String),
  teacher: Teacher,
  created_at: Schema.String,
  booked: Schema.optional(Schema.Int)
}).annotations({ identifier: "Session" })
export type Session = typeof Session.Type

export const SessionCreate = Schema.Struct({
  offering_id: Schema.UUID,
  starts_at: Instant,
  ends_at: Schema.optional(Instant),
  repeat_weeks: Schema.optional(Int(1, 52)),
  capacity: Schema.optional(Schema.NullOr(Int(1, 10000))),
  teacher: Schema.optional(Schema.NullOr(Schema.UUID))
}).annotations({ ...strict, identifier: "SessionCreate" })
export type SessionCreate = typeof SessionCreate.Type

export const SessionUpdate = Schema.Struct({
  starts_at: Schema.optional(Instant),
  ends_at: Schema.optional(Instant),
  teacher: Schema.optional(Schema.NullOr(Schema.UUID))
}).annotations({ ...strict, identifier: "SessionUpdate" })
export type SessionUpdate = typeof SessionUpdate.Type

export const SessionCancel = Schema.Struct({
  guests: Schema.optional(Schema.Literal("refund", "choose")),
  note: Schema.optional(Text(0, 200))
}).annotations({ ...strict, identifier: "SessionCancel" })

export const SessionsQuery = Schema.Struct({
  offering_id: Schema.optional(Schema.UUID),
  from: Schema.optional(Instant),
  to: Schema.optional(Instant),
  status: Schema.optional(Schema.Literal("scheduled", "cancelled"))
})

export const Slot = Schema.Struct({
  starts_at: Schema.String,
  ends_at: Schema.String,
  capacity: Schema.Int,
  remaining: Schema.Int,
  session_id: Schema.optional(Schema.String),
  series_id: Schema.optional(Schema.String),
  sessions: Schema.optional(Schema.Int),
  repeat: Schema.optional(Schema.String)
}).annotations({ identifier: "Slot" })

export const Availability = Schema.Struct({ timezone: Schema.String, data: Schema.Array(Slot) })
export const AvailabilityQuery = Schema.Struct({ from: Schema.optional(LocalDate), to: Schema.optional(LocalDate) })
export const SeriesDeleted = Schema.Struct({ cancelled: Schema.Int })
