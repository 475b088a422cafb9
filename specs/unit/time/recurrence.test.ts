import { describe, expect, it } from "vitest"
import { describeMonthly, occurrences } from "../../../engine/time/recurrence.ts"

describe("monthly", () => {
  it("a last Tuesday stays the last Tuesday", () => {
    expect(describeMonthly("2026-03-31")).toEqual({ nth: -1, weekday: 2 })
    expect(
      occurrences({ starts_on: "2026-03-31", repeat: "monthly", ends_on: null }, "2026-01-01", "2026-08-31")
    ).toEqual(["2026-03-31", "2026-04-28", "2026-05-26", "2026-06-30", "2026-07-28", "2026-08-25"])
  })

  it("a date in the month's last 7 days is 'last', even when it is also the 4th", () => {
    expect(describeMonthly("2026-03-24")).toEqual({ nth: 4, weekday: 2 })
    expect(describeMonthly("2026-02-22")).toEqual({ nth: -1, weekday: 0 })
    expect(describeMonthly("2026-04-28")).toEqual({ nth: -1, weekday: 2 })
  })

  it("a 5th weekday maps to the last one", () => {
    expect(describeMonthly("2026-03-29")).toEqual({ nth: -1, weekday: 0 })
    expect(
      occurrences({ starts_on: "2026-03-29", repeat: "monthly", ends_on: null }, "2026-03-01", "2026-06-30")
    ).toEqual(["2026-03-29", "2026-04-26", "2026-05-31", "2026-06-28"])
  })

  it("the nth weekday keeps its position", () => {
    expect(describeMonthly("2026-11-10")).toEqual({ nth: 2, weekday: 2 })
    expect(
      occurrences({ starts_on: "2026-11-10", repeat: "monthly", ends_on: null }, "2026-01-01", "2027-02-28")
    ).toEqual(["2026-11-10", "2026-12-08", "2027-01-12", "2027-02-09"])
  })
})

describe("yearly", () => {
  it("29 February falls on 28 February in other years", () => {
    expect(
      occurrences({ starts_on: "2024-02-29", repeat: "yearly", ends_on: null }, "2024-01-01", "2029-12-31")
    ).toEqual(["2024-02-29", "2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29", "2029-02-28"])
  })

  it("keeps month and day", () => {
    expect(
      occurrences({ starts_on: "2026-12-31", repeat: "yearly", ends_on: "2028-12-31" }, "2020-01-01", "2040-01-01")
    ).toEqual(["2026-12-31", "2027-12-31", "2028-12-31"])
  })
})

describe("daily, weekly, weekdays, none", () => {
  it("weekdays skip weekends, starting from starts_on", () => {
    expect(
      occurrences({ starts_on: "2026-11-21", repeat: "weekdays", ends_on: "2026-12-01" }, "2026-01-01", "2026-12-31")
    ).toEqual(["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-30", "2026-12-01"])
  })

  it("weekly keeps the first date's weekday and ends_on is inclusive", () => {
    expect(
      occurrences({ starts_on: "2026-11-19", repeat: "weekly", ends_on: "2026-12-10" }, "2026-11-27", "2026-12-31")
    ).toEqual(["2026-12-03", "2026-12-10"])
  })

  it("daily runs through ends_on, and the window bounds are inclusive", () => {
    expect(
      occurrences({ starts_on: "2026-02-26", repeat: "daily", ends_on: "2026-03-02" }, "2026-01-01", "2026-12-31")
    ).toEqual(["2026-02-26", "2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"])
    expect(
      occurrences({ starts_on: "2026-02-26", repeat: "daily", ends_on: null }, "2026-02-27", "2026-02-28")
    ).toEqual(["2026-02-27", "2026-02-28"])
  })

  it("none occurs once, and nothing comes before starts_on or after ends_on", () => {
    expect(occurrences({ starts_on: "2026-05-05", repeat: "none", ends_on: null }, "2026-05-05", "2026-05-05")).toEqual(
      ["2026-05-05"]
    )
    expect(occurrences({ starts_on: "2026-05-05", repeat: "none", ends_on: null }, "2026-05-06", "2026-06-01")).toEqual(
      []
    )
    expect(
      occurrences({ starts_on: "2026-05-05", repeat: "daily", ends_on: null }, "2026-01-01", "2026-05-04")
    ).toEqual([])
    expect(
      occurrences({ starts_on: "2026-05-05", repeat: "weekly", ends_on: "2026-05-04" }, "2026-01-01", "2026-12-31")
    ).toEqual([])
  })
})
