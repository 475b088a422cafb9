import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { chargeOf, percentOf } from "../../../engine/services/payments/refunds.ts"

describe("what a checkout charges", () => {
  it("rounds a percent half up to a whole minor unit", () => {
    expect(percentOf(1250, 33)).toBe(413) // 412.5
    expect(percentOf(1249, 33)).toBe(412) // 412.17
    expect(percentOf(3333, 50)).toBe(1667) // 1666.5 yen
    expect(percentOf(1, 49)).toBe(0)
    expect(percentOf(1, 50)).toBe(1)
  })

  it("is the deposit (at most the total), else the whole total", () => {
    expect(chargeOf(6000, { deposit_cents: 1500, deposit_percent: null })).toBe(1500)
    expect(chargeOf(700, { deposit_cents: 5000, deposit_percent: null })).toBe(700)
    expect(chargeOf(700, { deposit_cents: null, deposit_percent: null })).toBe(700)
  })

  it("never charges more than the total, and matches exact arithmetic", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 1, max: 99 }), (total, percent) => {
        const c = chargeOf(total, { deposit_cents: null, deposit_percent: percent })
        expect(c).toBeLessThanOrEqual(total)
        const exact = BigInt(total) * BigInt(percent)
        expect(BigInt(c)).toBe((exact + 50n) / 100n)
      })
    )
  })
})
