import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newOrg, type Org, ok, sessionsOf, startPinned, type TestApp, wall } from "./helpers.ts"

let app: TestApp
let org: Org
beforeAll(async () => {
  app = await startPinned()
  org = await newOrg(app, "Europe/Amsterdam")
})
afterAll(() => app.close())

// Expected dates worked out with Python's calendar module, not with engine/time.
const CASES: ReadonlyArray<[string, string, string, string, ReadonlyArray<string>]> = [
  [
    "daily",
    "daily",
    "2040-01-05",
    "2040-01-09",
    ["2040-01-05", "2040-01-06", "2040-01-07", "2040-01-08", "2040-01-09"]
  ],
  [
    "weekly on the first date's weekday",
    "weekly",
    "2040-01-05",
    "2040-02-02",
    ["2040-01-05", "2040-01-12", "2040-01-19", "2040-01-26", "2040-02-02"]
  ],
  [
    "weekdays, Monday to Friday",
    "weekdays",
    "2040-01-06",
    "2040-01-15",
    ["2040-01-06", "2040-01-09", "2040-01-10", "2040-01-11", "2040-01-12", "2040-01-13"]
  ],
  [
    "monthly on the first Monday",
    "monthly",
    "2040-01-02",
    "2040-04-30",
    ["2040-01-02", "2040-02-06", "2040-03-05", "2040-04-02"]
  ],
  [
    "monthly on the second Tuesday",
    "monthly",
    "2040-01-10",
    "2040-06-30",
    ["2040-01-10", "2040-02-14", "2040-03-13", "2040-04-10", "2040-05-08", "2040-06-12"]
  ],
  [
    "monthly on the fourth Sunday (22nd: not in the last week)",
    "monthly",
    "2040-01-22",
    "2040-06-30",
    ["2040-01-22", "2040-02-26", "2040-03-25", "2040-04-22", "2040-05-27", "2040-06-24"]
  ],
  [
    "monthly on the fourth Tuesday (24th: the 31st is a fifth Tuesday)",
    "monthly",
    "2040-01-24",
    "2040-06-30",
    ["2040-01-24", "2040-02-28", "2040-03-27", "2040-04-24", "2040-05-22", "2040-06-26"]
  ],
  [
    "monthly on the last Wednesday (25th of a 31-day month is in its last week)",
    "monthly",
    "2040-01-25",
    "2040-06-30",
    ["2040-01-25", "2040-02-29", "2040-03-28", "2040-04-25", "2040-05-30", "2040-06-27"]
  ],
  [
    "monthly on the last Tuesday",
    "monthly",
    "2040-01-31",
    "2040-06-30",
    ["2040-01-31", "2040-02-28", "2040-03-27", "2040-04-24", "2040-05-29", "2040-06-26"]
  ],
  [
    "monthly on the last Sunday (a fifth Sunday)",
    "monthly",
    "2040-01-29",
    "2040-06-30",
    ["2040-01-29", "2040-02-26", "2040-03-25", "2040-04-29", "2040-05-27", "2040-06-24"]
  ]
]

describe("repeats", () => {
  it.each(CASES)("%s", async (_, repeat, starts_on, ends_on, dates) => {
    const o = await org.klass()
    ok(
      await org.series.create({
        offering_id: o.id,
        starts_on,
        start_time: "18:00",
        end_time: "19:00",
        repeat,
        ends_on
      }),
      201
    )
    const sessions = await sessionsOf(org, o.id)
    expect(sessions.map((s) => s.occurs_on)).toEqual(dates)
    // Each time is at 18:00 on its own local date, across the March change to summer time too.
    expect(sessions.map((s) => wall(s.starts_at, org.timezone))).toEqual(dates.map((date) => ({ date, time: "18:00" })))
  })

  it("repeats an all-day entry over several days on the following dates", async () => {
    const o = await org.klass()
    ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2040-01-06",
        span_days: 1,
        repeat: "weekly",
        ends_on: "2040-01-20"
      }),
      201
    )
    const sessions = await sessionsOf(org, o.id)
    expect(sessions.map((s) => [wall(s.starts_at, org.timezone), wall(s.ends_at, org.timezone)])).toEqual([
      [
        { date: "2040-01-06", time: "00:00" },
        { date: "2040-01-08", time: "00:00" }
      ],
      [
        { date: "2040-01-13", time: "00:00" },
        { date: "2040-01-15", time: "00:00" }
      ],
      [
        { date: "2040-01-20", time: "00:00" },
        { date: "2040-01-22", time: "00:00" }
      ]
    ])
  })

  it("makes a monthly entry without an end about a year ahead", async () => {
    const o = await org.klass()
    const entry = ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2040-01-31",
        start_time: "18:00",
        end_time: "19:00",
        repeat: "monthly"
      }),
      201
    )
    expect(entry.made_until).toBe("2041-01-01")
    const dates = (await sessionsOf(org, o.id)).map((s) => s.occurs_on)
    expect(dates).toHaveLength(12)
    expect(dates.slice(-3)).toEqual(["2040-10-30", "2040-11-27", "2040-12-25"])
  })
})
