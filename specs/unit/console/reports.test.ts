import { describe, expect, it } from "vitest"
import { dateTime, day, localDate, monthOf } from "../../../console/format.ts"
import {
  occupancyByHour,
  occupancyByOffering,
  periods,
  presetRange,
  revenueSeries,
  revenueTotals,
  share
} from "../../../console/reports/figures.ts"

const row = (period: string, charged: number, refunded = 0) => ({
  period,
  bookings: 1,
  charged_cents: charged,
  refunded_cents: refunded,
  net_cents: charged - refunded,
  gift_card_cents: 0,
  discount_cents: 0,
  deposits_due_cents: 0
})

describe("the console's one date style", () => {
  it("names the weekday, then day, month and year, in the org's zone", () => {
    expect(dateTime("2026-12-03T17:00:00Z", "Europe/Amsterdam")).toBe("Thu 3 Dec 2026, 18:00")
    expect(dateTime("2026-12-03T17:00:00Z", "America/New_York")).toBe("Thu 3 Dec 2026, 12:00")
    // Late in the evening in New York is the next day in Amsterdam.
    expect(day("2026-12-04T03:30:00Z", "America/New_York")).toBe("Thu 3 Dec 2026")
    expect(day("2026-12-04T03:30:00Z", "Europe/Amsterdam")).toBe("Fri 4 Dec 2026")
    expect(localDate("2040-01-02")).toBe("Mon 2 Jan 2040")
    expect(monthOf("2040-01-01")).toBe("January 2040")
  })
})

describe("the reports' figures", () => {
  it("presets are local dates from today: this month, the last 30 days, this year", () => {
    expect(presetRange("month", "2040-02-10")).toEqual({ from: "2040-02-01", to: "2040-02-29" })
    expect(presetRange("month", "2040-12-31")).toEqual({ from: "2040-12-01", to: "2040-12-31" })
    expect(presetRange("30days", "2040-03-01")).toEqual({ from: "2040-02-01", to: "2040-03-01" })
    expect(presetRange("year", "2040-06-15")).toEqual({ from: "2040-01-01", to: "2040-12-31" })
  })

  it("periods run from the first day, ISO week (Monday) or month of the range, the quiet ones as zeros", () => {
    expect(periods("2040-01-30", "2040-02-02", "day")).toEqual(["2040-01-30", "2040-01-31", "2040-02-01", "2040-02-02"])
    expect(periods("2040-01-04", "2040-01-20", "week")).toEqual(["2040-01-02", "2040-01-09", "2040-01-16"])
    expect(periods("2040-11-15", "2041-01-01", "month")).toEqual(["2040-11-01", "2040-12-01", "2041-01-01"])
    const series = revenueSeries(
      [row("2040-01-02", 500), row("2040-01-04", 700, 200)],
      "2040-01-01",
      "2040-01-04",
      "day"
    )
    expect(series.map((p) => [p.period, p.net_cents])).toEqual([
      ["2040-01-01", 0],
      ["2040-01-02", 500],
      ["2040-01-03", 0],
      ["2040-01-04", 500]
    ])
    expect(revenueTotals(series)).toMatchObject({
      bookings: 2,
      charged_cents: 1200,
      refunded_cents: 200,
      net_cents: 1000
    })
  })

  it("occupancy sums per offering and per hour of day; the share of places sold", () => {
    const rows = [
      { offering_id: "a", offering_name: "Pilates", hour: 18, times: 2, places_offered: 20, places_sold: 5 },
      { offering_id: "a", offering_name: "Pilates", hour: 7, times: 1, places_offered: 10, places_sold: 10 },
      { offering_id: "b", offering_name: "Yoga", hour: 18, times: 1, places_offered: 8, places_sold: 1 }
    ]
    expect(occupancyByOffering(rows).map((o) => [o.label, o.times, o.offered, o.sold])).toEqual([
      ["Pilates", 3, 30, 15],
      ["Yoga", 1, 8, 1]
    ])
    expect(occupancyByHour(rows).map((o) => [o.label, o.offered, o.sold])).toEqual([
      ["07:00", 10, 10],
      ["18:00", 28, 6]
    ])
    expect([share(15, 30), share(1, 3), share(0, 0)]).toEqual(["50%", "33%", "–"])
  })
})
