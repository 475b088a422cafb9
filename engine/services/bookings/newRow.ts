import { randomUUID } from "node:crypto"
import type { startBooking } from "../../machines/booking.ts"
import type { BookingCreate } from "../../schema/booking.ts"
import { type BookingRow, lifecycleColumns } from "../../store/bookingRow.ts"
import type { BookingWriteValues } from "../../store/bookings.ts"
import { newHandle, newReference } from "../../store/codes.ts"
import type { customerPlan } from "../../store/customers.ts"
import { monthIn } from "../../time/local.ts"
import { actorOf } from "../actor.ts"
import type { CurrentOrg, Surface } from "../CurrentOrg.ts"
import type { NewEvent } from "../Events.ts"
import type { bookingMail } from "../mail/bookingMails.ts"
import type { Gift, Promo, Read } from "./booked.ts"
import type { Settled } from "./payment.ts"
import { type Placement, placesOf } from "./placement.ts"
import { MONTHLY_QUOTA } from "./quota.ts"

/** What a new booking's row is made of, as create.ts has it before WRITE. */
export interface RowParts {
  readonly org: CurrentOrg["Type"]
  readonly source: Surface
  readonly input: BookingCreate
  readonly o: Read
  readonly p: Placement
  readonly customer: ReturnType<typeof customerPlan>
  readonly started: ReturnType<typeof startBooking>
  readonly quantity: number
  readonly total: number
  readonly promo: Promo | undefined
  readonly gift: Gift | undefined
  readonly giftCents: number
  readonly hold: boolean
  readonly now: Date
}

/**
 * The new booking's row: the machine's columns come from its start (lifecycleColumns); the rest is what it is.
 * Written out property by property: V8 (Node 20) builds `{ ...columns, id, ... }` with some 40 properties after the
 * spread through its slow path, about 0.2 ms per booking (bench/README.md, "Latest A/B").
 */
export const newRow = (parts: RowParts, settled: Pick<Settled, "discount" | "paidCents">): BookingRow => {
  const { org, source, input, o, p, customer, started, quantity, total, promo, gift, giftCents, hold, now } = parts
  const l = lifecycleColumns(started.state, started.context)
  return {
    state: l.state,
    status: l.status,
    keeps_place: l.keeps_place,
    starts_at: l.starts_at,
    ends_at: l.ends_at,
    session_id: l.session_id,
    expires_at: l.expires_at,
    confirmed_at: l.confirmed_at,
    cancelled_at: l.cancelled_at,
    nudged_at: l.nudged_at,
    choose_by: l.choose_by,
    paid_at: l.paid_at,
    checked_in_at: l.checked_in_at,
    no_show_at: l.no_show_at,
    id: randomUUID(),
    org_id: org.id,
    offering_id: o.id,
    customer_id: customer.row.id,
    series_id: p.series_id,
    quantity,
    places: placesOf(o, quantity),
    machine: started.context,
    previous: null,
    total_cents: total,
    discount_cents: settled.discount,
    promo_code: promo?.code ?? null,
    gift_card_id: gift?.id ?? null,
    gift_cents: giftCents,
    // Confirmed at once, the card's part is taken now; held, it is only reserved until the booking is confirmed.
    gift_taken_at: giftCents > 0 && !hold ? now : null,
    reference: newReference(),
    handle: newHandle(),
    source,
    notes: input.notes ?? "",
    answers: input.answers ?? {},
    metadata: input.metadata ?? {},
    checkout_url: null,
    paid_cents: settled.paidCents,
    payment_intent_id: null,
    charged_cents: null,
    refund_id: null,
    refund_cents: null,
    refunded_at: null,
    refund_failed_at: null,
    refund_error: null,
    refund_next_at: null,
    guest_cancel_hours: o.g_cancel_hours,
    waiver_token: o.waiver_required ? newHandle() : null,
    reseller_reference: null,
    cancel_reason: null,
    created_at: now,
    updated_at: null,
    waiver_needed: o.waiver_required ? (o.kind === "rental" ? 1 : quantity) : null,
    waiver_signed: 0
  }
}

/** What the store's WRITE writes for a new booking, by name. */
export const writeValues = (
  parts: RowParts,
  row: BookingRow,
  mail: ReturnType<typeof bookingMail>,
  events: ReadonlyArray<NewEvent>,
  options: { readonly quiet?: boolean }
): BookingWriteValues => {
  const { org, input, o, customer, now } = parts
  return {
    org_id: org.id,
    at: now,
    customer_id: customer.row.id,
    email: customer.row.email,
    name: input.customer.name,
    phone: input.customer.phone ?? null,
    known_name: o.c_name,
    known_phone: o.c_phone,
    id: row.id,
    offering_id: o.id,
    session_id: row.session_id,
    series_id: row.series_id,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    quantity: row.quantity,
    places: row.places,
    state: row.state,
    machine: JSON.stringify(row.machine),
    status: row.status,
    expires_at: row.expires_at,
    total_cents: row.total_cents,
    reference: row.reference,
    handle: row.handle,
    source: row.source,
    notes: row.notes,
    answers: JSON.stringify(row.answers),
    metadata: JSON.stringify(row.metadata),
    confirmed_at: row.confirmed_at,
    waiver_token: row.waiver_token,
    waiver_needed: row.waiver_needed,
    guest_cancel_hours: row.guest_cancel_hours,
    mail_id: randomUUID(),
    mail_to: options.quiet === true ? null : mail.to,
    mail_subject: mail.subject,
    mail_body: mail.text,
    mail_kind: mail.kind,
    mail_vars: JSON.stringify(mail.vars),
    month: monthIn(now, org.timezone),
    quota: MONTHLY_QUOTA[org.plan],
    event_types: events.map((e) => e.type),
    event_data: JSON.stringify(events.map((e) => e.data)),
    actor: JSON.stringify(actorOf(org))
  }
}
