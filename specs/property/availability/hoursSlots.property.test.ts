import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type HoursSlotsInput, hoursSlots } from "../../../engine/availability/index.ts"
import { openIntervals } from "../../../engine/time/hours.ts"
import { addDays, toInstant, toLocal } from "../../../engine/time/local.ts"
import { weeklyHours, zoneAndFrom } from "../time/arbitraries.ts"

const MINUTE = 60_000
type Busy = HoursSlotsInput["busy"][number]

const bruteForcePeak = (busy: ReadonlyArray<Busy>, buffer: number, start: number, end: number) => {
  const blocks = busy.map((b) => ({
    from: b.starts_at.getTime() - buffer,
    to: b.ends_at.getTime() + buffer,
    quantity: b.quantity
  }))
  const points = [start, ...blocks.map((b) => b.from).filter((t) => t > start && t < end)]
  return Math.max(
    0,
    ...points.map((p) => blocks.filter((b) => b.from <= p && p < b.to).reduce((sum, b) => sum + b.quantity, 0))
  )
}

const input = fc
  .record({
    where: zoneAndFrom,
    days: fc.integer({ min: 1, max: 14 }),
    hours: weeklyHours,
    duration_minutes: fc.integer({ min: 1, max: 48 }).map((n) => n * 5),
    slot_interval_minutes: fc.option(
      fc.integer({ min: 1, max: 24 }).map((n) => n * 5),
      { nil: null }
    ),
    buffer_minutes: fc.integer({ min: 0, max: 60 }),
    min_notice_minutes: fc.integer({ min: 0, max: 2880 }),
    max_advance_days: fc.integer({ min: 1, max: 20 }),
    capacity: fc.integer({ min: 1, max: 4 }),
    nowShift: fc.integer({ min: -2 * 1440, max: 4 * 1440 }),
    busy: fc.array(
      fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 3 })),
      { maxLength: 80, size: "max" }
    )
  })
  .map(({ where, days, nowShift, busy, ...rest }): HoursSlotsInput => {
    const origin = toInstant(where.date, "00:00:00", where.zone).getTime()
    return {
      ...rest,
      zone: where.zone,
      from: where.date,
      to: addDays(where.date, days - 1),
      now: new Date(origin + nowShift * MINUTE),
      active: true,
      busy: busy.map(([place, length, quantity]) => {
        const at = Math.floor((place / 10_000) * (days * 1440 + 240)) - 120
        return {
          starts_at: new Date(origin + at * MINUTE),
          ends_at: new Date(origin + (at + length) * MINUTE),
          quantity
        }
      })
    }
  })

describe("hoursSlots", () => {
  it("equals a brute-force reference: in the hours, on the step, past notice, within advance, with the free capacity", () => {
    fc.assert(
      fc.property(input, (i) => {
        const step = (i.slot_interval_minutes ?? i.duration_minutes) * MINUTE
        const length = i.duration_minutes * MINUTE
        const earliest = i.now.getTime() + i.min_notice_minutes * MINUTE
        const latest = i.now.getTime() + i.max_advance_days * 86_400_000
        const expected = []
        for (const w of openIntervals(i.hours, i.zone, i.from, i.to)) {
          for (let s = w.start.getTime(); s + length <= w.end.getTime(); s += step) {
            const remaining = i.capacity - bruteForcePeak(i.busy, i.buffer_minutes * MINUTE, s, s + length)
            if (s >= earliest && s <= latest && remaining > 0) {
              expected.push({
                starts_at: new Date(s).toISOString(),
                ends_at: new Date(s + length).toISOString(),
                capacity: i.capacity,
                remaining
              })
            }
          }
        }
        const slots = hoursSlots(i)
        expect(slots).toEqual(expected)
        for (const slot of slots) {
          const start = new Date(slot.starts_at)
          expect(slot.remaining).toBeGreaterThan(0)
          expect(slot.remaining).toBeLessThanOrEqual(i.capacity)
          const local = toLocal(start, i.zone)
          const back = toInstant(local.date, local.time, i.zone)
          expect(back.getTime() === start.getTime() || toLocal(back, i.zone).time === local.time).toBe(true)
        }
      }),
      { numRuns: 400 }
    )
  })

  it("the same busy rows in any order give the same slots", () => {
    fc.assert(
      fc.property(input, fc.infiniteStream(fc.integer()), (i, noise) => {
        const shuffled = i.busy
          .map((b) => ({ b, k: noise.next().value }))
          .sort((x, y) => x.k - y.k)
          .map((x) => x.b)
        expect(hoursSlots({ ...i, busy: shuffled })).toEqual(hoursSlots(i))
      }),
      { numRuns: 100 }
    )
  })

  it("offers nothing while paused", () => {
    fc.assert(
      fc.property(input, (i) => {
        expect(hoursSlots({ ...i, active: false })).toEqual([])
      }),
      { numRuns: 20 }
    )
  })
})
