import { type Interval, openIntervals, type WeeklyHours } from "../time/hours.ts"
import {
  addDays,
  daysBetween,
  endOfLocalDay,
  type LocalDate,
  type LocalTime,
  toInstant,
  toLocal
} from "../time/local.ts"
import { wallWindow } from "../time/zone.ts"

/** Hours a closed date is open after all (wall-clock readings of the org's zone). */
export type OpenHours = { readonly start_time: LocalTime; readonly end_time: LocalTime }

/** A closure as availability reads it: local dates, both inclusive, and the hours open on each (none: all day). */
export type ClosureSpan = {
  readonly id: string
  readonly starts_on: LocalDate
  readonly ends_on: LocalDate
  readonly open_hours: ReadonlyArray<OpenHours>
  readonly note: string | null
}

type Closed = Interval & { readonly closure: ClosureSpan }

const byStart = (a: Interval, b: Interval) => a.start.getTime() - b.start.getTime()

/** The whole local date: its midnight to the next (23 or 25 hours on the days the clocks change). */
export const localDay = (date: LocalDate, zone: string): Interval => ({
  start: toInstant(date, "00:00:00", zone),
  end: endOfLocalDay(date, zone)
})

/** `from` less every cut; both sorted by start. */
export const subtract = (from: ReadonlyArray<Interval>, cuts: ReadonlyArray<Interval>): Array<Interval> => {
  let pieces: Array<Interval> = from.map((i) => ({ start: i.start, end: i.end }))
  for (const cut of cuts) {
    pieces = pieces.flatMap((p) => {
      if (cut.end <= p.start || cut.start >= p.end) return [p]
      return [
        ...(cut.start > p.start ? [{ start: p.start, end: cut.start }] : []),
        ...(cut.end < p.end ? [{ start: cut.end, end: p.end }] : [])
      ]
    })
  }
  return pieces
}

/** The local dates of a closure within [from, to]. */
const datesWithin = (c: ClosureSpan, from: LocalDate, to: LocalDate): Array<LocalDate> => {
  const first = c.starts_on > from ? c.starts_on : from
  const last = c.ends_on < to ? c.ends_on : to
  const out: Array<LocalDate> = []
  for (let d = first; daysBetween(d, last) >= 0; d = addDays(d, 1)) out.push(d)
  return out
}

/** The stretches each closure keeps closed on its dates within [from, to]: each day less its open hours. */
export const closedWindows = (
  closures: ReadonlyArray<ClosureSpan>,
  zone: string,
  from: LocalDate,
  to: LocalDate
): Array<Closed> =>
  closures
    .flatMap((closure) =>
      datesWithin(closure, from, to).flatMap((date) => {
        const open = closure.open_hours.flatMap((h) => wallWindow(date, h.start_time, h.end_time, zone)).sort(byStart)
        return subtract([localDay(date, zone)], open).map((w) => ({ ...w, closure }))
      })
    )
    .sort(byStart)

/** closedWindows with the stretches that meet merged (the first closure names each), so a moment between two is not open. */
export const closedStretches = (
  closures: ReadonlyArray<ClosureSpan>,
  zone: string,
  from: LocalDate,
  to: LocalDate
): Array<Closed> => {
  const out: Array<Closed> = []
  for (const w of closedWindows(closures, zone, from, to)) {
    const last = out[out.length - 1]
    if (last !== undefined && w.start <= last.end) {
      if (w.end > last.end) out[out.length - 1] = { ...last, end: w.end }
    } else out.push(w)
  }
  return out
}

/**
 * Open windows of weekly hours with closures applied: on a closed date the weekly hours give way to the closure's
 * open hours (none when closed all day); where closures overlap, open only where each of them is open.
 */
export const openWithClosures = (
  hours: ReadonlyArray<WeeklyHours>,
  zone: string,
  from: LocalDate,
  to: LocalDate,
  closures: ReadonlyArray<ClosureSpan>
): ReadonlyArray<Interval> => {
  const base = openIntervals(hours, zone, from, to)
  if (closures.length === 0) return base
  const dates = [...new Set(closures.flatMap((c) => datesWithin(c, from, to)))].sort()
  if (dates.length === 0) return base
  const days = dates.map((d) => localDay(d, zone))
  const closed = closedWindows(closures, zone, from, to)
  return [...subtract(base, days), ...subtract(days, closed)].sort(byStart)
}

/** The first closure that keeps [start, end) from being open at some moment of it, if any. */
export const closureOver = (
  closures: ReadonlyArray<ClosureSpan>,
  zone: string,
  start: Date,
  end: Date
): ClosureSpan | undefined => {
  if (closures.length === 0) return undefined
  const windows = closedWindows(closures, zone, addDays(dayOf(start, zone), -1), addDays(dayOf(end, zone), 1))
  return windows.find((w) => w.start < end && w.end > start)?.closure
}

/**
 * The closure a booking's time falls into: for a rental, one closed when it is picked up or when it is returned
 * (a rental may run across a closed day; a return as it opens or closes is open, as on weekly hours); for the others,
 * one closed at any moment of the time.
 */
export const closureRefusing = (
  closures: ReadonlyArray<ClosureSpan>,
  zone: string,
  kind: "class" | "appointment" | "rental",
  start: Date,
  end: Date
): ClosureSpan | undefined => {
  if (kind !== "rental") return closureOver(closures, zone, start, end)
  if (closures.length === 0) return undefined
  const windows = closedStretches(closures, zone, addDays(dayOf(start, zone), -1), addDays(dayOf(end, zone), 1))
  return windows.find((w) => (w.start <= start && start < w.end) || (w.start < end && end < w.end))?.closure
}

const dayOf = (instant: Date, zone: string): LocalDate => toLocal(instant, zone).date
