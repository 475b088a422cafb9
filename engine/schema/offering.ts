import { Schema } from "effect"
import { described, Int, JsonObject, MetadataInput, strict, Text, Timestamp } from "./common.ts"

/** Money and counts are stored as Postgres integer. */
const INT4_MAX = 2_147_483_647

/** Any JSON value. Overrides Schema.Unknown's JSON Schema, whose fixed `$id` repeated makes the OpenAPI document invalid. */
const Metadata = JsonObject

export const Kind = Schema.Literal("class", "appointment", "rental")
export type Kind = typeof Kind.Type

const QuestionType = Schema.Literal("text", "yes_no", "choice")

export const Question = Schema.Struct({
  id: Schema.String,
  label: Schema.String,
  type: QuestionType,
  options: Schema.optional(Schema.Array(Schema.String)),
  required: Schema.Boolean
})
export type Question = typeof Question.Type

export const QuestionInput = Schema.Struct({
  id: Schema.optional(Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{1,40}$/))),
  label: Text(1, 80),
  type: QuestionType.annotations({
    description: "text: a line; yes_no: true or false; choice: one of the options"
  }),
  options: Schema.optional(
    Schema.Array(Text(1, 40)).pipe(
      Schema.minItems(2),
      Schema.maxItems(8),
      Schema.filter((xs) => new Set(xs).size === xs.length, { message: () => "options must each appear once" })
    )
  ),
  required: Schema.optional(
    Schema.Boolean.annotations({ description: "Guests must answer it to book (default false)" })
  )
})
  .pipe(
    Schema.filter((q) => (q.type === "choice") === (q.options !== undefined), {
      message: () => "options are required for a choice question and not taken by other types"
    })
  )
  .annotations(strict)

export const TimeInput = Schema.String.pipe(
  Schema.pattern(/^(([01]\d|2[0-3]):[0-5]\d(:00)?|24:00(:00)?)$/)
).annotations({ description: "HH:MM or HH:MM:SS with seconds 00, or 24:00" })

export const HoursEntry = Schema.Struct({
  weekday: Int(0, 6),
  start_time: TimeInput,
  end_time: TimeInput
}).annotations(strict)
export type HoursEntry = typeof HoursEntry.Type

export const HoursBody = Schema.Struct({ hours: Schema.Array(HoursEntry).pipe(Schema.maxItems(50)) }).annotations({
  ...strict,
  examples: [
    {
      hours: [
        { weekday: 1, start_time: "09:00", end_time: "17:00" },
        { weekday: 6, start_time: "10:00", end_time: "14:00" }
      ]
    }
  ]
})
export const HoursList = Schema.Struct({
  data: Schema.Array(Schema.Struct({ weekday: Schema.Int, start_time: Schema.String, end_time: Schema.String }))
})

/** What an offering's fields mean, by kind where it matters (input and output alike). */
const meaning = {
  kind: "class: sessions with seats, from a calendar; appointment: times from a calendar or weekly hours; rental: items booked over periods. Set on create only",
  location: "Address, place, GPS coordinates, or an https meeting link for an online offering",
  duration_minutes: "Length of a class session or an appointment, or of one rental period (1440 = a day)",
  capacity: "class: seats per session; appointment: parallel bookings per slot; rental: items in stock",
  max_per_booking: "Most seats, people or items in one booking; an appointment defaults to 1 (one-on-one)",
  price_cents:
    "Minor units of the org's currency. class: per seat; appointment: per appointment for its first person; rental: per item per period",
  guest_price_cents:
    "appointment only: minor units for each additional guest in a party; null charges each the full price, 0 makes them free",
  deposit_cents:
    "Deposit in minor units paid at booking where guests pay online (at most the total; the rest is due at the start); null: the whole total. Setting it clears deposit_percent",
  deposit_percent:
    "Deposit as a percent of the total, 1 to 99 (rounded half up to a minor unit, after any promo code); null: the whole total. Setting it clears deposit_cents",
  slot_interval_minutes: "Minutes between start times offered from weekly hours or a rental's day; null: back to back",
  buffer_minutes:
    "Minutes kept free before and after each booking, for rentals and appointments on weekly hours (a calendar's times keep none)",
  min_notice_minutes: "Booking closes this many minutes before a time starts (0: open until it starts)",
  max_advance_days: "How many days ahead a time may be booked",
  max_periods: "rental only: most periods one booking can span",
  active: "false pauses booking (guests and agents cannot book it); the offering stays listed",
  lat: "Meeting point latitude, for the map link and the weather; a new location without lat and lon sets them from coordinates in its text, or clears them",
  lon: "Meeting point longitude (see lat)",
  place_id: "A maps service's place id, which the guest's map link opens; a new location without it clears it",
  gauge_site: "A river gauge site number (8 to 15 digits), whose latest reading the guest's page shows",
  schedule:
    "appointment only: where its times come from, calendar (series and sessions) or hours (weekly hours); null for other kinds. A new appointment uses the calendar",
  waiver_required:
    "Each person booked signs the org's waiver (one signature per seat or guest, one per rental booking); needs the org's waiver text",
  waitlist_enabled:
    "A full time keeps a waitlist; only for times on a calendar (a class, or an appointment on its calendar)",
  course:
    "class only: sold as a course, booked whole (a seat in every time of a calendar entry, from its first to come) at price_cents per seat",
  questions: "Asked of guests as they book, in this order (at most 6); the whole list replaces the previous one",
  photo_url:
    "Absolute URL of the offering's JPEG, or null; read-only here (offerings.set_photo, PUT /api/v1/offerings/{id}/photo)"
}

