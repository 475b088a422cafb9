import { Effect } from "effect"
import { InvalidPeriods, InvalidQuantity, TotalTooLarge } from "../../errors/index.ts"
import { MAX_TOTAL_CENTS } from "../../schema/common.ts"
import { GiftCards } from "../gifts/GiftCards.ts"
import type { OfferingRow } from "../offerings/row.ts"
import { Promos } from "../promos/Promos.ts"

export { MAX_TOTAL_CENTS }

type Priced = Pick<OfferingRow, "kind" | "price_cents" | "guest_price_cents">

/**
 * What a booking costs before any promo code: class seats at price_cents each (a course: each seat for the
 * whole course); an appointment's first person at price_cents and each additional guest at guest_price_cents
 * (null: the full price, 0: free); rental items per period. Exact: every factor is bounded (price below 2^31,
 * quantity 10,000, periods 60), so the product stays below 2^53.
 */
export const totalOf = (o: Priced, quantity: number, periods: number) => {
  switch (o.kind) {
    case "class":
      return o.price_cents * quantity
    case "appointment":
      return o.price_cents + (quantity - 1) * (o.guest_price_cents ?? o.price_cents)
    case "rental":
      return o.price_cents * quantity * periods
  }
}

/** The total of a booking, or 400 total_too_large past MAX_TOTAL_CENTS: every path that prices a booking calls this. */
export const priceOf = (o: Priced, quantity: number, periods: number) => {
  const total = totalOf(o, quantity, periods)
  return total <= MAX_TOTAL_CENTS
    ? Effect.succeed(total)
    : Effect.fail(
        new TotalTooLarge({
          message: `this booking would cost ${total} in minor units; one booking costs at most ${MAX_TOTAL_CENTS}: book fewer places or periods`
        })
      )
}

/** What a request asks of an offering's price: how many (one unless it says), for how many periods, with which codes. */
export interface PriceRequest {
  readonly quantity?: number | undefined
  readonly periods?: number | undefined
  readonly promo_code?: string | undefined
  readonly gift_card_code?: string | undefined
}

/**
 * The price of a request, the one way every path prices one (bookings.create, the public quote and booking): its
 * quantity within the offering's max_per_booking, periods for rentals only, and the total (priceOf).
 */
export const requestPrice = (o: Priced & Pick<OfferingRow, "max_per_booking">, request: PriceRequest) => {
  const quantity = request.quantity ?? 1
  if (quantity > o.max_per_booking)
    return Effect.fail(new InvalidQuantity({ message: `quantity: at most ${o.max_per_booking} in one booking` }))
  if (request.periods !== undefined && o.kind !== "rental")
    return Effect.fail(new InvalidPeriods({ message: "periods apply to rentals only" }))
  return Effect.map(priceOf(o, quantity, request.periods ?? 1), (price) => ({ quantity, price }))
}

/**
 * A price less its promo code's discount, and what its gift card pays of the rest: the codes as the request gives them,
 * each checked for the org (and the promo for the offering, on the org's calendar).
 */
export const discounts = Effect.gen(function* () {
  const promos = yield* Promos
  const gifts = yield* GiftCards
  return (
    org: { readonly id: string; readonly timezone: string },
    offeringId: string,
    price: number,
    request: PriceRequest
  ) =>
    Effect.gen(function* () {
      const promo =
        request.promo_code === undefined
          ? undefined
          : yield* promos.check(org.id, org.timezone, offeringId, request.promo_code, price)
      const discount = promo?.discount ?? 0
      const gift =
        request.gift_card_code === undefined
          ? undefined
          : yield* gifts.check(org.id, request.gift_card_code, price - discount)
      return { promo, discount, gift, giftCents: gift?.cents ?? 0 }
    })
})
