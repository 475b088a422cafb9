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

/** The part paid online at booking: a fixed deposit (at most the total), a percent rounded half up, or all. */
export const depositOf = (o: Pick<OfferingRow, "deposit_cents" | "deposit_percent">, total: number) =>
  o.deposit_cents !== null ? Math.min(o.deposit_cents, total) : o.deposit_percent !== null ? Math.floor((total * o.deposit_percent + 50) / 100) : total
