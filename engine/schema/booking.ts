import { Schema } from "effect"
import {
  described,
  Instant,
  Int,
  JsonObject,
  MAX_TOTAL_CENTS,
  MetadataInput,
  QueryInt,
  strict,
  Text
} from "./common.ts"
import { Email } from "./customer.ts"
import { GiftCardCode } from "./gift.ts"
import { Kind, Question } from "./offering.ts"
import { Phone } from "./phone.ts"
import { PromoCodeText } from "./promo.ts"

export const BookingStatus = Schema.Literal("held", "confirmed", "cancelled")
const Nullable = <S extends Schema.Schema.Any>(s: S) => Schema.NullOr(s)
const Times = Schema.Struct({
  starts_at: Schema.String,
  ends_at: Schema.String,
  session_id: Schema.NullOr(Schema.String)
})

export const BookingCustomer = Schema.Struct({
  id: Schema.String,
  name: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String)
})

/** Guest's answers keyed by question id: text (a choice's option as listed), or true/false for yes_no. */
const Metadata = JsonObject
const Answers = Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Boolean) })

/** What a booking's fields mean (spec, Booking). Money is in the currency's minor units; instants are UTC. */
const meaning = {
  session_id: "Classes only: the session booked; for a course, the first time it was booked from",
  series_id: "A course booking: the calendar entry it holds a seat in every time of; null for a booking of one time",
  starts_at: "ISO 8601 UTC",
  ends_at: "ISO 8601 UTC",
  quantity: "class: seats; appointment: people (1 for one-on-one); rental: items",
  total_cents: "What is left to pay after a promo code, in minor units",
  promo_code: "As stored; kept after the code is deleted",
  discount_cents:
    "What the promo code took off, in minor units (the whole price when the business made the booking free); 0 without one",
  gift_card_id: "The gift card that paid part",
  gift_cents:
    "What the gift card paid, in minor units, counted as paid: taken off the card once confirmed, returned if cancelled",
  reference: "Short code the guest sees",
  source: "dashboard, api, mcp, widget, octo (a reseller) or assistant (held for a guest to confirm)",
  answers: "The guest's answers keyed by question id: text (a choice's option as listed), or true/false for yes_no",
  expires_at: "For a hold: when it stops keeping its place (UTC)",
  checkout_url:
    "The payment processor's checkout for a hold being paid online; null once the hold lapses (its checkout closed with it), is confirmed or cancelled",
  paid_at: "When paid, online or marked paid by hand (then payment_intent_id is null)",
  paid_cents: "Paid so far, online and by hand, in minor units; less than total_cents after a deposit",
  charged_cents:
    "What the checkout charged (deposit or whole total), in minor units: all that cancelling can refund; null when not paid online",
  refund_cents: "What cancelling refunds, in minor units: null the whole payment, 0 none, otherwise that part",
  refund_next_at: "When the service next looks at the refund; null once refunded or failed for good",
  guest_cancel_hours: "The guest may cancel or change time on their page until this many hours before the start",
  nudged_at: "When the guest of a lapsed unpaid hold was emailed a link to finish booking (sent once)",
  choose_by:
    "After its time was called off with guests choose: when the guest must have picked another time (UTC); null otherwise",
  waiver_token:
    "Signing link token (/w/{waiver_token}) for everyone on the booking, when the offering asks for a waiver",
  confirmed_at: "null while held",
  checked_in_at: "The guest checked in at the door (rental: picked up)",
  no_show_at: "Marked no-show once its time had started; never set together with checked_in_at",
  previous: "Set by a move: the times it left",
  offering: "In bookings.get and bookings.list",
  customer: "In bookings.get and bookings.list",
  offering_id: "The offering booked",
  periods: "rental only: how many periods (duration_minutes each) from starts_at; default 1",
  hold_minutes: "How long a priced booking's hold keeps its place before it lapses, 1 to 30 minutes",
  gift_card_code: "A gift card's code, to pay part",
  notes: "Free text for the business"
}

export const Booking = Schema.Struct(
  described(meaning, {
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
    waiver: Nullable(
      Schema.Struct({
        needed: Schema.Int,
        signed: Schema.Int,
        signatures: Schema.Array(
          Schema.Struct({
            id: Schema.String,
            name: Schema.String,
            signed_at: Schema.String,
            for: Schema.Literal("booker", "child", "guest")
          })
        )
      }).annotations({
        identifier: "BookingWaiver",
        description: "Signatures needed (one per seat or person, one per rental) and held"
      })
    ),
    confirmed_at: Nullable(Schema.String),
    updated_at: Nullable(Schema.String),
    reseller_reference: Nullable(Schema.String),
    cancel_reason: Nullable(Schema.String),
    checked_in_at: Nullable(Schema.String),
    no_show_at: Nullable(Schema.String),
    previous: Schema.optional(Times),
    offering: Schema.optional(
      Schema.Struct({ id: Schema.String, name: Schema.String, kind: Kind, questions: Schema.Array(Question) })
    ),
    customer: Schema.optional(BookingCustomer)
  })
).annotations({ identifier: "Booking" })
export type Booking = typeof Booking.Type

