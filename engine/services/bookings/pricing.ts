import type { OfferingRow } from "../offerings/row.ts"

/**
 * What a booking costs before any promo code: class seats at price_cents each (a course: each seat for the
 * whole course); an appointment's first person at price_cents and each additional guest at guest_price_cents
 * (null: the full price, 0: free); rental items per period.
 */
export const totalOf = (o: Pick<OfferingRow, "kind" | "price_cents" | "guest_price_cents">, quantity: number, periods: number) => {
  switch (o.kind) {
    case "class":
      return o.price_cents * quantity
    case "appointment":
      return o.price_cents + (quantity - 1) * (o.guest_price_cents ?? o.price_cents)
    case "rental":
      return o.price_cents * quantity * periods
  }
}
