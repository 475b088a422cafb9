import { addDays, type LocalDate, toInstant, toLocal } from "../../time/local.ts"
import { occurrences, type Repeat } from "../../time/recurrence.ts"

export interface EntryTimes {
  readonly starts_on: LocalDate
  readonly start_time: string | null
  readonly end_time: string | null
  readonly span_days: number
  readonly repeat: Repeat
  readonly ends_on: LocalDate | null
}

export interface Time {
  readonly occurs_on: LocalDate
  readonly starts_at: Date
  readonly ends_at: Date
}

/** Repeats are kept this far ahead (made_until = today + this). */
export const HORIZON_DAYS = 365

/** A timed entry must end after it starts (span_days 1 with an end before the start runs overnight). */
export const validTimes = (t: Pick<EntryTimes, "start_time" | "end_time" | "span_days">) =>
  t.start_time === null || t.end_time === null || t.span_days > 0 || t.end_time > t.start_time

const MINUTE_MS = 60_000
const DAY_MINUTES = 1440

const minutesOf = (time: string) => {
  const [hh, mm] = time.split(":").map(Number)
  return hh * 60 + mm
}

/** How long a time of the entry lasts by its local times: end_time - start_time, plus span_days days. */
export const localLength = (t: Pick<EntryTimes, "start_time" | "end_time" | "span_days">): number =>
  t.start_time === null || t.end_time === null
    ? (t.span_days + 1) * DAY_MINUTES * MINUTE_MS
    : (t.span_days * DAY_MINUTES + minutesOf(t.end_time) - minutesOf(t.start_time)) * MINUTE_MS

/**
 * The instants of one occurrence. The start is its local start by the zone rule (a time in a spring-forward gap
 * moves forward by the gap; a repeated time takes the earlier instant). A time within one day (span_days 0) then
 * lasts exactly its local length, so a change of the clocks inside it never makes it shorter, longer or empty.
 * A time over several days ends at end_time on its last day by the same rule, and an all-day time runs from local
 * midnight to the midnight after its last day (a day of 23 or 25 hours); either keeps its local length only where
 * a skipped day (Pacific/Apia, 2011) would leave it no time at all.
 */
export const timeOf = (entry: EntryTimes, day: LocalDate, zone: string): Time => {
  const last = addDays(day, entry.span_days)
  const timed =
    entry.start_time !== null && entry.end_time !== null ? { start: entry.start_time, end: entry.end_time } : null
  const starts_at = toInstant(day, timed?.start ?? "00:00:00", zone)
  const length = localLength(entry)
  const ends_at =
    timed === null
      ? toInstant(addDays(last, 1), "00:00:00", zone)
      : entry.span_days === 0
        ? new Date(starts_at.getTime() + length)
        : toInstant(last, timed.end, zone)
  return { occurs_on: day, starts_at, ends_at: ends_at > starts_at ? ends_at : new Date(starts_at.getTime() + length) }
}

/**
 * sessions.create with repeat_weeks: the first time as given, then one a week at the same local time by the zone
 * rule, each as long as the first.
 */
export const weeklyTimes = (starts_at: Date, length: number, weeks: number, zone: string): Time[] => {
  const local = toLocal(starts_at, zone)
  return Array.from({ length: weeks }, (_, week) => {
    const start = week === 0 ? starts_at : toInstant(addDays(local.date, 7 * week), local.time, zone)
    return { occurs_on: addDays(local.date, 7 * week), starts_at: start, ends_at: new Date(start.getTime() + length) }
  })
}

export const madeUntil = (entry: EntryTimes, today: LocalDate): LocalDate => {
  const horizon = addDays(today, HORIZON_DAYS)
  if (entry.repeat === "none") return entry.starts_on
  const end = entry.ends_on !== null && entry.ends_on < horizon ? entry.ends_on : horizon
  return end < entry.starts_on ? entry.starts_on : end
}

/** The entry's times on local dates in [from, until]. */
export const timesBetween = (entry: EntryTimes, from: LocalDate, until: LocalDate, zone: string): Time[] =>
  occurrences(entry, from, until).map((day) => timeOf(entry, day, zone))
