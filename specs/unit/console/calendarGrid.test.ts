import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { AgendaItem } from "../../../console/agenda.ts"
import { bands, blockLabel, hourRange, minuteOf, place, snap } from "../../../console/calendarGrid.ts"

const item = (key: string, starts_at: string, ends_at: string): AgendaItem => ({
  key,
  starts_at,
  ends_at,
  offering: "Yoga",
  kind: "class",
  offeringId: "o1",
  session: { id: key, capacity: 8, taken: 5, left: 3, holds: 1, waiting: 2 }
})

const closure = (over: Partial<Parameters<typeof bands>[0][number]> = {}) => ({
  id: "c1",
  offering_id: null,
  starts_on: "2026-12-24",
  ends_on: "2026-12-26",
  open_hours: [],
  note: "Closed for the holidays",
  ...over
})

describe("the calendar grid's geometry", () => {
  it("shows from the earliest opening to the latest closing of the days shown, 7 to 22 without hours, widened to every time", () => {
    const days = ["2026-12-01", "2026-12-02"] // Tuesday, Wednesday
    const hours = [
      { weekday: 2, start_time: "09:30:00", end_time: "17:00:00" },
      { weekday: 3, start_time: "10:00:00", end_time: "20:15:00" },
      { weekday: 5, start_time: "06:00:00", end_time: "23:00:00" }
    ]
    expect(hourRange(days, hours, [], "Europe/Amsterdam")).toEqual({ from: 9, to: 21 })
    expect(hourRange(days, [], [], "Europe/Amsterdam")).toEqual({ from: 7, to: 22 })
    // 06:00 to 23:30 Amsterdam (UTC+1 in December).
    const early = item("s", "2026-12-01T05:00:00Z", "2026-12-01T06:00:00Z")
    const late = item("t", "2026-12-01T22:00:00Z", "2026-12-01T22:30:00Z")
    expect(hourRange(days, hours, [early, late], "Europe/Amsterdam")).toEqual({ from: 6, to: 24 })
    // Past midnight, a time runs to the end of its first day.
    expect(
      hourRange(days, [], [item("n", "2026-12-01T21:00:00Z", "2026-12-02T01:00:00Z")], "Europe/Amsterdam").to
    ).toBe(24)
  })

  it("places a time by its local start and length, and times at once side by side", () => {
    const zone = "America/New_York"
    const a = item("a", "2026-12-01T23:00:00Z", "2026-12-02T00:00:00Z") // 18:00–19:00
    const b = item("b", "2026-12-01T23:30:00Z", "2026-12-02T00:30:00Z") // 18:30–19:30
    const c = item("c", "2026-12-02T01:00:00Z", "2026-12-02T01:45:00Z") // 20:00–20:45
    const placed = place([c, b, a], zone, 7)
    const by = Object.fromEntries(placed.map((p) => [p.item.key, p]))
    expect(by.a).toMatchObject({ top: 11 * 60, length: 60, lane: 0, lanes: 2 })
    expect(by.b).toMatchObject({ top: 11 * 60 + 30, length: 60, lane: 1, lanes: 2 })
    expect(by.c).toMatchObject({ top: 13 * 60, length: 45, lane: 0, lanes: 1 })
  })

  it("never puts two overlapping times in one lane", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 95 }), fc.integer({ min: 1, max: 16 })), { maxLength: 12 }),
        (spans) => {
          const items = spans.map(([q, n], i) =>
            item(
              `i${i}`,
              new Date(Date.UTC(2026, 0, 5) + q * 900_000).toISOString(),
              new Date(Date.UTC(2026, 0, 5) + Math.min(96, q + n) * 900_000).toISOString()
            )
          )
          const placed = place(items, "UTC", 0)
          for (const p of placed)
            for (const o of placed)
              if (p !== o && p.lane === o.lane)
                expect(p.top + p.length <= o.top || o.top + o.length <= p.top).toBe(true)
          for (const p of placed) expect(p.lane).toBeLessThan(p.lanes)
        }
      )
    )
  })

  it("greys a closed date whole, or outside the hours it is open, with its note", () => {
    const range = { from: 7, to: 22 }
    const name = () => "Pilates"
    expect(bands([closure()], "2026-12-25", range, name)).toEqual([
      { key: "c1:420", top: 0, length: 15 * 60, text: "Closed: Closed for the holidays" }
    ])
    expect(bands([closure()], "2026-12-27", range, name)).toEqual([])
    const open = closure({
      offering_id: "p",
      open_hours: [{ start_time: "10:00:00", end_time: "14:00:00" }],
      note: null
    })
    expect(bands([open], "2026-12-24", range, name).map((b) => [b.top, b.length, b.text])).toEqual([
      [0, 180, "Pilates closed outside 10:00–14:00"],
      [420, 480, "Pilates closed outside 10:00–14:00"]
    ])
  })

  it("names a block in full and snaps to quarter hours", () => {
    const a = item("a", "2026-12-01T17:00:00Z", "2026-12-01T18:00:00Z")
    expect(blockLabel(a, "Europe/Amsterdam")).toBe("Yoga, Tue 1 Dec 18:00–19:00, 5 taken, 3 left, 1 held, 2 waiting")
    expect(minuteOf(a.starts_at, "Europe/Amsterdam")).toBe(18 * 60)
    expect([snap(7), snap(8), snap(22), snap(23)]).toEqual([0, 15, 15, 30])
  })
})
