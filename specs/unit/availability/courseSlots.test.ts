import { describe, expect, it } from "vitest"
import { courseSessionsToCome, courseSlots, type Rules } from "../../../engine/availability/index.ts"

const rules: Rules = {
  now: new Date("2026-11-10T12:00:00Z"),
  zone: "UTC",
  from: "2026-11-01",
  to: "2026-11-30",
  min_notice_minutes: 0,
  max_advance_days: 60,
  active: true
}
const time = (day: number, extra: Partial<{ capacity: number; booked: number; status: string }> = {}) => ({
  starts_at: new Date(Date.UTC(2026, 10, day, 18)),
  ends_at: new Date(Date.UTC(2026, 10, day, 19)),
  capacity: 8,
  booked: 2,
  status: "scheduled",
  ...extra
})

describe("courseSlots", () => {
  it("one slot per entry, from its first time to come to its last, with the seats of its fullest time", () => {
    const entry = {
      id: "s1",
      repeat: "weekly" as const,
      ends_on: "2026-12-01",
      sessions: [
        time(24, { booked: 5 }),
        time(3),
        time(10, { booked: 7 }),
        time(17, { status: "cancelled", booked: 8 }),
        time(12, { capacity: 6 })
      ]
    }
    expect(courseSlots(rules, [entry])).toEqual([
      {
        starts_at: "2026-11-10T18:00:00.000Z",
        ends_at: "2026-11-24T19:00:00.000Z",
        capacity: 6,
        remaining: 1,
        series_id: "s1",
        sessions: 3,
        repeat: "weekly"
      }
    ])
  })

  it("a first time inside the notice is skipped; the course starts at the next", () => {
    const entry = { id: "s1", repeat: "weekly" as const, ends_on: "2026-12-01", sessions: [time(10), time(17)] }
    const slots = courseSlots({ ...rules, min_notice_minutes: 7 * 60 }, [entry])
    expect(slots.map((s) => [s.starts_at, s.sessions])).toEqual([["2026-11-17T18:00:00.000Z", 1]])
    expect(courseSessionsToCome({ ...rules, min_notice_minutes: 6 * 60 }, entry.sessions)).toHaveLength(2)
  })

  it("leaves out entries that never end, are full, have nothing to come, or start outside the window or advance", () => {
    const open = { id: "open", repeat: "weekly" as const, ends_on: null, sessions: [time(17)] }
    const full = { id: "full", repeat: "none" as const, ends_on: null, sessions: [time(17), time(18, { booked: 8 })] }
    const past = { id: "past", repeat: "none" as const, ends_on: null, sessions: [time(3)] }
    const later = { id: "later", repeat: "daily" as const, ends_on: "2026-11-27", sessions: [time(25)] }
    const one = { id: "one", repeat: "none" as const, ends_on: null, sessions: [time(20)] }
    expect(courseSlots(rules, [open, full, past, later, one]).map((s) => s.series_id)).toEqual(["one", "later"])
    expect(courseSlots({ ...rules, to: "2026-11-24" }, [later, one]).map((s) => s.series_id)).toEqual(["one"])
    expect(courseSlots({ ...rules, max_advance_days: 12 }, [later, one]).map((s) => s.series_id)).toEqual(["one"])
    expect(courseSlots({ ...rules, active: false }, [one])).toEqual([])
  })
})