const fields = {
  name: Text(1, 120),
  description: Text(0, 2000),
  location: Text(0, 500),
  duration_minutes: Int(5, 43200),
  capacity: Int(1, 10000),
  max_per_booking: Int(1, 10000),
  price_cents: Int(0, INT4_MAX),
  guest_price_cents: Schema.NullOr(Int(0, INT4_MAX)),
  deposit_cents: Schema.NullOr(Int(1, INT4_MAX)),
  deposit_percent: Schema.NullOr(Int(1, 99)),
  slot_interval_minutes: Schema.NullOr(Int(5, 1440)),
  buffer_minutes: Int(0, 1440),
  min_notice_minutes: Int(0, 43200),
  max_advance_days: Int(1, 730),
  max_periods: Int(1, 60),
  active: Schema.Boolean,
  metadata: MetadataInput,
  lat: Schema.NullOr(Schema.Number.pipe(Schema.between(-90, 90))),
  lon: Schema.NullOr(Schema.Number.pipe(Schema.between(-180, 180))),
  place_id: Schema.NullOr(Text(1, 300)),
  gauge_site: Schema.NullOr(Schema.String.pipe(Schema.pattern(/^\d{8,15}$/))),
  schedule: Schema.Literal("hours", "calendar"),
  waiver_required: Schema.Boolean,
  waitlist_enabled: Schema.Boolean,
  questions: Schema.Array(QuestionInput).pipe(Schema.maxItems(6)),
  course: Schema.Boolean
}

const optionalFields = described(
  meaning,
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Schema.optional(v)]))
) as { [K in keyof typeof fields]: Schema.optional<(typeof fields)[K]> }

export const OfferingUpdate = Schema.Struct(optionalFields).annotations({
  ...strict,
  identifier: "OfferingUpdate",
  examples: [{ price_cents: 1800, active: false }]
})
export type OfferingUpdate = typeof OfferingUpdate.Type

export const OfferingCreate = Schema.Struct({
  ...optionalFields,
  kind: Schema.propertySignature(Kind).annotations({ description: meaning.kind }),
  name: fields.name
}).annotations({
  ...strict,
  identifier: "OfferingCreate",
  examples: [
    {
      kind: "class",
      name: "Morning yoga",
      duration_minutes: 60,
      capacity: 12,
      price_cents: 1500,
      location: "Studio 2, 14 Harbour St"
    },
    { kind: "rental", name: "Sup board", duration_minutes: 1440, capacity: 8, price_cents: 3000, max_periods: 7 }
  ]
})
export type OfferingCreate = typeof OfferingCreate.Type

export const Offering = Schema.Struct(
  described(meaning, {
    id: Schema.String,
    org_id: Schema.String,
    kind: Kind,
    name: Schema.String,
    description: Schema.String,
    location: Schema.String,
    duration_minutes: Schema.Int,
    capacity: Schema.Int,
    max_per_booking: Schema.Int,
    price_cents: Schema.Int,
    guest_price_cents: Schema.NullOr(Schema.Int),
    deposit_cents: Schema.NullOr(Schema.Int),
    deposit_percent: Schema.NullOr(Schema.Int),
    slot_interval_minutes: Schema.NullOr(Schema.Int),
    buffer_minutes: Schema.Int,
    min_notice_minutes: Schema.Int,
    max_advance_days: Schema.Int,
    max_periods: Schema.Int,
    active: Schema.Boolean,
    metadata: Metadata,
    lat: Schema.NullOr(Schema.Number),
    lon: Schema.NullOr(Schema.Number),
    place_id: Schema.NullOr(Schema.String),
    gauge_site: Schema.NullOr(Schema.String),
    schedule: Schema.NullOr(Schema.Literal("hours", "calendar")),
    waiver_required: Schema.Boolean,
    waitlist_enabled: Schema.Boolean,
    course: Schema.Boolean,
    questions: Schema.Array(Question),
    photo_url: Schema.NullOr(Schema.String),
    created_at: Timestamp,
    updated_at: Schema.NullOr(Timestamp)
  })
).annotations({ identifier: "Offering" })
export type Offering = typeof Offering.Type

export const DeleteResult = Schema.Struct({
  cancelled: Schema.Int,
  refunded: Schema.Int,
  refunding: Schema.Int,
  refund_failed: Schema.Int
})
