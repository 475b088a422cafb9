import { Schema } from "effect"
import { Booking } from "./booking.ts"
import { Entry, Session } from "./calendar.ts"
import { Closure } from "./closure.ts"
import { JsonValue } from "./common.ts"
import { Customer } from "./customer.ts"
import { Message } from "./message.ts"
import { Offering } from "./offering.ts"
import { Org } from "./org.ts"
import { PromoCode } from "./promo.ts"
import { EVENT_TYPES } from "./webhook.ts"

type EventType = (typeof EVENT_TYPES)[number]

const S = Schema.String
const N = Schema.Int
const Cents = Schema.Int.annotations({ description: "Minor units of the org's currency" })
const Role = Schema.Literal("owner", "staff")

const bookingWith = <F extends Schema.Struct.Fields>(fields: F) => Schema.extend(Booking, Schema.Struct(fields))
const gift = <F extends Schema.Struct.Fields>(fields: F) =>
  Schema.Struct({ gift_card_id: S, for_email: Schema.NullOr(S), ...fields })

/** What each event's `data` is (spec, Events; docs/events.md): the resource after the change, or the fields named. */
const data: { readonly [K in EventType]: readonly [Schema.Schema.Any, string] } = {
  "booking.held": [Booking, "A place is held while the guest decides or pays, until expires_at"],
  "booking.nudged": [
    Booking,
    "The guest of a hold that lapsed unpaid was emailed a link to finish booking (once); nudged_at is set"
  ],
  "booking.confirmed": [Booking, "A booking is confirmed, from any surface"],
  "booking.moved": [Booking, "A booking moved to another time, in place; previous has the times it left"],
  "booking.called_off": [
    bookingWith({
      note: Schema.NullOr(S),
      room: Schema.Boolean.annotations({ description: "false when no other time had room for the party" })
    }),
    "Its time was cancelled with guests `choose`: choose_by is when the guest must pick another time"
  ],
  "booking.session_cancelled": [
    bookingWith({ session: Session, note: Schema.NullOr(S) }),
    "One time of a course was cancelled; the booking stays confirmed on its other times"
  ],
  "booking.paid": [
    Booking,
    "Marked paid by hand, or an online payment landed for a booking confirmed by hand (payment_intent_id set); paid_at is set"
  ],
  "booking.unpaid": [Booking, "A payment marked by hand was taken back"],
  "booking.checked_in": [Booking, "The guest checked in; checked_in_at is set"],
  "booking.no_show": [Booking, "Marked no-show once its time had started; no_show_at is set"],
  "booking.attendance_cleared": [Booking, "A check-in or no-show was taken back"],
  "booking.cancelled": [Booking, "A booking is cancelled"],
  "booking.refunded": [bookingWith({ payment: JsonValue }), "The processor confirmed a refund (refunded_at)"],
  "booking.refund_failed": [
    bookingWith({ payment: JsonValue }),
    "A refund failed for good; refund_error says why and the owner is emailed"
  ],
  "message.sent": [Message, "The business wrote to a guest, or the org acknowledged a guest (channel system)"],
  "message.received": [Message, "A guest wrote (booking page, email, or the hosted page)"],
  "message.drafted": [Message, "A reply was drafted for a conversation; nothing was sent"],
  "session.created": [
    Session,
    "A time was scheduled on its own (a calendar entry's times come with offering.calendar_updated)"
  ],
  "session.cancelled": [Session, "A time on a calendar was cancelled, with its bookings"],
  "closure.created": [
    Closure,
    "Dates were closed (or given other hours) for the org or an offering; what was booked inside is handled first"
  ],
  "closure.deleted": [Closure, "A closure was deleted (as it was): its dates take bookings again"],
  "offering.created": [Offering, "An offering was added"],
  "offering.updated": [Offering, "An offering changed or was paused"],
  "offering.deleted": [Offering, "An offering was deleted (active false), after its upcoming bookings were cancelled"],
  "offering.hours_updated": [
    Schema.extend(
      Offering,
      Schema.Struct({ hours: Schema.Array(Schema.Struct({ weekday: N, start_time: S, end_time: S })) })
    ),
    "Weekly hours were replaced; hours are local HH:MM:SS"
  ],
  "offering.calendar_updated": [
    Schema.Struct({ offering_id: S, entries: Schema.Array(Entry) }),
    "A calendar entry was added, changed or removed; entries is the calendar after it"
  ],
  "waiver.signed": [
    Schema.Struct({ booking_id: S, reference: S, signature_id: S, signed: N, needed: N }),
    "Someone signed the waiver for a booking (the booker as they book, one event per person, or from the signing link)"
  ],
  "waiver.updated": [
    Schema.Struct({ version: N, body: Schema.NullOr(S) }),
    "The waiver text was saved as a new version, or removed (body null)"
  ],
  "waitlist.joined": [
    Schema.Struct({ id: S, session_id: S, offering_id: S, customer_id: S, starts_at: S, places: N }),
    "A guest joined a full time's waitlist, or their places changed"
  ],
  "waitlist.left": [
    Schema.Struct({
      id: S,
      session_id: S,
      offering_id: S,
      customer_id: S,
      places: N,
      reason: Schema.Literal("left", "removed", "booked", "called_off", "closed")
    }),
    "A guest came off a waitlist"
  ],
  "waitlist.opened": [
    Schema.Struct({ session_id: S, offering_id: S, starts_at: S, remaining: N, told: N, entry_ids: Schema.Array(S) }),
    "A place opened and everyone waiting whose party fits was emailed at once"
  ],
  "customer.updated": [Customer, "A customer was added or edited"],
  "customer.deleted": [Schema.Struct({ id: S }), "A customer's personal data was erased on request"],
  "customers.imported": [
    Schema.Struct({ created: N, updated: N, skipped: N.annotations({ description: "Rows without a valid email" }) }),
    "One batch of up to 500 rows of a customer import (never the rows)"
  ],
  "gift_card.purchased": [
    gift({ amount_cents: Cents, currency: S }),
    "A guest bought a gift card and the payment was taken (never the code or message)"
  ],
  "gift_card.issued": [gift({ amount_cents: Cents, currency: S }), "The business issued a gift card"],
  "gift_card.adjusted": [
    gift({
      cents: Cents.annotations({ description: "Signed: added (positive) or taken (negative), minor units" }),
      balance: Cents,
      note: S
    }),
    "A gift card's balance was adjusted"
  ],
  "gift_card.refunded": [
    gift({ booking_id: S, cents: Cents }),
    "A booking paid in part by the card was cancelled and that part went back to it"
  ],
  "promo_code.created": [PromoCode, "A promo code was added"],
  "promo_code.updated": [PromoCode, "A promo code was switched on or off, or its limit, dates or offerings changed"],
  "promo_code.deleted": [
    PromoCode,
    "A promo code was deleted (as it was); bookings made with it keep promo_code and discount_cents"
  ],
  "org.updated": [Org, "The org's name, time zone, currency or messaging settings changed"],
  "member.invited": [
    Schema.Struct({ id: S, email: S, role: Role, invited_by: Schema.NullOr(S) }),
    "An owner invited someone by email"
  ],
  "member.invite_revoked": [
    Schema.Struct({ id: S, email: S, role: Role }),
    "An owner revoked a waiting invite, or the invitee declined"
  ],
  "member.joined": [
    Schema.Struct({ user_id: S, email: S, role: Role, invite_id: Schema.NullOr(S) }),
    "Someone joined the team"
  ],
  "member.updated": [
    Schema.Struct({ user_id: S, email: S, role: Schema.optional(Role), name: Schema.optional(Schema.NullOr(S)) }),
    "A member's role (role) or name (name) changed: one event per change"
  ],
  "member.removed": [
    Schema.Struct({ user_id: S, email: S, role: Role }),
    "An owner removed someone from the team; role is the one they had"
  ]
}

const pascal = (type: string) =>
  type
    .split(/[._]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("")

/**
 * The event catalogue: one Schema per event type, the envelope events.list, webhooks and the bus carry ({ id, type,
 * created_at, data }) with that type's data. The OpenAPI document has each as a component and as a webhook.
 */
export const eventSchemas = EVENT_TYPES.map((type) => {
  const [schema, when] = data[type]
  return Schema.Struct({
    id: Schema.Int.annotations({ description: "Increasing per org, not consecutive" }),
    type: Schema.Literal(type),
    created_at: Schema.String.annotations({ description: "When the change committed, ISO 8601 UTC" }),
    data: schema
  }).annotations({ identifier: `${pascal(type)}Event`, description: when })
})
