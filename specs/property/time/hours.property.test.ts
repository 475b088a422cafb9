import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { computeOpenIntervals, openIntervals } from "../../../engine/time/hours.ts"
import { addDays, toInstant } from "../../../engine/time/local.ts"
import { weeklyHours, zoneAndFrom } from "./arbitraries.ts"
import { nearTransition, wallOf } from "./intl.ts"

describe("openIntervals", () => {
  it("an instant is open exactly when its wall clock is within that weekday's hours (away from DST changes)", () => {
    fc.assert(
      fc.property(
        weeklyHours,
        zoneAndFrom,
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.integer({ min: 0, max: 9999 }), { minLength: 20, maxLength: 20 }),
        (hours, { zone, date }, days, picks) => {
          const to = addDays(date, days - 1)
          const windows = openIntervals(hours, zone, date, to)
          for (let i = 1; i < windows.length; i++)
            expect(windows[i].start.getTime()).toBeGreaterThan(windows[i - 1].end.getTime())
          for (const w of windows) expect(w.end.getTime()).toBeGreaterThan(w.start.getTime())
          const first = toInstant(date, "00:00:00", zone).getTime()
          const last = toInstant(to, "24:00:00", zone).getTime()
          for (const p of picks) {
            const instant = new Date(first + Math.floor(((p / 10_000) * (last - first)) / 60_000) * 60_000)
            if (instant.getTime() >= last || nearTransition(instant, zone)) continue
            const wall = wallOf(instant, zone)
            const expected = hours.some(
              (h) => h.weekday === wall.weekday && h.start_time <= wall.time && wall.time < h.end_time
            )
            expect(windows.some((w) => w.start <= instant && instant < w.end)).toBe(expected)
          }
        }
      ),
      { numRuns: 300 }
    )
  })

  it("the kept answers equal a fresh computation, asked in any order and again", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(weeklyHours, zoneAndFrom, fc.integer({ min: 1, max: 10 })), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(5), { maxLength: 12 }),
        (asks, again) => {
          const ask = ([hours, { zone, date }, days]: (typeof asks)[number]) => {
            const to = addDays(date, days - 1)
            expect(openIntervals(hours, zone, date, to)).toEqual(computeOpenIntervals(hours, zone, date, to))
          }
          for (const a of asks) ask(a)
          for (const i of again) ask(asks[i % asks.length])
        }
      ),
      { numRuns: 200 }
    )
  })
})
