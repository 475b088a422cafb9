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
