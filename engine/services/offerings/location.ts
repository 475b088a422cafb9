import { isCurrency } from "../../schema/currency.ts"

/**
 * Coordinates typed into a location, read whole, never from the tail of a longer number:
 * - with hemispheres, degree signs optional: "52.3731°N, 4.8922°E", "33.92° S, 18.42° E" (S and W are negative),
 *   "N 52.37 E 4.89"; any number of decimals;
 * - a plain pair of decimals, each with at least two, signed or not, apart by a comma, a semicolon or spaces:
 *   "52.3731, 4.8922", "52.37,4.89", "+52.37, +4.89", "52.3731 4.8922", "-33.8688;151.2093";
 * - a geo: URI ("geo:52.3731,4.8922").
 * Hemisphere letters are capitals, and a number beside one has a decimal point or a degree sign ("Unit 4 N" is not a
 * position). Latitude -90 to 90, longitude -180 to 180, or nothing is read. A number is read only where it starts and ends (no
 * digit or decimal point touches it); a pair beside a third decimal number ("1.25, 52.37, 4.89") or beside a
 * currency sign or code in capitals ("12.50, 3.25 EUR", "€12.50, 3.25") is not a position. Only the first pair counts.
 */
export const coordinatesIn = (text: string): { lat: number; lon: number } | null =>
  hemispheres(text) ?? geoUri(text) ?? plainPair(text)

type Point = { lat: number; lon: number }

const inRange = (lat: number, lon: number): Point | null =>
  Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : null

const UNSIGNED = String.raw`\d{1,3}(?:\.\d+)?`
const DEG = String.raw`\s*([°º]?)`
const START = String.raw`(?<![\w.])`
const END = String.raw`(?![\w°]|\.\d)`

const AFTER = new RegExp(String.raw`${START}(${UNSIGNED})${DEG}\s*([NS])\s*[,;]?\s*(${UNSIGNED})${DEG}\s*([EW])${END}`)
const BEFORE = new RegExp(String.raw`${START}([NS])\s*(${UNSIGNED})${DEG}\s*[,;]?\s*([EW])\s*(${UNSIGNED})${DEG}${END}`)

/** A number beside a hemisphere letter is a degree when it has a decimal point or a degree sign ("Unit 4 N" is not). */
const degrees = (n: string, sign: string, hemisphere: string) =>
  n.includes(".") || sign !== "" ? (hemisphere === "S" || hemisphere === "W" ? -Number(n) : Number(n)) : Number.NaN

const hemispheres = (text: string): Point | null => {
  const a = AFTER.exec(text)
  if (a) return inRange(degrees(a[1], a[2], a[3]), degrees(a[4], a[5], a[6]))
  const b = BEFORE.exec(text)
  return b ? inRange(degrees(b[2], b[3], b[1]), degrees(b[5], b[6], b[4])) : null
}

const geoUri = (text: string): Point | null => {
  const m = /\bgeo:([+-]?\d{1,3}(?:\.\d+)?),([+-]?\d{1,3}(?:\.\d+)?)(?![\d.])/i.exec(text)
  return m ? inRange(Number(m[1]), Number(m[2])) : null
}

const NUMBER = String.raw`[+\-−]?\d{1,3}\.\d{2,}`
const PAIR = new RegExp(String.raw`(?<![\w.+\-−])(${NUMBER})\s*[°º]?(?:\s*[,;]\s*|\s+)(${NUMBER})\s*[°º]?${END}`, "g")
const DECIMAL_BEFORE = /\d\.\d+\s*[,;]?\s*$/
const DECIMAL_AFTER = /^\s*[,;]?\s*[+\-−]?\d*\.\d/
const SIGN_BEFORE = /[€$£¥₹₩₺₽¤]\s*$/
const SIGN_AFTER = /^\s*[€$£¥₹₩₺₽¤]/

const toNumber = (s: string) => Number(s.replace("−", "-"))

const nearCurrency = (before: string, after: string) => {
  if (SIGN_BEFORE.test(before) || SIGN_AFTER.test(after)) return true
  const next = /^\s*([A-Z]{3})(?![A-Za-z])/.exec(after)?.[1]
  const previous = /(?<![A-Za-z])([A-Z]{3})\s*$/.exec(before)?.[1]
  return [next, previous].some((code) => code !== undefined && isCurrency(code))
}

const plainPair = (text: string): Point | null => {
  for (const m of text.matchAll(PAIR)) {
    const before = text.slice(0, m.index)
    const after = text.slice(m.index + m[0].length)
    if (DECIMAL_BEFORE.test(before) || DECIMAL_AFTER.test(after) || nearCurrency(before, after)) continue
    return inRange(toNumber(m[1]), toNumber(m[2]))
  }
  return null
}
