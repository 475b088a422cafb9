import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { currencyDecimals, isCurrency, minorUnits } from "../../../engine/schema/currency.ts"
import { Currency } from "../../../engine/schema/org.ts"

const intlDigits = (code: string) =>
  new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits

describe("currency minor units (ISO 4217)", () => {
  it.each([
    ["JPY", 1],
    ["KRW", 1],
    ["VND", 1],
    ["CLP", 1],
    ["ISK", 1],
    ["UGX", 1],
    ["XOF", 1],
    ["EUR", 100],
    ["USD", 100],
    ["GBP", 100],
    ["CHF", 100],
    ["COP", 100],
    ["HUF", 100],
    ["IDR", 100],
    ["MGA", 100],
    ["BHD", 1000],
    ["JOD", 1000],
    ["KWD", 1000],
    ["OMR", 1000],
    ["TND", 1000],
    ["LYD", 1000],
    ["IQD", 1000]
  ])("%s has %i minor units per major unit", (code, units) => {
    expect(minorUnits(code)).toBe(units)
  })

  it("every currency Intl knows has decimals, never fewer than Intl displays (CLDR only drops decimals nobody uses)", () => {
    for (const code of Intl.supportedValuesOf("currency")) {
      expect(isCurrency(code), code).toBe(true)
      expect([0, 2, 3, 4], code).toContain(currencyDecimals(code))
      expect(currencyDecimals(code), code).toBeGreaterThanOrEqual(intlDigits(code) ?? 0)
    }
  })
})

describe("currency codes", () => {
  const decode = Schema.decodeUnknownEither(Currency)
  it.each(["EUR", "BHD", "JPY", "IQD", "CLP"])("accepts %s", (code) => {
    expect(decode(code)._tag).toBe("Right")
  })
  it.each(["eur", "EURO", "XYZ", "AAA", "ABC", "", "E1R", "XAU", "XTS", "XXX"])(
    "refuses %j, which Intl does not know as a currency in use",
    (code) => {
      expect(decode(code)._tag).toBe("Left")
    }
  )
})
