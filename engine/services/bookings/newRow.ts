import { randomUUID } from "node:crypto"
import type { startBooking } from "../../machines/booking.ts"
import type { BookingCreate } from "../../schema/booking.ts"
import { type BookingRow, lifecycleColumns } from "../../store/bookingRow.ts"
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

/** The values of the store's insert (WRITE) for a new booking, in its parameters' order. */
export const insertValues = (
  parts: RowParts,
  row: BookingRow,
  mail: ReturnType<typeof bookingMail>,
  events: ReadonlyArray<NewEvent>,
  options: { readonly quiet?: boolean }
): ReadonlyArray<unknown> => {
  const { org, input, o, customer, now } = parts
  const month = monthIn(now, org.timezone)
  return [
    org.id,
    customer.mode,
    customer.row.id,
    customer.row.email,
    input.customer.name,
    input.customer.phone ?? null,
    now,
    o.c_name,
    o.c_phone,
    row.id,
    o.id,
    row.session_id,
    row.series_id,
    row.starts_at,
    row.ends_at,
    row.quantity,
    row.places,
    row.state,
    JSON.stringify(row.machine),
    row.status,
    row.expires_at,
    row.total_cents,
    row.reference,
    row.handle,
    row.source,
    row.notes,
    JSON.stringify(row.answers),
    JSON.stringify(row.metadata),
    row.confirmed_at,
    row.waiver_token,
    row.waiver_needed,
    randomUUID(),
    options.quiet === true ? null : mail.to,
    mail.subject,
    mail.text,
    mail.kind,
    month,
    MONTHLY_QUOTA[org.plan],
    events.map((e) => e.type),
    JSON.stringify(events.map((e) => e.data)),
    JSON.stringify(mail.vars),
    row.guest_cancel_hours,
    JSON.stringify(actorOf(org))
  ]
}
