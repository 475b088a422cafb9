import type { EVENT_TYPES } from "../../engine/schema/webhook.ts"

type EventType = (typeof EVENT_TYPES)[number]

/**
 * The event catalogue an agent reads as the MCP resource booking-engine://events: every event type of the spec's table
 * (engine/schema/webhook.ts; the Record makes a type missing here a type error), when it is written and what its
 * `data` is. "the booking" means the shape bookings_get answers, and so on.
 */
export const EVENT_CATALOGUE: Record<EventType, { readonly when: string; readonly data: string }> = {
  "booking.held": {
    when: "A place is held while the guest decides or pays, until expires_at",
    data: "the booking (bookings_get); with source assistant the guest is emailed to confirm"
  },
  "booking.nudged": {
    when: "The guest of a hold that lapsed unpaid at checkout is emailed a finish-booking link (once)",
    data: "the booking, with nudged_at"
  },
  "booking.confirmed": {
    when: "A booking is confirmed, from any surface",
    data: "the booking; with a promo code, promo_code and discount_cents"
  },
  "booking.moved": {
    when: "A booking moves to another time, in place",
    data: "the booking; previous has the times it left"
  },
  "booking.called_off": {
    when: "Its session is cancelled with guests choose",
    data: "the booking, with choose_by, note, room (false when no other time had room for the party)"
  },
  "booking.session_cancelled": {
    when: "One time of a course is cancelled",
    data: "the booking, with session (the time called off) and note"
  },
  "booking.paid": {
    when: "Marked paid by hand, or an online payment landed for a booking confirmed by hand",
    data: "the booking, with paid_at (and payment_intent_id when paid online)"
  },
  "booking.unpaid": { when: "A hand-paid booking is marked unpaid", data: "the booking" },
  "booking.checked_in": { when: "The guest checked in", data: "the booking, with checked_in_at" },
  "booking.no_show": {
    when: "A confirmed booking is marked no-show once its time has started",
    data: "the booking, with no_show_at"
  },
  "booking.attendance_cleared": {
    when: "A check-in or no-show is taken back",
    data: "the booking, checked_in_at and no_show_at both null"
  },
  "booking.cancelled": { when: "A booking is cancelled", data: "the booking" },
  "booking.refunded": {
    when: "An online payment is refunded, in full or the part chosen on cancelling",
    data: "the booking, with refunded_at once the processor confirmed it"
  },
  "booking.refund_failed": {
    when: "A refund failed for good and nothing will retry",
    data: "the booking; refund_error says why (the owner is emailed)"
  },
  "message.sent": {
    when: "The business writes to a guest (dashboard, API or MCP), or the org auto-acknowledges a guest (channel system)",
    data: "the message (messages_list)"
  },
  "message.received": {
    when: "A guest writes (booking page, email, text, or a question before booking)",
    data: "the message, with its channel, e.g. email"
  },
  "message.drafted": {
    when: "A reply was drafted by AI for a conversation; nothing was sent",
    data: "the draft message"
  },
  "session.created": { when: "A class session is scheduled on its own", data: "the session (sessions_list)" },
  "session.cancelled": { when: "A time on a calendar is cancelled, with its bookings", data: "the session" },
  "closure.created": {
    when: "Dates are closed, or given other hours, for the org or an offering",
    data: "the closure (closures_get); the bookings inside have their own events first"
  },
  "closure.deleted": { when: "A closure is deleted", data: "the closure as it was" },
  "offering.created": { when: "An offering is added", data: "the offering (offerings_get)" },
  "offering.updated": { when: "An offering changes or is paused", data: "the offering" },
  "offering.deleted": {
    when: "An offering is deleted, after its upcoming bookings are cancelled",
    data: "the offering"
  },
  "offering.hours_updated": { when: "Weekly hours are replaced", data: "the offering's hours" },
  "offering.calendar_updated": {
    when: "A calendar entry is added, changed or removed",
    data: "the offering, entries: its calendar after the change"
  },
  "waiver.signed": {
    when: "Someone signs the waiver for a booking",
    data: "booking_id, reference, signature_id, signed and needed counts"
  },
  "waiver.updated": {
    when: "The waiver text is saved as a new version, or removed",
    data: "the waiver; body null when removed"
  },
  "waitlist.joined": {
    when: "A guest joins a full time's waitlist, or their places change",
    data: "id, session_id, offering_id, customer_id, starts_at, places"
  },
  "waitlist.left": {
    when: "A guest comes off a waitlist",
    data: "the entry; reason: left, removed, booked, called_off or closed"
  },
  "waitlist.opened": {
    when: "A place opened and everyone waiting whose party fits was emailed",
    data: "session_id, offering_id, starts_at, remaining, told, entry_ids"
  },
  "customer.updated": { when: "A customer is added or edited", data: "the customer (customers_get)" },
  "customer.deleted": { when: "A customer's personal data is erased on request", data: "the customer, erased" },
  "customers.imported": {
    when: "A spreadsheet of customers is imported, 500 rows at a time, one event each",
    data: "created, updated, skipped; never the rows"
  },
  "gift_card.purchased": {
    when: "A guest bought a gift card and payment was taken",
    data: "gift_card_id, amount_cents, currency, for_email; never the code"
  },
  "gift_card.issued": {
    when: "A gift card was issued by the business",
    data: "gift_card_id, amount_cents, currency, for_email"
  },
  "gift_card.adjusted": {
    when: "A gift card's balance was fixed",
    data: "gift_card_id, cents (signed), balance, note, for_email"
  },
  "gift_card.refunded": {
    when: "A booking paid by a gift card was cancelled and its part went back",
    data: "gift_card_id, booking_id, cents, for_email"
  },
  "promo_code.created": { when: "A promo code is added", data: "the promo code with its discount, limit and dates" },
  "promo_code.updated": {
    when: "A promo code is switched on or off, or its limit, end or offering changes",
    data: "the promo code"
  },
  "promo_code.deleted": { when: "A promo code is deleted", data: "the promo code as it was" },
  "org.updated": {
    when: "The org's name, time zone, currency or messaging settings change",
    data: "the org (org_get)"
  },
  "member.invited": { when: "An owner invites someone by email", data: "id, email, role, invited_by" },
  "member.invite_revoked": {
    when: "An owner revokes a waiting invite, or the invitee declines",
    data: "id, email, role"
  },
  "member.joined": { when: "An invitee joins the team", data: "user_id, email, role, invite_id" },
  "member.updated": {
    when: "A staff member is made an owner, or a member's name changes",
    data: "user_id, email, role; or user_id, email, name"
  },
  "member.removed": { when: "An owner removes someone from the team", data: "user_id, email, the role they had" }
}
