import {
  type BookingContext,
  type BookingState,
  bookingStatus,
  type BookingRow as MachineRow
} from "../machines/booking.ts"
import type { Booking } from "../schema/booking.ts"
import type { Question } from "../schema/offering.ts"

export interface BookingRow {
  readonly id: string
  readonly org_id: string
  readonly offering_id: string
  readonly customer_id: string
  readonly session_id: string | null
  readonly series_id: string | null
  readonly starts_at: Date
  readonly ends_at: Date
  readonly quantity: number
  /** Places it takes at its time: seats for a class, items for a rental, 1 for an appointment. */
  readonly places: number
  readonly state: string
  readonly machine: BookingContext
  readonly status: "held" | "confirmed" | "cancelled"
  readonly keeps_place: boolean
  readonly expires_at: Date | null
  readonly choose_by: Date | null
  readonly total_cents: number
  readonly discount_cents: number
  readonly promo_code: string | null
  readonly gift_card_id: string | null
  readonly gift_cents: number
  /** When the gift card's part was taken off its balance (the booking confirmed); null while only reserved. */
  readonly gift_taken_at?: Date | null
  /** When the gift card's part went back to it, or its reserve was released (the booking left); at most once. */
  readonly gift_returned_at?: Date | null
  readonly reference: string
  readonly handle: string
  readonly source: string
  readonly notes: string
  readonly answers: Readonly<Record<string, string | boolean>>
  readonly metadata: Record<string, unknown>
  readonly checkout_url: string | null
  readonly paid_at: Date | null
  readonly paid_cents: number | null
  readonly payment_intent_id: string | null
  readonly charged_cents: number | null
  readonly refund_id: string | null
  readonly refund_cents: number | null
  readonly refunded_at: Date | null
  readonly refund_failed_at: Date | null
  readonly refund_error: string | null
  readonly refund_next_at: Date | null
  readonly guest_cancel_hours: number | null
  readonly nudged_at: Date | null
  readonly waiver_token: string | null
  readonly confirmed_at: Date | null
  readonly cancelled_at: Date | null
  readonly reseller_reference: string | null
  readonly cancel_reason: string | null
  readonly checked_in_at: Date | null
  readonly no_show_at: Date | null
  readonly previous: { starts_at: string; ends_at: string; session_id: string | null } | null
  readonly created_at: Date
  readonly updated_at: Date | null
  readonly waiver_needed: number | null
  readonly waiver_signed: number
  /** [{id, name, for, version, signed_at}], oldest first. */
  readonly waiver_signatures?: ReadonlyArray<WaiverSignature> | string
}

export interface Joined {
  readonly c_name?: string | null
  readonly c_email?: string | null
  readonly c_phone?: string | null
  readonly o_name?: string
  readonly o_kind?: "class" | "appointment" | "rental"
  readonly o_questions?: ReadonlyArray<Question>
}

const iso = (d: Date | null) => d?.toISOString() ?? null

/** "held.keeping" <-> { held: "keeping" }: the machine's state as one text column. */
export const stateText = (value: BookingState): string =>
  typeof value === "string" ? value : Object.entries(value).map(([k, v]) => `${k}.${stateText(v as BookingState)}`)[0]
export const stateValue = (text: string): BookingState => {
  const [top, sub] = text.split(".")
  return (sub === undefined ? top : { [top]: sub }) as BookingState
}
export const machineRow = (row: BookingRow): MachineRow => ({ value: stateValue(row.state), context: row.machine })

const date = (iso: string | null | undefined) => (iso == null ? null : new Date(iso))

/** Whether a booking in this state keeps its places: a live hold, or a confirmed booking not called off. */
export const keepsPlace = (state: BookingState) => {
  const path = stateText(state)
  return path === "held.keeping" || path === "confirmed.plain"
}

/**
 * Every column the booking machine governs, from its state and context: the one place they are derived. A
 * transition's other facts (a cancel's reason and refund, a payment's amounts) are not the machine's and are written
 * beside these (engine/store/bookings.ts, BookingFacts).
 */
