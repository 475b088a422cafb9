import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { MAX_TOTAL_CENTS } from "../../../engine/schema/common.ts"
import { discountOf, refusalOf } from "../../../engine/services/promos/rules.ts"

const total = fc.integer({ min: 0, max: MAX_TOTAL_CENTS })

describe("promo code discounts", () => {
  it("never take more than the total nor leave a negative price; percent is rounded half up to a whole minor unit", () => {
    fc.assert(
      fc.property(total, fc.integer({ min: 1, max: 100 }), (t, pct) => {
        const d = discountOf({ percent_off: pct, amount_off_cents: null }, t)
        expect(d).toBeGreaterThanOrEqual(0)
        expect(d).toBeLessThanOrEqual(t)
        // |d - t*pct/100| <= 1/2, ties going up: d = round-half-up(t * pct / 100), computed in exact integers.
        expect(2 * (t * pct) >= 200 * d - 100 && 2 * (t * pct) < 200 * d + 100).toBe(true)
        if (pct === 100) expect(d).toBe(t)
      })
    )
    fc.assert(
      fc.property(total, fc.integer({ min: 1, max: MAX_TOTAL_CENTS }), (t, off) => {
        expect(discountOf({ percent_off: null, amount_off_cents: off }, t)).toBe(Math.min(t, off))
      })
    )
  })

  it("apply only on the days from starts_on to ends_on, inclusive, while uses are below max_uses", () => {
    const day = fc
      .integer({ min: 0, max: 60 })
      .map((n) => new Date(Date.UTC(2031, 0, 1 + n)).toISOString().slice(0, 10))
    fc.assert(
      fc.property(
        fc.option(day),
        fc.option(day),
        day,
        fc.option(fc.integer({ min: 1, max: 5 })),
        fc.integer({ min: 0, max: 5 }),
        (starts, ends, today, max, uses) => {
          const row = {
            id: "p",
            org_id: "o",
            code: "CODE",
            percent_off: 10,
            amount_off_cents: null,
            max_uses: max,
            uses,
            starts_on: starts,
            ends_on: ends,
            offering_ids: null,
            active: true,
            created_at: new Date(),
            updated_at: null
          }
          const applies =
            (starts === null || today >= starts) && (ends === null || today <= ends) && (max === null || uses < max)
          expect(refusalOf(row, "any", today) === undefined).toBe(applies)
        }
      )
    )
  })
})
