import fc from "fast-check"
import type { WeeklyHours } from "../../../engine/time/hours.ts"
import { addDays } from "../../../engine/time/local.ts"
import { transitionsOf, wallOf, ZONES } from "./intl.ts"

const pad = (n: number) => String(n).padStart(2, "0")
const clock = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}:00`

export const weeklyHours: fc.Arbitrary<Array<WeeklyHours>> = fc.array(
  fc
    .tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 95 }), fc.integer({ min: 1, max: 96 }))
    .map(([weekday, a, b]) => ({
      weekday,
      start_time: clock(15 * Math.min(a, b - 1)),
      end_time: clock(15 * Math.max(b, a + 1))
    })),
  { maxLength: 8 }
)

const transitionDays = ZONES.flatMap((zone) =>
  transitionsOf(zone, 2026, 2026).map((t) => ({ zone, date: wallOf(t, zone).date }))
)
export const zoneAndFrom = fc.oneof(
  fc.record({
    zone: fc.constantFrom(...ZONES),
    date: fc.integer({ min: 0, max: 3650 }).map((n) => addDays("2024-01-01", n))
  }),
  fc
    .tuple(fc.constantFrom(...transitionDays), fc.integer({ min: -6, max: 1 }))
    .map(([t, k]) => ({ zone: t.zone, date: addDays(t.date, k) }))
)
