import { describe, expect, it } from "vitest"
import { type EntryTimes, timeOf, weeklyTimes } from "../../../engine/services/calendar/materialize.ts"

const AMS = "Europe/Amsterdam"
const entry = (start_time: string | null, end_time: string | null, span_days = 0): EntryTimes => ({
  starts_on: "2027-01-01",
  start_time,
  end_time,
  span_days,
  repeat: "daily",
  ends_on: null
})
const iso = (t: { starts_at: Date; ends_at: Date }) => [
  t.starts_at.toISOString().slice(0, 16),
  t.ends_at.toISOString().slice(0, 16)
]
const HOUR = 3_600_000

describe("timeOf: a time within a day keeps its local length across a change", () => {
  it("02:30-03:30 on the spring-forward day starts when the gap ends, at 03:30, and lasts an hour", () => {
    const t = timeOf(entry("02:30:00", "03:30:00"), "2027-03-28", AMS)
    expect(iso(t)).toEqual(["2027-03-28T01:30", "2027-03-28T02:30"]) // 03:30-04:30 CEST
  })

  it("02:30-03:30 on the fall-back day takes the first 02:30 and lasts an hour, not two", () => {
    const t = timeOf(entry("02:30:00", "03:30:00"), "2027-10-31", AMS)
    expect(iso(t)).toEqual(["2027-10-31T00:30", "2027-10-31T01:30"]) // 02:30 CEST to 02:30 CET
  })

  it("a change inside a time does not change its length: 01:00-04:00 lasts 3 hours on both days", () => {
    expect(iso(timeOf(entry("01:00:00", "04:00:00"), "2027-03-28", AMS))).toEqual([
      "2027-03-28T00:00",
      "2027-03-28T03:00"
    ])
    expect(iso(timeOf(entry("01:00:00", "04:00:00"), "2027-10-31", AMS))).toEqual([
      "2027-10-30T23:00",
      "2027-10-31T02:00"
    ])
  })

  it("a timed 00:00-24:00 lasts 24 hours even on a 23-hour day (an all-day entry is the calendar day)", () => {
    const t = timeOf(entry("00:00:00", "24:00:00"), "2027-03-28", AMS)
    expect(iso(t)).toEqual(["2027-03-27T23:00", "2027-03-28T23:00"])
  })
})

describe("timeOf: times over several days end at their local end time", () => {
  it("an overnight time (span_days 1) 22:00-06:00 is 7 hours on the short night and 9 on the long one", () => {
    expect(iso(timeOf(entry("22:00:00", "06:00:00", 1), "2027-03-27", AMS))).toEqual([
      "2027-03-27T21:00",
      "2027-03-28T04:00"
    ])
    expect(iso(timeOf(entry("22:00:00", "06:00:00", 1), "2027-10-30", AMS))).toEqual([
      "2027-10-30T20:00",
      "2027-10-31T05:00"
    ])
  })

  it("an all-day time runs midnight to midnight: 23 and 25 hours on the change days", () => {
    expect(iso(timeOf(entry(null, null), "2027-03-28", AMS))).toEqual(["2027-03-27T23:00", "2027-03-28T22:00"])
    expect(iso(timeOf(entry(null, null), "2027-10-31", AMS))).toEqual(["2027-10-30T22:00", "2027-10-31T23:00"])
    expect(iso(timeOf(entry(null, null, 2), "2027-03-27", AMS))).toEqual(["2027-03-26T23:00", "2027-03-29T22:00"])
  })

  it("midnight in a gap (America/Santiago, 5 Sep 2027): the day starts when the clock jumps to 01:00", () => {
    expect(iso(timeOf(entry(null, null), "2027-09-05", "America/Santiago"))).toEqual([
      "2027-09-05T04:00",
      "2027-09-06T03:00"
    ])
  })

  it("a skipped day (Pacific/Apia, 30 Dec 2011) still gets a time of its local length, never an empty one", () => {
    const t = timeOf(entry(null, null), "2011-12-30", "Pacific/Apia")
    expect(t.ends_at.getTime() - t.starts_at.getTime()).toBe(24 * HOUR)
  })
})

describe("weeklyTimes (sessions.create repeat_weeks)", () => {
  it("repeats at the same local time across spring forward, each as long as the first", () => {
    const first = new Date("2027-03-21T01:30:00Z") // 02:30 CET
    const times = weeklyTimes(first, HOUR, 3, AMS)
    expect(times.map(iso)).toEqual([
      ["2027-03-21T01:30", "2027-03-21T02:30"],
      ["2027-03-28T01:30", "2027-03-28T02:30"], // 02:30 does not exist: 03:30 CEST
      ["2027-04-04T00:30", "2027-04-04T01:30"] // 02:30 CEST
    ])
    expect(times.map((t) => t.occurs_on)).toEqual(["2027-03-21", "2027-03-28", "2027-04-04"])
  })

  it("repeats at the same local time across fall back, taking the earlier 02:30", () => {
    const times = weeklyTimes(new Date("2027-10-24T00:30:00Z"), 90 * 60_000, 3, AMS)
    expect(times.map(iso)).toEqual([
      ["2027-10-24T00:30", "2027-10-24T02:00"],
      ["2027-10-31T00:30", "2027-10-31T02:00"],
      ["2027-11-07T01:30", "2027-11-07T03:00"]
    ])
  })
})
