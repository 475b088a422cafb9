import { Effect } from "effect"
import { InvalidPayment } from "../../errors/index.ts"
import type { PaymentChoice } from "../../schema/booking.ts"

/** What a new booking owes and how it starts, from its price, the promo code's discount, the gift card and `payment`. */
export interface Settled {
  /** What is left to pay after a promo code (0 when the business waived the price). */
  readonly total: number
  /** What was taken off: the promo code's discount, or the whole price when made free. */
  readonly discount: number
  /** Held: kept for a checkout (or the caller's hold). Otherwise confirmed at once. */
  readonly hold: boolean
  /** A gift card paid all of it as it was booked. */
  readonly paidOnline: boolean
  /** Paid to the business by hand as it was booked (payment `paid`, something left to pay). */
  readonly paidByHand: boolean
  /** paid_cents of the new row: the total paid by hand, else what the gift card paid, else null. */
  readonly paidCents: number | null
}

/**
 * How a booking is paid (docs/payments.md, "A booking the business takes"): `online` (or none) holds what is left to
 * pay for a checkout; `paid` is confirmed and paid by hand in full; `unpaid` is confirmed, to be marked paid later;
 * `free` is confirmed at no price. A caller's `hold` (a reseller, an assistant) keeps it held whatever it costs.
 */
export const settle = (
  payment: PaymentChoice | undefined,
  price: number,
  promoDiscount: number,
  giftCents: number,
  hold: boolean
): Settled => {
  const free = payment === "free"
  const total = free ? 0 : price - promoDiscount
  const owed = total - giftCents > 0
  const held = hold || (owed && (payment === undefined || payment === "online"))
  const paidOnline = !held && giftCents > 0 && !owed
  const paidByHand = !held && owed && payment === "paid"
  return {
    total,
    discount: free ? price : promoDiscount,
    hold: held,
    paidOnline,
    paidByHand,
    paidCents: paidByHand ? total : giftCents > 0 ? giftCents : null
  }
}

/** `free` takes nothing off: a promo code or a gift card beside it is a mistake of the caller's. */
export const checkPayment = (
  payment: PaymentChoice | undefined,
  input: { readonly promo_code?: string; readonly gift_card_code?: string }
) =>
  payment === "free" && (input.promo_code !== undefined || input.gift_card_code !== undefined)
    ? Effect.fail(
        new InvalidPayment({
          message: "payment: free waives the whole price; send it without promo_code or gift_card_code"
        })
      )
    : Effect.void
