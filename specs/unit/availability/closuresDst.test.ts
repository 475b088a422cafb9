import { describe, expect, it } from "vitest"
import { type ClosureSpan, hoursSlots, openWithClosures } from "../../../engine/availability/index.ts"
import { DEFAULT_HOURS } from "../../../engine/time/hours.ts"
import { addDays, toLocal } from "../../../engine/time/local.ts"

const ALL_DAY = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_time: "00:00:00", end_time: "24:00:00" }))
const closedOn = (date: string, open_hours: ClosureSpan["open_hours"] = []): ClosureSpan => ({
  id: "c",
  starts_on: date,
  ends_on: date,
  open_hours,
  note: "Closed for the day"
})

const slotsAround = (zone: string, date: string, closures: ReadonlyArray<ClosureSpan>) =>
  hoursSlots({
    now: new Date("2026-01-01T00:00:00Z"),
    zone,
    from: addDays(date, -1),
    to: addDays(date, 1),
    min_notice_minutes: 0,
    max_advance_days: 400,
    active: true,
    hours: ALL_DAY,
    duration_minutes: 60,
    slot_interval_minutes: null,
    buffer_minutes: 0,
    capacity: 1,
    busy: [],
    closures
  })

const localStarts = (zone: string, slots: ReadonlyArray<{ starts_at: string }>) =>
  slots.map((s) => {
    const l = toLocal(new Date(s.starts_at), zone)
    return `${l.date} ${l.time.slice(0, 5)}`
  })

// The days the clocks change in 2026: Amsterdam 29 March (23 hours) and 25 October (25 hours); New York 8 March and
// 1 November.
const TRANSITIONS = [
  { zone: "Europe/Amsterdam", date: "2026-03-29", hours: 23 },
  { zone: "Europe/Amsterdam", date: "2026-10-25", hours: 25 },
  { zone: "America/New_York", date: "2026-03-08", hours: 23 },
  { zone: "America/New_York", date: "2026-11-01", hours: 25 }
]

describe("closures on the days the clocks change", () => {
  for (const t of TRANSITIONS) {
    it(`${t.zone} ${t.date}: closing the local date takes exactly its ${t.hours} hourly times, the days around keep theirs`, () => {
      const open = localStarts(t.zone, slotsAround(t.zone, t.date, []))
      const closed = localStarts(t.zone, slotsAround(t.zone, t.date, [closedOn(t.date)]))
      expect(open.filter((s) => s.startsWith(t.date)).length).toBe(t.hours)
      expect(closed.filter((s) => s.startsWith(t.date))).toEqual([])
      expect(closed).toEqual(open.filter((s) => !s.startsWith(t.date)))
      expect(closed.filter((s) => s.startsWith(addDays(t.date, -1))).length).toBe(24)
      expect(closed.filter((s) => s.startsWith(addDays(t.date, 1))).length).toBe(24)
    })

    it(`${t.zone} ${t.date}: open other hours that day reads the wall clock`, () => {
      const closed = localStarts(
        t.zone,
        slotsAround(t.zone, t.date, [closedOn(t.date, [{ start_time: "01:00:00", end_time: "04:00:00" }])])
      ).filter((s) => s.startsWith(t.date))
      // 01:00 to 04:00 on the wall: an hour fewer when the clocks spring forward in it, one more (01:00 twice in New
      // York, where the clocks go back at 02:00) when they fall back.
      const expected =
        t.zone === "America/New_York"
          ? t.hours === 23
            ? ["01:00", "03:00"]
            : ["01:00", "01:00", "02:00", "03:00"]
          : t.hours === 23
            ? ["01:00", "03:00"]
            : ["01:00", "02:00", "02:00", "03:00"]
      expect(closed.map((s) => s.slice(11))).toEqual(expected)
    })
  }

  it("the same local date closed in two zones is two different spans of instants", () => {
    const a = openWithClosures(DEFAULT_HOURS, "Europe/Amsterdam", "2026-12-24", "2026-12-26", [closedOn("2026-12-25")])
    const b = openWithClosures(DEFAULT_HOURS, "America/New_York", "2026-12-24", "2026-12-26", [closedOn("2026-12-25")])
    expect(a.map((w) => w.start.toISOString())).toEqual(["2026-12-24T08:00:00.000Z", "2026-12-26T08:00:00.000Z"])
    expect(b.map((w) => w.start.toISOString())).toEqual(["2026-12-24T14:00:00.000Z", "2026-12-26T14:00:00.000Z"])
  })
})
