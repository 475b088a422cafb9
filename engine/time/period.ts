import { addDays, toInstant, toLocal } from "./local.ts"

const MINUTE_MS = 60_000
const DAY_MINUTES = 1440

/**
 * Where a rental period (or several) of `minutes` from `start` ends: its whole days on the calendar, at the same local
 * time that many days later by the zone rule (a day rental runs 09:00 to 09:00, 23 or 25 hours when the clocks
 * change overnight), then any minutes beyond whole days as they are. Never at or before the start.
 */
export const periodEnd = (start: Date, minutes: number, zone: string): Date => {
  const days = Math.floor(minutes / DAY_MINUTES)
  const rest = (minutes - days * DAY_MINUTES) * MINUTE_MS
  if (days === 0) return new Date(start.getTime() + rest)
  const local = toLocal(start, zone)
  const end = toInstant(addDays(local.date, days), local.time, zone).getTime() + rest
  return new Date(end > start.getTime() ? end : start.getTime() + minutes * MINUTE_MS)
}

/** Room for a clock change when looking back for periods that may still be running: one day. */
export const PERIOD_SLACK_MS = DAY_MINUTES * MINUTE_MS
