import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { coordinatesIn } from "../../../engine/services/offerings/location.ts"

/** A coordinate as people type it: 2 to 6 decimals, within its range. */
const coordinate = (max: number) =>
  fc
    .tuple(fc.integer({ min: -max * 10 ** 4, max: max * 10 ** 4 }), fc.integer({ min: 2, max: 6 }))
    .map(([n, decimals]) => (n / 10 ** 4).toFixed(decimals))
const lat = coordinate(90)
const lon = coordinate(180)
/** Words around the pair that are neither numbers nor currencies. */
const words = fc.constantFrom("", "Meet at ", "Pier 3 (", "Dam Square, ", "Start: ")
const tail = fc.constantFrom("", ")", " by the fountain", ". Park behind the shed", ", north gate")
const abs = (s: string) => s.replace(/^-/, "")
const hemi = (s: string, pos: string, neg: string) => `${abs(s)}${s.startsWith("-") ? neg : pos}`

describe("coordinates typed into a location", () => {
  it("reads a pair in every form people type, signed or with hemispheres, with words around it", () => {
    fc.assert(
      fc.property(lat, lon, words, tail, fc.integer({ min: 0, max: 6 }), (a, o, before, after, form) => {
        const text = [
          `${a}, ${o}`,
          `${a},${o}`,
          `${a} ${o}`,
          `${a}; ${o}`,
          `${a.startsWith("-") ? a : `+${a}`}, ${o.startsWith("-") ? o : `+${o}`}`,
          `${hemi(a, "°N", "°S")}, ${hemi(o, "°E", "°W")}`,
          `${abs(a)}° ${a.startsWith("-") ? "S" : "N"}, ${abs(o)}° ${o.startsWith("-") ? "W" : "E"}`
        ][form]
        expect(coordinatesIn(`${before}${text}${after}`)).toEqual({ lat: Number(a), lon: Number(o) })
      })
    )
  })

  it("never reads the tail of a longer number: digits before the pair make one number of them", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{0,2}$/), lat, lon, (digits, a, o) => {
        const found = coordinatesIn(`Room ${digits}${abs(a)}, ${o}`)
        expect(found?.lat).not.toBe(Number(abs(a)))
        if (found !== null) expect(found.lat).toBe(Number(`${digits}${abs(a)}`))
      })
    )
  })

  it("reads no pair beside a currency, nor one of three decimal numbers", () => {
    fc.assert(
      fc.property(
        lat,
        lon,
        fc.constantFrom("EUR", "USD", "GBP", "JPY"),
        fc.constantFrom("€", "$", "£"),
        (a, o, code, sign) => {
          expect(coordinatesIn(`${a}, ${o} ${code}`)).toBeNull()
          expect(coordinatesIn(`${code} ${a}, ${o}`)).toBeNull()
          expect(coordinatesIn(`${sign}${a}, ${o}`)).toBeNull()
          expect(coordinatesIn(`1.25, ${a}, ${o}`)).toBeNull()
          expect(coordinatesIn(`${a}, ${o}, 7.50`)).toBeNull()
        }
      )
    )
  })

  it("reads nothing out of range", () => {
    fc.assert(
      fc.property(fc.double({ min: 90.01, max: 999, noNaN: true }), lon, (a, o) => {
        expect(coordinatesIn(`${a.toFixed(3)}, ${o}`)).toBeNull()
      })
    )
  })

  it.each([
    ["52.3731°N, 4.8922°E", { lat: 52.3731, lon: 4.8922 }],
    ["33.92° S, 18.42° E", { lat: -33.92, lon: 18.42 }],
    ["52.3731 4.8922", { lat: 52.3731, lon: 4.8922 }],
    ["+52.37, +4.89", { lat: 52.37, lon: 4.89 }],
    ["52.37,4.89", { lat: 52.37, lon: 4.89 }],
    ["N 52.37 E 4.89", { lat: 52.37, lon: 4.89 }],
    ["geo:52.3731,4.8922", { lat: 52.3731, lon: 4.8922 }],
    ["Room 123.45, 6.78", null],
    ["12.50, 3.25 EUR", null],
    ["€12.50, 3.25", null],
    ["Unit 4 N 5 E", null],
    ["52.3, 4.8", null],
    ["Damrak 1, 1012 LG Amsterdam", null]
  ])("%j gives %j", (text, expected) => {
    expect(coordinatesIn(text)).toEqual(expected)
  })
})
