/** Dates, times and money as the org sees them: every time in the org's zone, amounts in its currency. */

const cache = new Map<string, Intl.DateTimeFormat>()
const dtf = (zone: string, options: Intl.DateTimeFormatOptions) => {
  const key = `${zone}|${JSON.stringify(options)}`
  let f = cache.get(key)
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-GB", { ...options, timeZone: zone })
    cache.set(key, f)
  }
  return f
}

export const time = (iso: string, zone: string) =>
  dtf(zone, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(iso))

/**
 * The console's one date style, on every screen: the weekday named, then day, month and year ("Tue 3 Dec 2026"), and
 * with a time "Tue 3 Dec 2026, 18:00", in the org's zone.
 */
const dated = (at: Date, zone: string) => {
  const p = dtf(zone, { weekday: "short", day: "numeric", month: "short", year: "numeric" }).formatToParts(at)
  const n = (t: string) => p.find((x) => x.type === t)?.value ?? ""
  return `${n("weekday")} ${n("day")} ${n("month")} ${n("year")}`
}
/** The date of an instant in the zone: "Tue 3 Dec 2026". */
export const day = (iso: string, zone: string) => dated(new Date(iso), zone)
/** An instant in the zone: "Tue 3 Dec 2026, 18:00". */
export const dateTime = (iso: string, zone: string) => `${day(iso, zone)}, ${time(iso, zone)}`
/** A calendar date (YYYY-MM-DD, already the org's): "Tue 3 Dec 2026". */
export const localDate = (date: string) => dated(new Date(`${date}T12:00:00Z`), "UTC")
/** The month of a calendar date: "December 2026". */
export const monthOf = (date: string) =>
  dtf("UTC", { month: "long", year: "numeric" }).format(new Date(`${date.slice(0, 7)}-15T12:00:00Z`))

/** Minor units per major unit (JPY 1, EUR 100, KWD 1000), as Intl knows them. */
export const minorUnits = (currency: string) =>
  10 ** (new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2)

export const money = (cents: number, currency: string) =>
  new Intl.NumberFormat("en-GB", { style: "currency", currency }).format(cents / minorUnits(currency))

/** "12.50" typed by a person, in minor units; undefined when it is not an amount. */
export const parseMoney = (text: string, currency: string): number | undefined => {
  const t = text.trim().replace(",", ".")
  if (!/^\d+(\.\d+)?$/.test(t)) return undefined
  const units = minorUnits(currency)
  const cents = Math.round(Number(t) * units)
  return Number.isSafeInteger(cents) ? cents : undefined
}

/** The wall-clock parts of an instant in a zone. */
const parts = (at: Date, zone: string) => {
  const p = dtf(zone, {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23"
  }).formatToParts(at)
  const n = (t: string) => Number(p.find((x) => x.type === t)?.value)
  return { y: n("year"), m: n("month"), d: n("day"), h: n("hour"), min: n("minute"), s: n("second") }
}

/** The calendar date (YYYY-MM-DD) of an instant in a zone. */
export const dateIn = (at: Date, zone: string) => {
  const p = parts(at, zone)
  return `${p.y}-${String(p.m).padStart(2, "0")}-${String(p.d).padStart(2, "0")}`
}

/**
 * The instant of a wall-clock date and time in a zone. A time that does not exist (the spring gap) moves forward by
 * the gap; an ambiguous one (the autumn fold) takes the earlier instant, as the engine does.
 */
export const zonedToUtc = (date: string, hhmm: string, zone: string): Date => {
  const [y, m, d] = date.split("-").map(Number)
  const [h, min] = hhmm.split(":").map(Number)
  const wall = Date.UTC(y, m - 1, d, h, min)
  const offsetAt = (t: number) => {
    const p = parts(new Date(t), zone)
    return Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - t
  }
  // Both offsets around the wall time: the earlier instant that shows this wall time wins; none shows it in a gap.
  const candidates = [offsetAt(wall - 86_400_000), offsetAt(wall + 86_400_000)]
    .map((o) => wall - o)
    .filter((t) => wall - t === offsetAt(t) && t + offsetAt(t) === wall)
  if (candidates.length > 0) return new Date(Math.min(...candidates))
  // In the gap: the same wall time with the offset from before the change, which lands after it.
  return new Date(wall - offsetAt(wall - 86_400_000))
}

/** Adds whole days to a YYYY-MM-DD date. */
export const addDays = (date: string, days: number) => {
  const [y, m, d] = date.split("-").map(Number)
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

/** Monday of the week of a YYYY-MM-DD date. */
export const mondayOf = (date: string) => {
  const [y, m, d] = date.split("-").map(Number)
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay()
  return addDays(date, -((weekday + 6) % 7))
}

export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

/** Minor units as a plain amount to edit ("12.50", "1200" for JPY). */
export const amount = (cents: number, currency: string) => {
  const units = minorUnits(currency)
  return (cents / units).toFixed(Math.round(Math.log10(units)))
}

/**
 * The end of a repeating entry's times from its start and the offering's length: past midnight it ends the next day
 * (span_days), as a single time of the same length does, never cut at 23:59.
 */
export const entryEnd = (start: string, duration: number) => {
  const [h, m] = start.split(":").map(Number)
  const t = h * 60 + m + duration
  const at = t % 1440
  return {
    end_time: `${String(Math.floor(at / 60)).padStart(2, "0")}:${String(at % 60).padStart(2, "0")}`,
    ...(t >= 1440 ? { span_days: Math.floor(t / 1440) } : {})
  }
}

/** A browser's user agent as a person names it: "Chrome on Linux", "Safari on iPhone"; "A browser" when unknown. */
export const browserName = (ua: string | null | undefined) => {
  if (ua === null || ua === undefined || ua === "") return "A browser"
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
      ? "Firefox"
      : /(Chrome|Chromium|CriOS)\//.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : "A browser"
  const system = /iPhone|iPad/.test(ua)
    ? "iPhone or iPad"
    : /Android/.test(ua)
      ? "Android"
      : /Mac OS X|Macintosh/.test(ua)
        ? "macOS"
        : /Windows/.test(ua)
          ? "Windows"
          : /Linux|X11/.test(ua)
            ? "Linux"
            : undefined
  return system === undefined ? browser : `${browser} on ${system}`
}
