import { Schema } from "effect"
import { Int, JsonObject, MetadataInput, Text, Timestamp, strict } from "./common.ts"

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
  type: QuestionType,
  options: Schema.optional(Schema.Array(Text(1, 40)).pipe(
    Schema.minItems(2),
    Schema.maxItems(8),
    Schema.filter((xs) => new Set(xs).size === xs.length, { message: () => "options must each appear once" })
  )),
  required: Schema.optional(Schema.Boolean)
}).pipe(
  Schema.filter((q) => (q.type === "choice") === (q.options !== undefined), {
    message: () => "options are required for a choice question and not taken by other types"
  })
).annotations(strict)

export const TimeInput = Schema.String.pipe(
  Schema.pattern(/^(([01]\d|2[0-3]):[0-5]\d(:00)?|24:00(:00)?)$/)
).annotations({ description: "HH:MM or HH:MM:SS with seconds 00, or 24:00" })

export const HoursEntry = Schema.Struct({
  weekday: Int(0, 6),
  start_time: TimeInput,
  end_time: TimeInput
}).annotations(strict)
export type HoursEntry = typeof HoursEntry.Type

export const HoursBody = Schema.Struct({ hours: Schema.Array(HoursEntry).pipe(Schema.maxItems(50)) }).annotations(strict)
export const HoursList = Schema.Struct({
  data: Schema.Array(Schema.Struct({ weekday: Schema.Int, start_time: Schema.String, end_time: Schema.String }))
})

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

const optionalFields = Object.fromEntries(
  Object.entries(fields).map(([k, v]) => [k, Schema.optional(v)])
) as { [K in keyof typeof fields]: Schema.optional<(typeof fields)[K]> }

export const OfferingUpdate = Schema.Struct(optionalFields).annotations({ ...strict, identifier: "OfferingUpdate" })
export type OfferingUpdate = typeof OfferingUpdate.Type

export const OfferingCreate = Schema.Struct({ ...optionalFields, kind: Kind, name: fields.name }).annotations({
  ...strict,
  identifier: "OfferingCreate"
})
export type OfferingCreate = typeof OfferingCreate.Type

export const Offering = Schema.Struct({
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
}).annotations({ identifier: "Offering" })
export type Offering = typeof Offering.Type

export const DeleteResult = Schema.Struct({
  cancelled: Schema.Int,
  refunded: Schema.Int,
  refunding: Schema.Int,
  refund_failed: Schema.Int
})
