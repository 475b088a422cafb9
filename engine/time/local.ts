import { DateTime, Option } from "effect"

/** `YYYY-MM-DD`, a calendar date in some zone. */
export type LocalDate = string
/** `HH:MM:SS`, a wall-clock time; `24:00:00` is the end of the day. */
export type LocalTime = string

export type Local = { date: LocalDate; time: LocalTime; weekday: number }

const DAY_MS = 86_400_000
const zones = new Map<string, DateTime.TimeZone.Named>()

const zoneOf = (zone: string): DateTime.TimeZone.Named => {
  let named = zones.get(zone)
  if (named === undefined) {
    named = DateTime.zoneUnsafeMakeNamed(zone)
    zones.set(zone, named)
  }
  return named
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

const parseDate = (date: LocalDate) => {
  const [y, m, d] = date.split("-").map(Number)
  return { y, m, d }
}

/** The local date of a year, month (1-12) and day. */
export const localDate = (year: number, month: number, day: number): LocalDate =>
  `${pad(year, 4)}-${pad(month)}-${pad(day)}`

const dateMs = (date: LocalDate): number => {
  const { y, m, d } = parseDate(date)
  const utc = new Date(Date.UTC(2000, m - 1, d))
  utc.setUTCFullYear(y)
  return utc.getTime()
}

const fromMs = (ms: number): LocalDate => {
  const utc = new Date(ms)
  return localDate(utc.getUTCFullYear(), utc.getUTCMonth() + 1, utc.getUTCDate())
}

export const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

export const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

export const isValidLocalDate = (s: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false
  const { y, m, d } = parseDate(s)
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m)
}

export const addDays = (date: LocalDate, n: number): LocalDate => fromMs(dateMs(date) + n * DAY_MS)

/** Longest run of days any loop walks (ten years): callers bound their input far below it. */
export const MAX_DAYS_WALKED = 3660

/**
 * The local dates from `first` to `last` inclusive, `step` days apart, counted by number (never by comparing text,
 * which breaks past year 9999). A run longer than MAX_DAYS_WALKED is a bug in the caller's bounds: it throws.
 */
export const walkDays = (first: LocalDate, last: LocalDate, step = 1): LocalDate[] => {
  const span = daysBetween(first, last)
  if (!(span <= MAX_DAYS_WALKED)) throw new RangeError(`refusing to walk ${span} days from ${first} to ${last}`)
  const out: LocalDate[] = []
  for (let i = 0; i <= span; i += step) out.push(addDays(first, i))
  return out
}

export const weekdayOf = (date: LocalDate): number => new Date(dateMs(date)).getUTCDay()

/** Whole days from `a` to `b` (negative when `b` is earlier). */
export const daysBetween = (a: LocalDate, b: LocalDate): number => Math.round((dateMs(b) - dateMs(a)) / DAY_MS)

export const isValidZone = (zone: string): boolean =>
  /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone) && Option.isSome(DateTime.zoneMakeNamed(zone))

/** Accepts `HH:MM`, `HH:MM:00` and `24:00`; returns `HH:MM:SS` or null. */
export const parseTimeInput = (s: string): LocalTime | null => {
  const match = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(s)
  if (match === null) return null
  const [, hh, mm, ss = "00"] = match
  if (ss !== "00") return null
  if (hh === "24") return mm === "00" ? "24:00:00" : null
  return Number(hh) <= 23 && Number(mm) <= 59 ? `${hh}:${mm}:00` : null
}

/** A gap time moves forward by the gap; an ambiguous time takes the earlier instant. */
/**
 * Local date and time to instants, kept (a zone's rules do not change while the process runs): every availability
 * read turns its window's edges into instants, and one conversion through DateTime's zone offsets costs tens of µs.
 */
const instants = new Map<string, number>()
export const toInstant = (date: LocalDate, time: LocalTime, zone: string): Date => {
  const key = `${zone} ${date} ${time}`
  const kept = instants.get(key)
  if (kept !== undefined) return new Date(kept)
  const [hours, minutes, seconds = 0] = time.split(":").map(Number)
  const day = hours === 24 ? addDays(date, 1) : date
  const { y, m, d } = parseDate(day)
  const zoned = DateTime.unsafeMakeZoned(
    { year: y, month: m, day: d, hours: hours % 24, minutes, seconds },
    { timeZone: zoneOf(zone), adjustForTimeZone: true, disambiguation: "compatible" }
  )
  const ms = DateTime.toEpochMillis(zoned)
  if (instants.size >= 10_000) instants.clear()
  instants.set(key, ms)
  return new Date(ms)
}

export const toLocal = (instant: Date, zone: string): Local => {
  const p = DateTime.toParts(DateTime.unsafeMakeZoned(instant, { timeZone: zoneOf(zone) }))
  return {
    date: localDate(p.year, p.month, p.day),
    time: `${pad(p.hours)}:${pad(p.minutes)}:${pad(p.seconds)}`,
    weekday: p.weekDay
  }
}

/** The local date of an instant, kept per zone for the second it falls in (as monthIn, below). */
const todays = new Map<string, { readonly second: number; readonly date: LocalDate }>()
export const todayIn = (now: Date, zone: string): LocalDate => {
  const second = Math.floor(now.getTime() / 1000)
  const kept = todays.get(zone)
  if (kept !== undefined && kept.second === second) return kept.date
  const date = toLocal(now, zone).date
  if (todays.size >= 1_000) todays.clear()
  todays.set(zone, { second, date })
  return date
}

/**
 * The local month ("2026-11") of an instant, kept per zone for the second it falls in (every booking counts against
 * its org's month: one zone conversion a second per zone instead of one per booking). UTC offsets are whole seconds,
 * so no month begins inside a second.
 */
const months = new Map<string, { readonly second: number; readonly month: string }>()
export const monthIn = (now: Date, zone: string): string => {
  const second = Math.floor(now.getTime() / 1000)
  const kept = months.get(zone)
  if (kept !== undefined && kept.second === second) return kept.month
  const month = toLocal(now, zone).date.slice(0, 7)
  if (months.size >= 1_000) months.clear()
  months.set(zone, { second, month })
  return month
}

/** The instant the local day ends: the start of the next day. */
export const endOfLocalDay = (date: LocalDate, zone: string): Date => toInstant(addDays(date, 1), "00:00:00", zone)
