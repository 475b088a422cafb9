import { GiftCardCode } from "./gift.ts"
import { PromoCodeText } from "./promo.ts"
import { Schema } from "effect"
import { Instant, Int, JsonObject, MAX_TOTAL_CENTS, MetadataInput, Text, strict } from "./common.ts"
import { Email } from "./customer.ts"
import { Kind, Question } from "./offering.ts"

export const BookingStatus = Schema.Literal("held", "confirmed", "cancelled")
const Nullable = <S extends Schema.Schema.Any>(s: S) => Schema.NullOr(s)
const Times = Schema.Struct({ starts_at: Schema.String, ends_at: Schema.String, session_id: Schema.NullOr(Schema.String) })

export const BookingCustomer = Schema.Struct({
  id: Schema.String,
  name: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String)
})

/** Guest's answers keyed by question id: text (a choice's option as listed), or true/false for yes_no. */
const Metadata = JsonObject
const Answers = Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Boolean) })

export const Booking = Schema.Struct({
  id: Schema.String,
  org_id: Schema.String,
  offering_id: Schema.String,
  customer_id: Schema.String,
  session_id: Nullable(Schema.String),
  series_id: Nullable(Schema.String),
  starts_at: Schema.String,
  ends_at: Schema.String,
  quantity: Schema.Int,
  total_cents: Schema.Int,
  promo_code: Nullable(Schema.String),
  discount_cents: Schema.Int,
  gift_card_id: Nullable(Schema.String),
  gift_cents: Schema.Int,
  reference: Schema.String,
  status: BookingStatus,
  source: Schema.String,
  notes: Schema.String,
  answers: Answers,
  metadata: Metadata,
  cancelled_at: Nullable(Schema.String),
  created_at: Schema.String,
  expires_at: Nullable(Schema.String),
  checkout_url: Nullable(Schema.String),
  paid_at: Nullable(Schema.String),
  paid_cents: Nullable(Schema.Int),
  payment_intent_id: Nullable(Schema.String),
  charged_cents: Nullable(Schema.Int),
  refund_id: Nullable(Schema.String),
  refund_cents: Nullable(Schema.Int),
  refunded_at: Nullable(Schema.String),
  refund_failed_at: Nullable(Schema.String),
  refund_error: Nullable(Schema.String),
  refund_next_at: Nullable(Schema.String),
  guest_cancel_hours: Nullable(Schema.Int),
  nudged_at: Nullable(Schema.String),
  choose_by: Nullable(Schema.String),
  waiver_token: Nullable(Schema.String),
  waiver: Nullable(Schema.Struct({
    needed: Schema.Int,
    signed: Schema.Int,
    signatures: Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String, signed_at: Schema.String, for: Schema.Literal("booker", "child", "guest") }))
  }).annotations({ identifier: "BookingWaiver", description: "Signatures needed (one per seat or person, one per rental) and held" })),
  confirmed_at: Nullable(Schema.String),
  updated_at: Nullable(Schema.String),
  reseller_reference: Nullable(Schema.String),
  cancel_reason: Nullable(Schema.String),
  checked_in_at: Nullable(Schema.String),
  no_show_at: Nullable(Schema.String),
  previous: Schema.optional(Times),
  offering: Schema.optional(Schema.Struct({ id: Schema.String, name: Schema.String, kind: Kind, questions: Schema.Array(Question) })),
  customer: Schema.optional(BookingCustomer)
}).annotations({ identifier: "Booking" })
export type Booking = typeof Booking.Type


export const BookingCreate = Schema.Struct({
  offering_id: Schema.UUID,
  starts_at: Schema.optional(Instant),
  quantity: Schema.optional(Int(1, 10000)),
  customer: Schema.Struct({ email: Email, name: Text(1, 120), phone: Schema.optional(Text(3, 40)) }).annotations(strict),
  session_id: Schema.optional(Schema.UUID),
  series_id: Schema.optional(Schema.UUID),
  periods: Schema.optional(Int(1, 60)),
  answers: Schema.optional(Answers),
  notes: Schema.optional(Text(0, 2000)),
  metadata: Schema.optional(MetadataInput),
  hold_minutes: Schema.optional(Int(1, 30)),
  promo_code: Schema.optional(PromoCodeText),
  gift_card_code: Schema.optional(GiftCardCode),
  waiver: Schema.optional(Schema.Struct({
    accept: Schema.Literal(true),
    name: Text(1, 120),
    children: Schema.optional(Schema.Array(Text(1, 120)).pipe(Schema.maxItems(100)))
  }).annotations({ ...strict, identifier: "WaiverAcceptance", description: "The booker signs the org's waiver as they book, for themselves and any children named" }))
}).annotations({ ...strict, identifier: "BookingCreate" })
export type BookingCreate = typeof BookingCreate.Type

export const BookingsQuery = Schema.Struct({
  from: Schema.optional(Instant),
  to: Schema.optional(Instant),
  status: Schema.optional(BookingStatus),
  offering_id: Schema.optional(Schema.UUID),
  customer_id: Schema.optional(Schema.UUID),
  session_id: Schema.optional(Schema.UUID),
  reference: Schema.optional(Text(0, 40)),
  q: Schema.optional(Text(0, 80)),
  order: Schema.optional(Schema.Literal("asc", "desc")),
  limit: Schema.optional(Schema.NumberFromString.pipe(Schema.compose(Int(1, 500)))),
  after: Schema.optional(Schema.UUID)
})
export type BookingsQuery = typeof BookingsQuery.Type

export const BookingPage = Schema.Struct({ data: Schema.Array(Booking), next_after: Schema.NullOr(Schema.String) })

export const CancelBody = Schema.Struct({
  refund_cents: Schema.optional(Schema.NullOr(Int(0, MAX_TOTAL_CENTS))),
  reason: Schema.optional(Text(0, 500))
}).annotations({ ...strict, identifier: "BookingCancel" })
export const MoveBody = Schema.Struct({
  starts_at: Schema.optional(Instant),
  session_id: Schema.optional(Schema.UUID)
}).annotations({ ...strict, identifier: "BookingMove" })
export const AttendanceBody = Schema.Struct({
  attendance: Schema.Literal("checked_in", "no_show", "clear")
}).annotations({ ...strict, identifier: "BookingAttendance" })
export const MarkPaidBody = Schema.Struct({ paid_cents: Schema.optional(Int(0, MAX_TOTAL_CENTS)) }).annotations({ ...strict, identifier: "BookingMarkPaid" })
