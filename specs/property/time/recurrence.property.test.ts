import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { describeMonthly, occurrences, type Repeat } from "../../../engine/time/recurrence.ts"

// The oracle walks day by day with Date.UTC calendar arithmetic only.
const DAY = 86_400_000
const toMs = (date: string) => {
  const [y, m, d] = date.split("-").map(Number)
  return Date.UTC(y, m - 1, d)
}
const toDate = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const monthLength = (t: Date) => new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 0)).getUTCDate()

const oracle = (
  starts_on: string,
  repeat: Repeat,
  ends_on: string | null,
  from: string,
  until: string
): Array<string> => {
  const start = new Date(toMs(starts_on))
  const last = Math.min(toMs(until), ends_on === null ? Infinity : toMs(ends_on))
  const nth = start.getUTCDate() + 7 > monthLength(start) ? -1 : Math.ceil(start.getUTCDate() / 7)
  const matches = (d: Date) => {
    const sameWeekday = d.getUTCDay() === start.getUTCDay()
    switch (repeat) {
      case "none":
        return d.getTime() === start.getTime()
      case "daily":
        return true
      case "weekly":
        return sameWeekday
      case "weekdays":
        return d.getUTCDay() >= 1 && d.getUTCDay() <= 5
      case "monthly":
        return sameWeekday && (nth === -1 ? d.getUTCDate() + 7 > monthLength(d) : Math.ceil(d.getUTCDate() / 7) === nth)
      case "yearly": {
        if (d.getUTCMonth() !== start.getUTCMonth()) return false
        const leapDay = start.getUTCMonth() === 1 && start.getUTCDate() === 29
        return d.getUTCDate() === start.getUTCDate() || (leapDay && d.getUTCDate() === 28 && monthLength(d) === 28)
      }
    }
  }
  const out: Array<string> = []
  for (let t = Math.max(start.getTime(), toMs(from)); t <= last; t += DAY) if (matches(new Date(t))) out.push(toDate(t))
  return out
}

const day = (min: string, max: string) =>
  fc.integer({ min: toMs(min) / DAY, max: toMs(max) / DAY }).map((d) => toDate(d * DAY))
const startsOn = fc.oneof(
  day("2020-01-01", "2035-12-31"),
  fc.constantFrom(
    "2020-02-29",
    "2024-02-29",
    "2028-02-29",
    "2032-02-29",
    "2026-01-31",
    "2026-03-29",
    "2026-03-31",
    "2027-02-22"
  ),
  fc
    .tuple(fc.integer({ min: 2020, max: 2035 }), fc.integer({ min: 0, max: 11 }), fc.integer({ min: 0, max: 8 }))
    .map(([y, m, back]) => toDate(Date.UTC(y, m + 1, 0) - back * DAY))
)
const repeat = fc.constantFrom<Repeat>("none", "daily", "weekly", "monthly", "yearly", "weekdays")
const entry = fc
  .tuple(
    startsOn,
    repeat,
    fc.option(fc.integer({ min: -5, max: 2000 }), { nil: null }),
    fc.integer({ min: -400, max: 1500 }),
    fc.integer({ min: 0, max: 1200 })
  )
  .map(([starts_on, repeat, endsAfter, fromAfter, length]) => ({
    starts_on,
    repeat,
    ends_on: endsAfter === null ? null : toDate(toMs(starts_on) + endsAfter * DAY),
    from: toDate(toMs(starts_on) + fromAfter * DAY),
    until: toDate(toMs(starts_on) + (fromAfter + length) * DAY)
  }))

describe("occurrences", () => {
  it("matches a day-by-day oracle", () => {
    fc.assert(
      fc.property(entry, ({ starts_on, repeat, ends_on, from, until }) => {
        expect(occurrences({ starts_on, repeat, ends_on }, from, until)).toEqual(
          oracle(starts_on, repeat, ends_on, from, until)
        )
      }),
      { numRuns: 1000 }
    )
  })

  it("a window split in two gives the same dates", () => {
    fc.assert(
      fc.property(entry, fc.integer({ min: 0, max: 1200 }), ({ starts_on, repeat, ends_on, from, until }, cut) => {
        const middle = toDate(Math.min(toMs(from) + cut * DAY, toMs(until)))
        const next = toDate(toMs(middle) + DAY)
        const whole = occurrences({ starts_on, repeat, ends_on }, from, until)
        expect([
          ...occurrences({ starts_on, repeat, ends_on }, from, middle),
          ...occurrences({ starts_on, repeat, ends_on }, next, until)
        ]).toEqual(whole)
      })
    )
  })

  it("monthly dates keep the first date's weekday and position", () => {
    fc.assert(
      fc.property(startsOn, (starts_on) => {
        const rule = describeMonthly(starts_on)
        const dates = occurrences(
          { starts_on, repeat: "monthly", ends_on: null },
          starts_on,
          toDate(toMs(starts_on) + 800 * DAY)
        )
        expect(dates[0]).toBe(starts_on)
        for (const d of dates) {
          const date = new Date(toMs(d))
          expect(date.getUTCDay()).toBe(rule.weekday)
          if (rule.nth === -1) expect(date.getUTCDate() + 7).toBeGreaterThan(monthLength(date))
          else expect(Math.ceil(date.getUTCDate() / 7)).toBe(rule.nth)
        }
        expect(dates.length).toBeGreaterThanOrEqual(26)
      })
    )
  })
})
