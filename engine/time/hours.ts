import { daysBetween, type LocalDate, type LocalTime, walkDays, weekdayOf } from "./local.ts"
import { wallWindow } from "./zone.ts"

export type WeeklyHours = { weekday: number; start_time: LocalTime; end_time: LocalTime }

export type Interval = { start: Date; end: Date }

export const DEFAULT_HOURS: ReadonlyArray<WeeklyHours> = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
  weekday,
  start_time: "09:00:00",
  end_time: "17:00:00"
}))

/**
 * Open windows as UTC instants for each local date in [fromDate, toDate], sorted and merged. Hours are wall-clock
 * readings: a window is open while the org's clock reads within it (see wallWindow for the days the clocks change).
 */
export const openIntervals = (
  hours: ReadonlyArray<WeeklyHours>,
  zone: string,
  fromDate: LocalDate,
  toDate: LocalDate
): ReadonlyArray<Readonly<Interval>> => {
  const key = `${zone}|${fromDate}|${toDate}|${JSON.stringify(hours)}`
  const hit = kept.get(key)
  if (hit !== undefined) return hit
  const computed = computeOpenIntervals(hours, zone, fromDate, toDate)
  if (kept.size >= KEPT) kept.delete(kept.keys().next().value!)
  kept.set(key, computed)
  return computed
}

/**
 * openIntervals is pure (zone rules do not change while the process runs) and asked the same again and again (every
 * availability call for an offering's window, two for a rental), and its zone conversions were a third of such a
 * call's own work: the latest answers are kept, oldest dropped first.
 */
const KEPT = 512
const kept = new Map<string, ReadonlyArray<Readonly<Interval>>>()

/** openIntervals without the kept answers (what it must always equal). */
export const computeOpenIntervals = (
  hours: ReadonlyArray<WeeklyHours>,
  zone: string,
  fromDate: LocalDate,
  toDate: LocalDate
): Array<Interval> => {
  const windows: Array<Interval> = []
  for (const date of daysBetween(fromDate, toDate) < 0 ? [] : walkDays(fromDate, toDate)) {
    const weekday = weekdayOf(date)
    for (const h of hours) {
      if (h.weekday !== weekday) continue
      windows.push(...wallWindow(date, h.start_time, h.end_time, zone))
    }
  }
  windows.sort((a, b) => a.start.getTime() - b.start.getTime())
  const merged: Array<Interval> = []
  for (const w of windows) {
    const last = merged[merged.length - 1]
    if (last !== undefined && w.start <= last.end) {
      if (w.end > last.end) last.end = w.end
    } else {
      merged.push({ start: w.start, end: w.end })
    }
  }
  return merged
}
