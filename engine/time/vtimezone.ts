import { DateTime } from "effect"

/**
 * A VTIMEZONE component (RFC 5545 3.6.5) for an IANA zone over [from, to], from the zone data the runtime has (Intl):
 * one observance for the offset at `from` (from 1970), then one for each change of offset up to `to`, each with its own DTSTART
 * (the wall clock just before the change) and no RRULE, so nothing depends on a rule being guessed right.
 */

const HOUR_MS = 3_600_000
const STEP_MS = 12 * HOUR_MS
const named = new Map<string, DateTime.TimeZone.Named>()

const offsetAt = (ms: number, zone: string) => {
  let z = named.get(zone)
  if (z === undefined) named.set(zone, (z = DateTime.zoneUnsafeMakeNamed(zone)))
  return DateTime.zonedOffset(DateTime.unsafeMakeZoned(ms, { timeZone: z }))
}

/** The first whole second in (a, b] whose offset differs from a's. */
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

/** Each change of offset in (from, to]: its instant, the offsets before and after (ms east of UTC). */
export const offsetChanges = (zone: string, from: number, to: number) => {
  const changes: Array<{ at: number; before: number; after: number }> = []
  let offset = offsetAt(from, zone)
  for (let t = from; t < to; t += STEP_MS) {
    const next = Math.min(t + STEP_MS, to)
    const o = offsetAt(next, zone)
    if (o === offset) continue
    const at = changeBetween(t, next, zone)
    changes.push({ at, before: offset, after: offsetAt(at, zone) })
    offset = o
  }
  return changes
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0")

/** A wall-clock reading as iCalendar's local DATE-TIME (no zone). */
const wall = (ms: number) => {
  const d = new Date(ms)
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
}

/** An offset as UTC-OFFSET: +0100, -0330, +053730. */
const utcOffset = (ms: number) => {
  const s = Math.round(Math.abs(ms) / 1000)
  const text = `${ms < 0 ? "-" : "+"}${pad(Math.floor(s / 3600))}${pad(Math.floor(s / 60) % 60)}`
  return s % 60 === 0 ? text : `${text}${pad(s % 60)}`
}

const shortName = (ms: number, zone: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "short" })
    .formatToParts(new Date(ms))
    .find((p) => p.type === "timeZoneName")?.value

const cache = new Map<string, string>()

/** The VTIMEZONE text of `zone` covering the instants from..to (epoch ms), cached per zone and day. */
export const vtimezone = (zone: string, from: number, to: number): string => {
  const [a, b] = [Math.floor(from / 86_400_000) * 86_400_000, Math.ceil(to / 86_400_000) * 86_400_000]
  const key = `${zone}|${a}|${b}`
  const hit = cache.get(key)
  if (hit !== undefined) return hit
  const changes = offsetChanges(zone, a, b)
  const first = offsetAt(a, zone)
  // Standard time is the least offset of the year (Jul 1 and Jan 1 are in different seasons either side of the equator).
  const least = Math.min(first, offsetAt(a + 182 * 86_400_000, zone), ...changes.map((c) => c.after))
  const observance = (at: number, before: number, after: number, start = wall(at + before)) => {
    const kind = after > least ? "DAYLIGHT" : "STANDARD"
    const name = shortName(at, zone)
    return [
      `BEGIN:${kind}`,
      `DTSTART:${start}`,
      `TZOFFSETFROM:${utcOffset(before)}`,
      `TZOFFSETTO:${utcOffset(after)}`,
      ...(name === undefined ? [] : [`TZNAME:${name}`]),
      `END:${kind}`
    ]
  }
  const text = [
    "BEGIN:VTIMEZONE",
    `TZID:${zone}`,
    // The offset at `from` holds from long before, so a reading just before the span still finds it.
    ...observance(a, first, first, "19700101T000000"),
    ...changes.flatMap((c) => observance(c.at, c.before, c.after)),
    "END:VTIMEZONE"
  ].join("\r\n")
  if (cache.size > 1000) cache.clear()
  cache.set(key, text)
  return text
}
