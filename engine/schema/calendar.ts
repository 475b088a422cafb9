import { Schema } from "effect"
import { described, Instant, Int, LocalDate, QueryInt, strict, Text } from "./common.ts"
import { TimeInput } from "./offering.ts"

export const Repeat = Schema.Literal("none", "daily", "weekly", "monthly", "yearly", "weekdays")
export const Teacher = Schema.NullOr(Schema.Struct({ user_id: Schema.String, name: Schema.String }))

/** What calendar fields mean: local dates and times are the org's wall clock; instants are UTC. */
const meaning = {
  starts_on: "Local date (YYYY-MM-DD, the org's time zone) of the first time",
  start_time: "Local start time HH:MM:SS; null with end_time: all day",
  end_time: "Local end time HH:MM:SS; before start_time with span_days 1 runs overnight",
  span_days: "Days from a time's date to the date it ends (0 to 30)",
  repeat:
    "none, daily, weekly (the first date's weekday), monthly (that weekday of the month, e.g. the last Tuesday), yearly, or weekdays (Monday to Friday)",
  capacity: "classes only: seats for these times; null uses the class's capacity",
  ends_on: "Last local date of a repeat, inclusive; null repeats on (a course's repeat needs one)",
  made_until: "Local date through which its times exist; repeats are kept about a year ahead",
  teacher: "Input: the user id of a team member, or null. Output: { user_id, name }",
  starts_at: "ISO 8601 instant, UTC",
  ends_at: "ISO 8601 instant, UTC (sessions.create: default the offering's length after starts_at)",
  repeat_weeks: "Repeat weekly this many more weeks at the same local time (1 to 52): 1 makes two times",
  occurs_on: "Its entry's local date for it",
  booked: "Only in sessions.list: seats booked in a class; bookings at the time in an appointment",
  series_id: "The calendar entry it belongs to; null when scheduled on its own",
  guests: "refund (default): every booking cancelled and refunded; choose: guests pick another time before choose_by",
  note: "Included in the guests' email (at most 200 characters)",
  remaining: "Places left: seats, parallel bookings or items; for a course, the seats left in its fullest time",
  sessions: "A course: how many times it has to come"
}

export const Entry = Schema.Struct(
  described(meaning, {
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
  })
).annotations({ identifier: "CalendarEntry" })
export type Entry = typeof Entry.Type

const entryFields = described(meaning, {
  starts_on: LocalDate,
  start_time: Schema.optional(Schema.NullOr(TimeInput)),
  end_time: Schema.optional(Schema.NullOr(TimeInput)),
  span_days: Schema.optional(Int(0, 30)),
  repeat: Schema.optional(Repeat),
  capacity: Schema.optional(Schema.NullOr(Int(1, 10000))),
  teacher: Schema.optional(Schema.NullOr(Schema.UUID)),
  ends_on: Schema.optional(Schema.NullOr(LocalDate))
})

export const EntryCreate = Schema.Struct({ ...entryFields, offering_id: Schema.UUID }).annotations({
  ...strict,
  identifier: "CalendarEntryCreate",
  examples: [
    {
      offering_id: "6f1c2f0e-8a51-4a39-9a57-1f4d2b7c9e10",
      starts_on: "2026-06-01",
      start_time: "09:00",
      end_time: "10:00",
      repeat: "weekly",
      ends_on: "2026-08-31"
    }
  ]
})
export type EntryCreate = typeof EntryCreate.Type
export const EntryUpdate = Schema.Struct({ ...entryFields, starts_on: Schema.optional(LocalDate) }).annotations({
  ...strict,
  identifier: "CalendarEntryUpdate",
  examples: [{ start_time: "09:30", end_time: "10:30", teacher: "3c8e2a7d-1f4b-4d6e-9a2c-8b5f7e1d3a90" }]
})
export type EntryUpdate = typeof EntryUpdate.Type

export const Session = Schema.Struct(
  described(meaning, {
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
  })
).annotations({ identifier: "Session" })
export type Session = typeof Session.Type

