import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  type ClosureSpan,
  closedStretches,
  closureOver,
  type HoursSlotsInput,
  hoursSlots,
  localDay,
  rentalSlots,
  sessionSlots
} from "../../../engine/availability/index.ts"
import { addDays, toInstant, toLocal } from "../../../engine/time/local.ts"
import { weeklyHours, zoneAndFrom } from "../time/arbitraries.ts"

const MINUTE = 60_000
const pad = (n: number) => String(n).padStart(2, "0")
const clock = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}:00`

const closure = (days: number) =>
  fc.record({
    first: fc.integer({ min: -1, max: days }),
    length: fc.integer({ min: 0, max: 3 }),
    open: fc.array(
      fc.tuple(fc.integer({ min: 0, max: 95 }), fc.integer({ min: 1, max: 96 })).map(([a, b]) => ({
        start_time: clock(15 * Math.min(a, b - 1)),
        end_time: clock(15 * Math.max(b, a + 1))
      })),
      { maxLength: 2 }
    )
  })

const input = fc
  .record({
    where: zoneAndFrom,
    days: fc.integer({ min: 1, max: 10 }),
    hours: weeklyHours,
    duration_minutes: fc.integer({ min: 1, max: 36 }).map((n) => n * 5),
    slot_interval_minutes: fc.option(
      fc.integer({ min: 1, max: 12 }).map((n) => n * 5),
      { nil: null }
    ),
    closures: fc.array(closure(10), { maxLength: 3 })
  })
  .map(({ where, days, closures, ...rest }) => {
    const base: HoursSlotsInput = {
      ...rest,
      zone: where.zone,
      from: where.date,
      to: addDays(where.date, days - 1),
      now: toInstant(addDays(where.date, -30), "00:00:00", where.zone),
      min_notice_minutes: 0,
      max_advance_days: 60,
      active: true,
      buffer_minutes: 0,
      capacity: 2,
      busy: []
    }
    const spans: Array<ClosureSpan> = closures.map((c, i) => ({
      id: String(i),
      starts_on: addDays(where.date, c.first),
      ends_on: addDays(where.date, c.first + c.length),
      open_hours: c.open,
      note: null
    }))
    return { base, spans }
  })

const closedDates = (spans: ReadonlyArray<ClosureSpan>) =>
  new Set(
    spans.flatMap((c) => {
      const out: Array<string> = []
      for (let d = c.starts_on; d <= c.ends_on; d = addDays(d, 1)) out.push(d)
      return out
    })
  )

describe("availability with closures (property)", () => {
  it("offers no appointment time a closure keeps closed; times away from closed dates are as without closures", () => {
    fc.assert(
      fc.property(input, ({ base, spans }) => {
        const withClosures = hoursSlots({ ...base, closures: spans })
        for (const s of withClosures) {
          expect(closureOver(spans, base.zone, new Date(s.starts_at), new Date(s.ends_at))).toBeUndefined()
        }
        const dates = closedDates(spans)
        const touches = (s: { starts_at: string; ends_at: string }) =>
          dates.has(toLocal(new Date(s.starts_at), base.zone).date) ||
          dates.has(toLocal(new Date(new Date(s.ends_at).getTime() - 1), base.zone).date)
        const kept = new Set(withClosures.map((s) => s.starts_at))
        for (const s of hoursSlots(base)) if (!touches(s)) expect(kept.has(s.starts_at)).toBe(true)
        for (const s of withClosures) {
          if (!touches(s)) continue
          // On a closed date only its open hours count, whatever the weekly hours say: each such time lies in them.
          const day = toLocal(new Date(s.starts_at), base.zone).date
          const open = spans.filter((c) => c.starts_on <= day && day <= c.ends_on)
          expect(open.every((c) => c.open_hours.length > 0)).toBe(true)
        }
      }),
      { numRuns: 300 }
    )
  })

  it("closed all day: nothing starts, ends or runs on the date, in any zone and across changes of the clocks", () => {
    fc.assert(
      fc.property(input, ({ base, spans }) => {
        const allDay = spans.map((c) => ({ ...c, open_hours: [] }))
        const days = [...closedDates(allDay)].map((d) => localDay(d, base.zone))
        for (const s of hoursSlots({ ...base, closures: allDay })) {
          const [start, end] = [new Date(s.starts_at), new Date(s.ends_at)]
          expect(days.some((d) => d.start < end && d.end > start)).toBe(false)
        }
      }),
      { numRuns: 300 }
    )
  })

  it("rentals are neither picked up nor returned at a closed time (a return as it opens or closes is open)", () => {
    fc.assert(
      fc.property(input, ({ base, spans }) => {
        const windows = closedStretches(spans, base.zone, addDays(base.from, -2), addDays(base.to, 6))
        for (const s of rentalSlots({ ...base, closures: spans })) {
          const [start, end] = [new Date(s.starts_at).getTime(), new Date(s.ends_at).getTime()]
          for (const w of windows) {
            expect(w.start.getTime() <= start && start < w.end.getTime()).toBe(false)
            expect(w.start.getTime() < end && end < w.end.getTime()).toBe(false)
          }
        }
      }),
      { numRuns: 200 }
    )
  })

  it("a time on a calendar is offered exactly when no closure keeps any moment of it closed", () => {
    fc.assert(
      fc.property(
        input,
        fc.array(fc.tuple(fc.integer({ min: 0, max: 14_399 }), fc.integer({ min: 15, max: 300 })), { maxLength: 30 }),
        ({ base, spans }, times) => {
          const origin = toInstant(base.from, "00:00:00", base.zone).getTime()
          const sessions = times.map(([at, length], i) => ({
            id: String(i),
            starts_at: new Date(origin + at * MINUTE),
            ends_at: new Date(origin + (at + length) * MINUTE),
            capacity: 5,
            booked: 0,
            status: "scheduled"
          }))
          const all = new Set(sessionSlots(base, sessions).map((s) => s.session_id))
          const offered = new Set(sessionSlots({ ...base, closures: spans }, sessions).map((s) => s.session_id))
          for (const s of sessions) {
            const shut = closureOver(spans, base.zone, s.starts_at, s.ends_at) !== undefined
            expect(offered.has(s.id)).toBe(all.has(s.id) && !shut)
          }
        }
      ),
      { numRuns: 200 }
    )
  })
})
