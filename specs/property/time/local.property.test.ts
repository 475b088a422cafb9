import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  addDays,
  daysBetween,
  endOfLocalDay,
  isValidLocalDate,
  parseTimeInput,
  toInstant,
  toLocal,
  weekdayOf
} from "../../../engine/time/local.ts"
import { offsetOf, transitionsOf, wallMs, wallOf, ZONES } from "./intl.ts"

const DAY = 86_400_000
const pad = (n: number) => String(n).padStart(2, "0")
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10)

const transitionDays = ZONES.flatMap((zone) =>
  transitionsOf(zone, 2026, 2026).map((t) => ({ zone, date: wallOf(t, zone).date }))
)

const anyDate = fc
  .integer({ min: Date.UTC(2020, 0, 1) / DAY, max: Date.UTC(2035, 11, 31) / DAY })
  .map((d) => isoDate(d * DAY))
const zoneAndDate = fc.oneof(
  fc.record({ zone: fc.constantFrom(...ZONES), date: anyDate }),
  fc
    .tuple(fc.constantFrom(...transitionDays), fc.integer({ min: -1, max: 1 }))
    .map(([t, k]) => ({ zone: t.zone, date: addDays(t.date, k) }))
)
const minuteOfDay = fc.integer({ min: 0, max: 1439 }).map((m) => `${pad(Math.floor(m / 60))}:${pad(m % 60)}:00`)

describe("toLocal and toInstant", () => {
  it("toLocal reads the same wall clock as Intl", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.date({ min: new Date("2020-01-01"), max: new Date("2036-01-01"), noInvalidDate: true }),
        (zone, instant) => {
          expect(toLocal(instant, zone)).toEqual(wallOf(instant, zone))
        }
      ),
      { numRuns: 500 }
    )
  })

  it("round-trips every existing wall time to its earliest instant; a gap time moves forward by the gap", () => {
    fc.assert(
      fc.property(zoneAndDate, minuteOfDay, ({ zone, date }, time) => {
        const instant = toInstant(date, time, zone)
        const wall = wallOf(instant, zone)
        const same = (t: number) => {
          const w = wallOf(new Date(t), zone)
          return w.date === date && w.time === time
        }
        if (wall.date === date && wall.time === time) {
          expect(toLocal(instant, zone)).toEqual({ date, time, weekday: weekdayOf(date) })
          for (const minutes of [15, 30, 45, 60, 90, 120, 180])
            expect(same(instant.getTime() - minutes * 60_000)).toBe(false)
        } else {
          const after = offsetOf(instant, zone)
          const before = offsetOf(new Date(instant.getTime() - 3 * 3_600_000), zone)
          expect(after - before).toBeGreaterThan(0)
          expect((wallMs(wall.date, wall.time) - wallMs(date, time)) / 60_000).toBe(after - before)
          expect(same(wallMs(date, time) - before * 60_000)).toBe(false)
          expect(same(wallMs(date, time) - after * 60_000)).toBe(false)
        }
      }),
      { numRuns: 2000 }
    )
  })

  it("a local day ends where the next begins, 22 to 26 hours later", () => {
    fc.assert(
      fc.property(zoneAndDate, ({ zone, date }) => {
        const end = endOfLocalDay(date, zone)
        expect(end).toEqual(toInstant(date, "24:00:00", zone))
        expect(end).toEqual(toInstant(addDays(date, 1), "00:00:00", zone))
        const hours = (end.getTime() - toInstant(date, "00:00:00", zone).getTime()) / 3_600_000
        expect(hours).toBeGreaterThanOrEqual(22)
        expect(hours).toBeLessThanOrEqual(26)
      }),
      { numRuns: 500 }
    )
  })
})

describe("calendar arithmetic", () => {
  it("addDays, daysBetween and weekdayOf agree", () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: -3000, max: 3000 }), (date, n) => {
        const later = addDays(date, n)
        expect(isValidLocalDate(later)).toBe(true)
        expect(daysBetween(date, later)).toBe(n)
        expect(weekdayOf(later)).toBe((((weekdayOf(date) + n) % 7) + 7) % 7)
        expect(later).toBe(isoDate(Date.UTC(2000, 0, 1) + (daysBetween("2000-01-01", date) + n) * DAY))
      })
    )
  })

  it("parseTimeInput takes every HH:MM and HH:MM:00, nothing with seconds", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 1, max: 59 }),
        (h, m, s) => {
          expect(parseTimeInput(`${pad(h)}:${pad(m)}`)).toBe(`${pad(h)}:${pad(m)}:00`)
          expect(parseTimeInput(`${pad(h)}:${pad(m)}:00`)).toBe(`${pad(h)}:${pad(m)}:00`)
          expect(parseTimeInput(`${pad(h)}:${pad(m)}:${pad(s)}`)).toBeNull()
        }
      )
    )
  })
})