export const lifecycleColumns = (state: BookingState, c: BookingContext) => ({
  state: stateText(state),
  machine: JSON.stringify(c),
  status: bookingStatus(state),
  keeps_place: keepsPlace(state),
  starts_at: new Date(c.starts_at),
  ends_at: new Date(c.ends_at),
  session_id: c.session_id,
  expires_at: date(c.expires_at),
  confirmed_at: date(c.confirmed_at),
  cancelled_at: date(c.cancelled_at),
  nudged_at: date(c.nudged_at),
  choose_by: date(c.choose_by),
  paid_at: date(c.paid_at),
  checked_in_at: date(c.checked_in_at),
  no_show_at: date(c.no_show_at),
  previous: c.previous === null ? null : JSON.stringify(c.previous)
})
export type LifecycleColumns = ReturnType<typeof lifecycleColumns>

/** The resource as the API shows it. The guest's handle is never shown: it goes only to the guest's email. */
export interface WaiverSignature {
  readonly id: string
  readonly name: string
  /** booker: the one who booked; child: named by the booker as they booked; guest: signed from the link. */
  readonly for: "booker" | "child" | "guest"
  readonly version: number
  readonly signed_at: string
}
export const signaturesOf = (r: {
  readonly waiver_signatures?: ReadonlyArray<WaiverSignature> | string
}): ReadonlyArray<WaiverSignature> =>
  typeof r.waiver_signatures === "string" ? JSON.parse(r.waiver_signatures) : (r.waiver_signatures ?? [])

/**
 * `j`: what was joined to the row, when the caller has it apart (a new booking: its row and its guest and offering are
 * not one object, and spreading them into one costs V8 about 50 µs). The optional parts are set after the literal,
 * not spread into it, for the same reason.
 */
export const toBookingWith = (r: BookingRow, j: Joined): Booking => {
  const b: { -readonly [K in keyof Booking]: Booking[K] } = {
    id: r.id,
    org_id: r.org_id,
    offering_id: r.offering_id,
    customer_id: r.customer_id,
    session_id: r.session_id,
    series_id: r.series_id,
    starts_at: r.starts_at.toISOString(),
    ends_at: r.ends_at.toISOString(),
    quantity: r.quantity,
    total_cents: r.total_cents,
    promo_code: r.promo_code,
    discount_cents: r.discount_cents,
    gift_card_id: r.gift_card_id,
    gift_cents: r.gift_cents,
    reference: r.reference,
    status: r.status,
    source: r.source,
    notes: r.notes,
    answers: r.answers,
    metadata: r.metadata,
    cancelled_at: iso(r.cancelled_at),
    created_at: r.created_at.toISOString(),
    expires_at: r.status === "held" ? iso(r.expires_at) : null,
    // A lapsed hold's checkout is dead (closed with it): no link to it is answered, though its guest may pay again.
    checkout_url: r.status === "held" && r.keeps_place ? r.checkout_url : null,
    paid_at: iso(r.paid_at),
    paid_cents: r.paid_cents,
    payment_intent_id: r.payment_intent_id,
    charged_cents: r.charged_cents,
    refund_id: r.refund_id,
    refund_cents: r.refund_cents,
    refunded_at: iso(r.refunded_at),
    refund_failed_at: iso(r.refund_failed_at),
    refund_error: r.refund_error,
    refund_next_at: iso(r.refund_next_at),
    guest_cancel_hours: r.guest_cancel_hours,
    nudged_at: iso(r.nudged_at),
    choose_by: r.status === "cancelled" ? null : iso(r.choose_by),
    waiver_token: r.waiver_token,
    waiver:
      r.waiver_token === null || r.status === "cancelled" || (!r.keeps_place && r.status === "held")
        ? null
        : {
            needed: r.waiver_needed ?? r.quantity,
            signed: r.waiver_signed,
            signatures: signaturesOf(r).map((x) => ({ id: x.id, name: x.name, signed_at: x.signed_at, for: x.for }))
          },
    confirmed_at: iso(r.confirmed_at),
    updated_at: iso(r.updated_at),
    reseller_reference: r.reseller_reference,
    cancel_reason: r.cancel_reason,
    checked_in_at: iso(r.checked_in_at),
    no_show_at: iso(r.no_show_at)
  }
  if (r.previous) b.previous = r.previous
  if (j.o_name !== undefined && j.o_kind !== undefined)
    b.offering = { id: r.offering_id, name: j.o_name, kind: j.o_kind, questions: j.o_questions ?? [] }
  if (j.c_name !== undefined)
    b.customer = { id: r.customer_id, name: j.c_name ?? null, email: j.c_email ?? null, phone: j.c_phone ?? null }
  return b
}
export const toBooking = (r: BookingRow & Joined): Booking => toBookingWith(r, r)
