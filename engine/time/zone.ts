import { DateTime } from "effect"
import { addDays, type LocalDate, type LocalTime } from "./local.ts"

/** Instants [from, to) (epoch ms) over which a zone keeps one UTC offset (ms east of UTC). */
export type Piece = { readonly from: number; readonly to: number; readonly offset: number }

const HOUR_MS = 3_600_000
const SAMPLE_MS = 6 * HOUR_MS
const CACHE_LIMIT = 50_000
const named = new Map<string, DateTime.TimeZone.Named>()
const cache = new Map<string, ReadonlyArray<Piece>>()

const zoneOf = (zone: string) => {
  let z = named.get(zone)
  if (z === undefined) named.set(zone, (z = DateTime.zoneUnsafeMakeNamed(zone)))
  return z
}

const offsetAt = (ms: number, zone: string) =>
  DateTime.zonedOffset(DateTime.unsafeMakeZoned(ms, { timeZone: zoneOf(zone) }))

/** A wall-clock reading as if it were UTC, in ms: `24:00:00` is the next day's midnight. */
export const wallMs = (date: LocalDate, time: LocalTime): number => {
  const [hh, mm, ss = 0] = time.split(":").map(Number)
  const day = hh === 24 ? addDays(date, 1) : date
  const [y, m, d] = day.split("-").map(Number)
  const utc = new Date(Date.UTC(2000, m - 1, d, hh % 24, mm, ss))
  utc.setUTCFullYear(y)
  return utc.getTime()
}

/** The first instant in (a, b] whose offset differs from a's, to the second (zones change offset on whole seconds). */
const changeBetween = (a: number, b: number, zone: string) => {
  const before = offsetAt(a, zone)
  let [lo, hi] = [a, b]
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000
    if (offsetAt(mid, zone) === before) lo = mid
    else hi = mid
  }
  return hi
}

/**
 * The zone's offsets over every instant whose wall clock can read a time of `date` (its midnight through the next
 * midnight): offsets lie within -12 and +14 hours, so a margin of 15 hours each side covers them. Sampled every
 * 6 hours, each change found to the second; cached per zone and date.
 */
export const piecesOf = (date: LocalDate, zone: string): ReadonlyArray<Piece> => {
  const key = `${zone}|${date}`
  const hit = cache.get(key)
  if (hit !== undefined) return hit
  const from = wallMs(date, "00:00:00") - 15 * HOUR_MS
  const to = wallMs(date, "24:00:00") + 15 * HOUR_MS
  const pieces: Array<Piece> = []
  let start = from
  let offset = offsetAt(from, zone)
  for (let previous = from; previous < to; previous += SAMPLE_MS) {
    const at = Math.min(previous + SAMPLE_MS, to)
    if (offsetAt(at, zone) === offset) continue
    const change = changeBetween(previous, at, zone)
    pieces.push({ from: start, to: change, offset })
    ;[start, offset] = [change, offsetAt(change, zone)]
  }
  pieces.push({ from: start, to, offset })
  if (cache.size >= CACHE_LIMIT) cache.clear()
  cache.set(key, pieces)
  return pieces
}

/** The first instant at which the clock reads `wall` or later, or null past the pieces. */
export const firstReading = (pieces: ReadonlyArray<Piece>, wall: number): number | null => {
  for (const p of pieces) {
    const t = Math.max(p.from, wall - p.offset)
    if (t < p.to) return t
  }
  return null
}

/**
 * When a window of wall-clock times on `date` is open: from the first moment the clock reads `start` to the first
 * moment it reads `end`, only while it reads `start` or later. A part inside a spring-forward gap does not exist
 * (02:15-02:45 on that day is never open; 01:30-02:30 closes when the clock jumps); an edge in a repeated hour
 * takes its first reading, and the repeated stretch before `start` stays closed.
 */
export const wallWindow = (
  date: LocalDate,
  start: LocalTime,
  end: LocalTime,
  zone: string
): Array<{ start: Date; end: Date }> => {
  const [ws, we] = [wallMs(date, start), wallMs(date, end)]
  if (we <= ws) return []
  const pieces = piecesOf(date, zone)
  const close = firstReading(pieces, we) ?? Infinity
  const out: Array<{ start: Date; end: Date }> = []
  for (const p of pieces) {
    const from = Math.max(p.from, ws - p.offset)
    const to = Math.min(p.to, we - p.offset, close)
    if (to > from) out.push({ start: new Date(from), end: new Date(to) })
  }
  return out
}
