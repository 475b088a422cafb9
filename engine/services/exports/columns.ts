import type { Booking } from "../../schema/booking.ts"
import type { Customer } from "../../schema/customer.ts"
import type { LedgerRow } from "../../store/payments.ts"
import { localTime, money, text } from "./cells.ts"

/** The org a file is written for: its zone and currency. */
export interface Frame {
  readonly timezone: string
  readonly currency: string
}

export const BOOKING_COLUMNS = [
  "id",
  "reference",
  "status",
  "offering_id",
  "offering",
  "session_id",
  "starts_at",
  "ends_at",
  "timezone",
  "quantity",
  "customer_id",
  "customer_name",
  "customer_email",
  "customer_phone",
  "currency",
  "total",
  "discount",
  "promo_code",
  "gift_card",
  "paid",
  "charged_online",
  "refunded",
  "source",
  "created_at",
  "confirmed_at",
  "cancelled_at",
  "checked_in_at",
  "no_show_at",
  "notes"
] as const

/** What a refund gave back once it was settled: its part, or (none named) the whole charge. */
const refunded = (b: Booking) => (b.refunded_at === null ? 0 : (b.refund_cents ?? b.charged_cents ?? 0))

export const bookingCells = (f: Frame) => {
  const at = localTime(f.timezone)
  const cash = money(f.currency)
  return (b: Booking): ReadonlyArray<string> => [
    b.id,
    b.reference,
    b.status,
    b.offering_id,
    text(b.offering?.name),
    b.session_id ?? "",
    at(b.starts_at),
    at(b.ends_at),
    f.timezone,
    String(b.quantity),
    b.customer_id,
    text(b.customer?.name),
    text(b.customer?.email),
    text(b.customer?.phone),
    f.currency,
    cash(b.total_cents),
    cash(b.discount_cents),
    text(b.promo_code),
    cash(b.gift_cents),
    cash(b.paid_cents ?? 0),
    cash(b.charged_cents ?? 0),
    cash(refunded(b)),
    b.source,
    at(b.created_at),
    at(b.confirmed_at),
    at(b.cancelled_at),
    at(b.checked_in_at),
    at(b.no_show_at),
    text(b.notes)
  ]
}

export const PAYMENT_COLUMNS = [
  "id",
  "kind",
  "status",
  "at",
  "timezone",
  "currency",
  "amount",
  "booking_id",
  "booking_reference",
  "gift_purchase_id",
  "payment_intent_id",
  "refund_id"
] as const

export const paymentCells = (f: Frame) => {
  const at = localTime(f.timezone)
  return (p: LedgerRow): ReadonlyArray<string> => [
    p.id,
    p.kind,
    p.status,
    at(p.at),
    f.timezone,
    p.currency.toUpperCase(),
    money(p.currency.toUpperCase())(p.amount_cents),
    p.booking_id ?? "",
    p.reference ?? "",
    p.gift_purchase_id ?? "",
    text(p.payment_intent_id),
    text(p.refund_id)
  ]
}

export const GUEST_COLUMNS = ["id", "name", "email", "phone", "created_at", "updated_at", "timezone"] as const

export const guestCells = (f: Frame) => {
  const at = localTime(f.timezone)
  return (c: Customer): ReadonlyArray<string> => [
    c.id,
    text(c.name),
    text(c.email),
    text(c.phone),
    at(c.created_at),
    at(c.updated_at),
    f.timezone
  ]
}
