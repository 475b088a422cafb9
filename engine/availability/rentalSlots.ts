import type { Interval } from "../time/hours.ts"
import { addDays } from "../time/local.ts"
import { periodEnd } from "../time/period.ts"
import { openWithClosures } from "./closures.ts"
import type { HoursSlotsInput } from "./hoursSlots.ts"
import { peakLoadsUntil } from "./load.ts"
import { bookableStarts, type Slot } from "./slot.ts"

const MINUTE_MS = 60_000

const openAt = (windows: ReadonlyArray<Interval>, t: number) =>
  windows.some((w) => w.start.getTime() <= t && t <= w.end.getTime())

/**
 * Rental periods: picked up while open and returned while open (a day rental runs 9:00 to 9:00, across a change
 * of the clocks too: see periodEnd), rather than fitting inside one day's hours. Remaining = items in stock less
 * the most out at once.
 */
export const rentalSlots = (input: HoursSlotsInput): Array<Slot> => {
  const length = input.duration_minutes * MINUTE_MS
  const step = (input.slot_interval_minutes ?? input.duration_minutes) * MINUTE_MS
  if (!input.active || length <= 0 || step <= 0) return []
  const { earliest, latest } = bookableStarts(input)
  const closures = input.closures ?? []
  const windows = openWithClosures(input.hours, input.zone, input.from, input.to, closures)
  const returns = openWithClosures(input.hours, input.zone, input.from, lastReturnDay(input), closures)
  const starts: Array<number> = []
  const ends: Array<number> = []
  for (const window of windows) {
    const open = window.start.getTime()
    const skip = earliest > open ? Math.ceil((earliest - open) / step) : 0
    for (let start = open + skip * step; start < window.end.getTime() && start <= latest; start += step) {
      const end = periodEnd(new Date(start), input.duration_minutes, input.zone).getTime()
      if (openAt(returns, end)) starts.push(start), ends.push(end)
    }
  }
  const peaks = peakLoadsUntil(input.busy, input.buffer_minutes * MINUTE_MS, starts, ends)
  return starts.flatMap((start, i) => {
    const remaining = input.capacity - peaks[i]
    return remaining <= 0
      ? []
      : [
          {
            starts_at: new Date(start).toISOString(),
            ends_at: new Date(ends[i]).toISOString(),
            capacity: input.capacity,
            remaining
          }
        ]
  })
}

const lastReturnDay = (input: HoursSlotsInput) => addDays(input.to, Math.ceil(input.duration_minutes / 1440) + 1)
