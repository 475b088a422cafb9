import { money } from "./format.ts"
import type { Booking } from "./types.ts"

/** What can go back to a guest on cancelling: only what was charged online (the engine refuses more). */
export const refundable = (b: Booking) =>
  b.status === "cancelled" || b.payment_intent_id === null ? 0 : Math.max(0, b.charged_cents ?? 0)

/** The refunds chosen for a time's bookings, summed: what cancelling the time pays back in all. */
export const refundTotal = (chosen: ReadonlyMap<string, number>) => [...chosen.values()].reduce((a, b) => a + b, 0)

/**
 * A refund typed for one booking, checked against what it can take back: the amount in minor units, or why not.
 */
export const checkRefund = (
  cents: number | undefined,
  b: Booking
): { ok: true; cents: number } | { ok: false; why: string } =>
  cents === undefined
    ? { ok: false, why: "Type an amount, such as 12.50." }
    : cents > refundable(b)
      ? { ok: false, why: "More than was paid online." }
      : { ok: true, cents }

/**
 * Where a booking's refund stands, from its fields (docs/payments.md): `failed` is failed for good, what an owner can
 * retry (bookings.retry_refund); `retrying` failed and tried again (by the engine, or after a retry by hand).
 */
export type RefundState = "none" | "on_its_way" | "refunded" | "retrying" | "failed"
export const refundState = (b: Booking): RefundState =>
  b.refunded_at !== null
    ? "refunded"
    : b.refund_failed_at !== null
      ? b.refund_next_at === null
        ? "failed"
        : "retrying"
      : b.refund_next_at !== null
        ? "on_its_way"
        : "none"

/** What a cancelled booking gives back of its online payment: refund_cents, or all of it when null. */
export const refundCents = (b: Booking) =>
  b.refund_cents ?? (b.status === "cancelled" && b.payment_intent_id !== null ? (b.charged_cents ?? 0) : 0)

/** What a booking of an offering costs before any code, as the engine prices it (engine/services/bookings/pricing.ts). */
export const priceOf = (
  o: { kind: "class" | "appointment" | "rental"; price_cents: number; guest_price_cents: number | null },
  quantity: number,
  periods = 1
) =>
  o.kind === "class"
    ? o.price_cents * quantity
    : o.kind === "appointment"
      ? o.price_cents + (quantity - 1) * (o.guest_price_cents ?? o.price_cents)
      : o.price_cents * quantity * periods

/** Whether the guest still owes something: a priced booking not marked paid (a free one owes nothing). */
export const owes = (b: Booking) => b.status !== "cancelled" && b.total_cents > 0 && b.paid_at === null

/** A hold past its expires_at no longer keeps its places (the engine's clock; the page's is pinned to it in tests). */
export const lapsed = (b: Booking, now = Date.now()) =>
  b.status === "held" && b.expires_at !== null && Date.parse(b.expires_at) <= now

/** The total and what was paid of it: free (the price waived), paid so far, or not paid. */
export const paidNote = (b: Booking, currency: string) =>
  b.total_cents === 0
    ? b.discount_cents > 0
      ? `free (price ${money(b.discount_cents, currency)} waived)`
      : "free"
    : `${money(b.total_cents, currency)} · ${
        b.paid_at !== null
          ? `paid ${money(b.paid_cents ?? b.charged_cents ?? b.total_cents, currency)}`
          : (b.paid_cents ?? 0) > 0
            ? `${money(b.paid_cents ?? 0, currency)} paid, the rest not yet`
            : "not paid"
      }`

/** A guest's answer as text: Yes/No for a checkbox, a dash when not answered. */
export const answerText = (a: unknown) =>
  a === undefined || a === null ? "—" : typeof a === "boolean" ? (a ? "Yes" : "No") : String(a)