/** The same names on the way in, where they say what to send. */
const input = {
  ...meaning,
  offering_id: "The offering to book",
  starts_at:
    "ISO 8601 instant with its offset: the start, for an appointment or a rental (a class may send session_id instead)",
  session_id: "A class's session (or give starts_at)",
  series_id: "A course: its calendar entry, booked whole",
  quantity: "class: seats; appointment: people in the party; rental: items. Default 1, at most max_per_booking",
  customer: "The guest, found in the org by email or added (customer.updated)",
  promo_code: "A promo code of the org, any case",
  metadata: "Free-form JSON object for the caller's own use",
  waiver: "The booker signs the org's waiver as they book, for themselves and any children named",
  payment:
    "How the guest pays a priced booking the business takes (at the desk, on the phone): online (the default) is held until paid at checkout_url; paid: paid to the business as it was booked (confirmed, paid by hand in full); unpaid: confirmed now, paid later (mark_paid); free: the business waives the price (confirmed, total_cents 0, discount_cents the price). Not on the public surface"
}

/** How a priced booking taken by the business is paid (bookings.create `payment`, docs/payments.md). */
export const PaymentChoice = Schema.Literal("online", "paid", "unpaid", "free")
export type PaymentChoice = typeof PaymentChoice.Type

export const BookingCreate = Schema.Struct(
  described(input, {
    offering_id: Schema.UUID,
    starts_at: Schema.optional(Instant),
    quantity: Schema.optional(Int(1, 10000)),
    customer: Schema.Struct({ email: Email, name: Text(1, 120), phone: Schema.optional(Phone) }).annotations(strict),
    session_id: Schema.optional(Schema.UUID),
    series_id: Schema.optional(Schema.UUID),
    periods: Schema.optional(Int(1, 60)),
    answers: Schema.optional(Answers),
    notes: Schema.optional(Text(0, 2000)),
    metadata: Schema.optional(MetadataInput),
    hold_minutes: Schema.optional(Int(1, 30)),
    promo_code: Schema.optional(PromoCodeText),
    gift_card_code: Schema.optional(GiftCardCode),
    payment: Schema.optional(PaymentChoice),
    waiver: Schema.optional(
      Schema.Struct({
        accept: Schema.Literal(true).annotations({
          description: "true: the booker has read the waiver and accepts it"
        }),
        name: Text(1, 120),
        children: Schema.optional(Schema.Array(Text(1, 120)).pipe(Schema.maxItems(100)))
      }).annotations({
        ...strict,
        identifier: "WaiverAcceptance",
        description: "The booker signs the org's waiver as they book, for themselves and any children named"
      })
    )
  })
).annotations({
  ...strict,
  identifier: "BookingCreate",
  examples: [
    {
      offering_id: "6f1c2f0e-8a51-4a39-9a57-1f4d2b7c9e10",
      session_id: "0b7e6c1a-3d2f-4c5e-9a8b-7c6d5e4f3a21",
      quantity: 2,
      customer: { email: "ada@example.com", name: "Ada Lovelace" },
      notes: "First class"
    },
    {
      offering_id: "6f1c2f0e-8a51-4a39-9a57-1f4d2b7c9e10",
      starts_at: new Date("2026-06-05T09:00:00Z"),
      periods: 2,
      customer: { email: "grace@example.com", name: "Grace Hopper" },
      promo_code: "SUMMER10",
      hold_minutes: 15
    }
  ]
})
export type BookingCreate = typeof BookingCreate.Type

export const BookingsQuery = Schema.Struct({
  from: Schema.optional(Instant),
  to: Schema.optional(Instant),
  status: Schema.optional(BookingStatus).annotations({ description: "Only bookings in this status" }),
  offering_id: Schema.optional(Schema.UUID),
  customer_id: Schema.optional(Schema.UUID),
  session_id: Schema.optional(Schema.UUID),
  reference: Schema.optional(Text(0, 40)),
  q: Schema.optional(Text(0, 80)),
  order: Schema.optional(Schema.Literal("asc", "desc")).annotations({
    description: "By start time: asc (default) or desc"
  }),
  limit: Schema.optional(QueryInt(1, 500, "At most this many bookings in the page (default 50)")),
  after: Schema.optional(Schema.UUID)
})
export type BookingsQuery = typeof BookingsQuery.Type

export const BookingPage = Schema.Struct({ data: Schema.Array(Booking), next_after: Schema.NullOr(Schema.String) })

export const CancelBody = Schema.Struct({
  refund_cents: Schema.optional(Schema.NullOr(Int(0, MAX_TOTAL_CENTS))),
  reason: Schema.optional(Text(0, 500))
}).annotations({
  ...strict,
  identifier: "BookingCancel",
  examples: [{ refund_cents: null, reason: "Guest asked by phone" }, { refund_cents: 500 }]
})
export const MoveBody = Schema.Struct({
  starts_at: Schema.optional(Instant),
  session_id: Schema.optional(Schema.UUID)
}).annotations({
  ...strict,
  identifier: "BookingMove",
  examples: [{ session_id: "0b7e6c1a-3d2f-4c5e-9a8b-7c6d5e4f3a21" }, { starts_at: new Date("2026-06-06T09:00:00Z") }]
})
export const AttendanceBody = Schema.Struct({
  attendance: Schema.Literal("checked_in", "no_show", "clear").annotations({
    description: "checked_in: the guest came; no_show: they did not; clear: not recorded"
  })
}).annotations({ ...strict, identifier: "BookingAttendance", examples: [{ attendance: "checked_in" }] })
export const MarkPaidBody = Schema.Struct({ paid_cents: Schema.optional(Int(0, MAX_TOTAL_CENTS)) }).annotations({
  ...strict,
  identifier: "BookingMarkPaid",
  examples: [{ paid_cents: 3000 }]
})
