import { occurrences, type Repeat } from "../../time/recurrence.ts"
import { addDays, type LocalDate, toInstant } from "../../time/local.ts"

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

/** The instants of one occurrence: all-day runs from local midnight to the midnight after its last day. */
export const timeOf = (entry: EntryTimes, day: LocalDate, zone: string): Time => {
  const last = addDays(day, entry.span_days)
  return entry.start_time === null || entry.end_time === null
    ? { occurs_on: day, starts_at: toInstant(day, "00:00:00", zone), ends_at: toInstant(addDays(last, 1), "00:00:00", zone) }
    : { occurs_on: day, starts_at: toInstant(day, entry.start_time, zone), ends_at: toInstant(last, entry.end_time, zone) }
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
