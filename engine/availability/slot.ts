import { endOfLocalDay, type LocalDate, toInstant } from "../time/local.ts"
import type { ClosureSpan } from "./closures.ts"

export type Slot = {
  starts_at: string
  ends_at: string
  capacity: number
  remaining: number
  session_id?: string
  series_id?: string
  sessions?: number
  repeat?: string
}

/** The rules every kind shares. `from` and `to` are local dates, both inclusive. */
export type Rules = {
  now: Date
  zone: string
  from: LocalDate
  to: LocalDate
  min_notice_minutes: number
  max_advance_days: number
  active: boolean
  /** Closures over the window (none when absent): their times are not offered. */
  closures?: ReadonlyArray<ClosureSpan>
}

const MINUTE_MS = 60_000
const DAY_MS = 86_400_000

/** Earliest and latest start a guest may book now (both inclusive). */
export const bookableStarts = (rules: Rules): { earliest: number; latest: number } => ({
  earliest: rules.now.getTime() + rules.min_notice_minutes * MINUTE_MS,
  latest: rules.now.getTime() + rules.max_advance_days * DAY_MS
})

/** Whether a time starting at `start` is offered: inside the window, past the notice, within the advance. */
export const isOffered = (rules: Rules): ((start: Date) => boolean) => {
  const { earliest, latest } = bookableStarts(rules)
  const windowStart = toInstant(rules.from, "00:00:00", rules.zone).getTime()
  const windowEnd = endOfLocalDay(rules.to, rules.zone).getTime()
  return (start: Date): boolean => {
    const t = start.getTime()
    return rules.active && t >= windowStart && t < windowEnd && t >= earliest && t <= latest
  }
}
