import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { peakLoads, peakLoadsUntil } from "../../../engine/availability/load.ts"
import { rentalSlots } from "../../../engine/availability/rentalSlots.ts"
import { DEFAULT_HOURS } from "../../../engine/time/hours.ts"
import { periodEnd } from "../../../engine/time/period.ts"

const AMS = "Europe/Amsterdam"
const HOUR = 3_600_000
const end = (iso: string, minutes: number, zone = AMS) =>
  periodEnd(new Date(iso), minutes, zone).toISOString().slice(0, 16)

describe("periodEnd: whole days on the calendar, the rest in minutes", () => {
  it("a day from 09:00 ends at 09:00 the next day: 23 hours over spring forward, 25 over fall back", () => {
    expect(end("2040-03-24T08:00:00Z", 1440)).toBe("2040-03-25T07:00") // 09:00 CET -> 09:00 CEST
    expect(end("2040-10-27T07:00:00Z", 1440)).toBe("2040-10-28T08:00") // 09:00 CEST -> 09:00 CET
    expect(end("2040-06-01T07:00:00Z", 1440)).toBe("2040-06-02T07:00")
  })

  it("a week of days keeps the local time; days plus minutes add the minutes after", () => {
    expect(end("2040-03-20T08:00:00Z", 7 * 1440)).toBe("2040-03-27T07:00")
    expect(end("2040-10-27T07:00:00Z", 1440 + 90)).toBe("2040-10-28T09:30")
  })

  it("periods shorter than a day last their minutes, across a change too", () => {
    expect(end("2040-03-25T00:30:00Z", 120)).toBe("2040-03-25T02:30")
    expect(end("2040-10-28T00:30:00Z", 60)).toBe("2040-10-28T01:30")
  })

  it("Lord Howe's half-hour change: a day is 23.5 or 24.5 hours", () => {
    const spring = periodEnd(new Date("2040-10-05T23:00:00Z"), 1440, "Australia/Lord_Howe") // Sat 09:30 +10:30
    expect((spring.getTime() - Date.parse("2040-10-05T23:00:00Z")) / HOUR).toBe(23.5)
    const fall = periodEnd(new Date("2040-03-30T22:00:00Z"), 1440, "Australia/Lord_Howe") // Sat 09:00 +11
    expect((fall.getTime() - Date.parse("2040-03-30T22:00:00Z")) / HOUR).toBe(24.5)
  })
})

describe("rentalSlots on the days the clocks change", () => {
  const base = {
    zone: AMS,
    min_notice_minutes: 0,
    max_advance_days: 60,
    active: true,
    hours: DEFAULT_HOURS,
    duration_minutes: 1440,
    slot_interval_minutes: null,
    buffer_minutes: 0,
    capacity: 1,
    busy: []
  }
  it("a day rental picked up the Saturday before the clocks go back returns Sunday 09:00 (it used to be refused: 08:00 is closed)", () => {
    const slots = rentalSlots({ ...base, now: new Date("2040-10-01T00:00:00Z"), from: "2040-10-27", to: "2040-10-27" })
    expect(slots.map((s) => [s.starts_at, s.ends_at])).toEqual([
      ["2040-10-27T07:00:00.000Z", "2040-10-28T08:00:00.000Z"]
    ])
  })

  it("the Saturday before spring forward returns Sunday 09:00, not 10:00", () => {
    const slots = rentalSlots({ ...base, now: new Date("2040-03-01T00:00:00Z"), from: "2040-03-24", to: "2040-03-24" })
    expect(slots.map((s) => [s.starts_at, s.ends_at])).toEqual([
      ["2040-03-24T08:00:00.000Z", "2040-03-25T07:00:00.000Z"]
    ])
  })
})

describe("peakLoadsUntil", () => {
  it("equals peakLoads when every time is as long", () => {
    const busy = fc.array(
      fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 5 })),
      { maxLength: 40 }
    )
    fc.assert(
      fc.property(
        busy,
        fc.uniqueArray(fc.integer({ min: 0, max: 1200 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 0, max: 20 }),
        (rows, starts, length, pad) => {
          const b = rows.map(([s, l, q]) => ({ starts_at: new Date(s), ends_at: new Date(s + l), quantity: q }))
          const sorted = [...starts].sort((x, y) => x - y)
          expect(
            peakLoadsUntil(
              b,
              pad,
              sorted,
              sorted.map((s) => s + length)
            )
          ).toEqual(peakLoads(b, pad, sorted, length))
        }
      ),
      { numRuns: 500 }
    )
  })

  it("reads each time's own end", () => {
    const b = (s: number, e: number, quantity: number) => ({ starts_at: new Date(s), ends_at: new Date(e), quantity })
    expect(peakLoadsUntil([b(10, 20, 1), b(30, 40, 5)], 0, [0, 0, 25], [10, 31, 29])).toEqual([0, 5, 0])
  })
})
