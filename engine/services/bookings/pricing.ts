import { Effect } from "effect"
import { TotalTooLarge } from "../../errors/index.ts"
import { MAX_TOTAL_CENTS } from "../../schema/common.ts"
import type { OfferingRow } from "../offerings/row.ts"

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
