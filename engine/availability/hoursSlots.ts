import type { WeeklyHours } from "../time/hours.ts"
import { openWithClosures } from "./closures.ts"
import { type Busy, peakLoads } from "./load.ts"
import { bookableStarts, type Rules, type Slot } from "./slot.ts"

export type HoursSlotsInput = Rules & {
  hours: ReadonlyArray<WeeklyHours>
  duration_minutes: number
  /** Minutes between start times; null means back to back. */
  slot_interval_minutes: number | null
  buffer_minutes: number
  capacity: number
  busy: ReadonlyArray<Busy>
}

const MINUTE_MS = 60_000

/** Times on weekly hours (appointments) or periods (rentals, duration = one period). */
export const hoursSlots = (input: HoursSlotsInput): Array<Slot> => {
  const length = input.duration_minutes * MINUTE_MS
  const step = (input.slot_interval_minutes ?? input.duration_minutes) * MINUTE_MS
  if (!input.active || length <= 0 || step <= 0) return []
  const { earliest, latest } = bookableStarts(input)
  const starts: Array<number> = []
  for (const window of openWithClosures(input.hours, input.zone, input.from, input.to, input.closures ?? [])) {
    const open = window.start.getTime()
    const skip = earliest > open ? Math.ceil((earliest - open) / step) : 0
    for (let start = open + skip * step; start + length <= window.end.getTime() && start <= latest; start += step) {
      starts.push(start)
    }
  }
  const peaks = peakLoads(input.busy, input.buffer_minutes * MINUTE_MS, starts, length)
  const slots: Array<Slot> = []
  starts.forEach((start, i) => {
    const remaining = input.capacity - peaks[i]
    if (remaining <= 0) return
    slots.push({
      starts_at: new Date(start).toISOString(),
      ends_at: new Date(start + length).toISOString(),
      capacity: input.capacity,
      remaining
    })
  })
  return slots
}
