import { describe, expect, it } from "vitest"
import { DEFAULT_HOURS, openIntervals } from "../../../engine/time/hours.ts"

const iso = (xs: ReadonlyArray<{ readonly start: Date; readonly end: Date }>) =>
  xs.map((x) => [x.start.toISOString(), x.end.toISOString()])

describe("openIntervals", () => {
  it("default hours are 09:00-17:00 every day of the week", () => {
    expect(DEFAULT_HOURS.map((h) => h.weekday)).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect(iso(openIntervals(DEFAULT_HOURS, "Europe/Amsterdam", "2026-03-28", "2026-03-29"))).toEqual([
      ["2026-03-28T08:00:00.000Z", "2026-03-28T16:00:00.000Z"],
      ["2026-03-29T07:00:00.000Z", "2026-03-29T15:00:00.000Z"]
    ])
  })

  it("merges overlapping and adjacent windows, across midnight with 24:00", () => {
    const hours = [
      { weekday: 1, start_time: "18:00:00", end_time: "24:00:00" },
      { weekday: 2, start_time: "00:00:00", end_time: "02:00:00" },
      { weekday: 2, start_time: "09:00:00", end_time: "12:00:00" },
      { weekday: 2, start_time: "11:00:00", end_time: "13:00:00" },
      { weekday: 2, start_time: "13:00:00", end_time: "14:00:00" }
    ]
    expect(iso(openIntervals(hours, "UTC", "2026-11-23", "2026-11-24"))).toEqual([
      ["2026-11-23T18:00:00.000Z", "2026-11-24T02:00:00.000Z"],
      ["2026-11-24T09:00:00.000Z", "2026-11-24T14:00:00.000Z"]
    ])
  })

  it("a window on a DST day keeps its wall-clock ends", () => {
    const hours = [{ weekday: 0, start_time: "01:00:00", end_time: "04:00:00" }]
    expect(iso(openIntervals(hours, "Europe/Amsterdam", "2026-03-29", "2026-03-29"))).toEqual([
      ["2026-03-29T00:00:00.000Z", "2026-03-29T02:00:00.000Z"]
    ])
    expect(iso(openIntervals(hours, "Europe/Amsterdam", "2026-10-25", "2026-10-25"))).toEqual([
      ["2026-10-24T23:00:00.000Z", "2026-10-25T03:00:00.000Z"]
    ])
  })

  it("a window wholly inside a gap is dropped; an empty or reversed window is ignored", () => {
    const hours = [
      { weekday: 0, start_time: "02:00:00", end_time: "03:00:00" },
      { weekday: 0, start_time: "10:00:00", end_time: "10:00:00" },
      { weekday: 0, start_time: "12:00:00", end_time: "11:00:00" }
    ]
    expect(openIntervals(hours, "Europe/Amsterdam", "2026-03-29", "2026-03-29")).toEqual([])
  })
})