export const SessionCreate = Schema.Struct(
  described(meaning, {
    offering_id: Schema.UUID,
    starts_at: Instant,
    ends_at: Schema.optional(Instant),
    repeat_weeks: Schema.optional(Int(1, 52)),
    capacity: Schema.optional(Schema.NullOr(Int(1, 10000))),
    teacher: Schema.optional(Schema.NullOr(Schema.UUID))
  })
).annotations({
  ...strict,
  identifier: "SessionCreate",
  examples: [
    {
      offering_id: "6f1c2f0e-8a51-4a39-9a57-1f4d2b7c9e10",
      starts_at: new Date("2026-06-03T17:00:00Z"),
      repeat_weeks: 4,
      capacity: 10
    }
  ]
})
export type SessionCreate = typeof SessionCreate.Type

export const SessionUpdate = Schema.Struct(
  described(meaning, {
    starts_at: Schema.optional(Instant),
    ends_at: Schema.optional(Instant),
    teacher: Schema.optional(Schema.NullOr(Schema.UUID))
  })
).annotations({
  ...strict,
  identifier: "SessionUpdate",
  examples: [{ starts_at: new Date("2026-06-03T18:00:00Z"), ends_at: new Date("2026-06-03T19:00:00Z") }]
})
export type SessionUpdate = typeof SessionUpdate.Type

export const SessionCancel = Schema.Struct(
  described(meaning, {
    guests: Schema.optional(Schema.Literal("refund", "choose")),
    note: Schema.optional(Text(0, 200))
  })
).annotations({
  ...strict,
  identifier: "SessionCancel",
  examples: [{ guests: "choose", note: "The teacher is ill; pick another evening or take a refund." }]
})

export const SessionPage = Schema.Struct({
  data: Schema.Array(Session),
  next_after: Schema.NullOr(Schema.String).annotations({
    description: "Pass as after for the next page; null after the last"
  })
})

export const SessionsQuery = Schema.Struct({
  offering_id: Schema.optional(Schema.UUID),
  from: Schema.optional(Instant),
  to: Schema.optional(Instant),
  status: Schema.optional(Schema.Literal("scheduled", "cancelled")).annotations({
    description: "Only times in this status (default both)"
  }),
  limit: Schema.optional(QueryInt(1, 2000, "At most this many times in the page (default 2000)")),
  after: Schema.optional(
    Schema.UUID.annotations({
      description: "A session's id (next_after of the page before): the page continues after it"
    })
  )
})

export const Slot = Schema.Struct(
  described(
    {
      starts_at: meaning.starts_at,
      ends_at: "ISO 8601 instant, UTC",
      remaining: meaning.remaining,
      sessions: meaning.sessions
    },
    {
      starts_at: Schema.String,
      ends_at: Schema.String,
      capacity: Schema.Int,
      remaining: Schema.Int,
      session_id: Schema.optional(Schema.String),
      series_id: Schema.optional(Schema.String),
      sessions: Schema.optional(Schema.Int),
      repeat: Schema.optional(Schema.String)
    }
  )
).annotations({ identifier: "Slot" })

/** A closure as guests see it beside the times (closures.*). */
export const ClosureNotice = Schema.Struct({
  starts_on: Schema.String,
  ends_on: Schema.String,
  open_hours: Schema.Array(Schema.Struct({ start_time: Schema.String, end_time: Schema.String })),
  note: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ClosureNotice" })
export const Availability = Schema.Struct({
  timezone: Schema.String,
  data: Schema.Array(Slot),
  closures: Schema.optional(Schema.Array(ClosureNotice)).annotations({
    description:
      "Closures meeting the window (local dates, the hours open on them if any, the note for guests); absent when none"
  })
})
export const AvailabilityQuery = Schema.Struct({ from: Schema.optional(LocalDate), to: Schema.optional(LocalDate) })
export const SeriesDeleted = Schema.Struct({
  cancelled: Schema.Int.annotations({ description: "Booked future times cancelled (their bookings with them)" })
})
