import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  addDays,
  amount,
  browserName,
  dateIn,
  entryEnd,
  mondayOf,
  money,
  parseMoney,
  time,
  zonedToUtc
} from "../../../console/format.ts"
import { match } from "../../../console/router.ts"
import { unknownPlaceholders } from "../../../console/templates.ts"
import { toInstant, toLocal } from "../../../engine/time/local.ts"

const ZONES = ["Europe/Amsterdam", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "UTC", "Pacific/Chatham"]

describe("the console's times, in the org's zone", () => {
  it("a wall-clock time becomes the instant the engine computes, across both DST changes of two zones", () => {
    // Amsterdam: 2026-03-29 02:30 does not exist (moves forward by the gap), 2026-10-25 02:30 happens twice (earlier).
    expect(zonedToUtc("2026-03-29", "02:30", "Europe/Amsterdam").toISOString()).toBe("2026-03-29T01:30:00.000Z")
    expect(zonedToUtc("2026-10-25", "02:30", "Europe/Amsterdam").toISOString()).toBe("2026-10-25T00:30:00.000Z")
    // New York: 2026-03-08 02:30 is in the gap, 2026-11-01 01:30 is ambiguous.
    expect(zonedToUtc("2026-03-08", "02:30", "America/New_York").toISOString()).toBe("2026-03-08T07:30:00.000Z")
    expect(zonedToUtc("2026-11-01", "01:30", "America/New_York").toISOString()).toBe("2026-11-01T05:30:00.000Z")
    expect(zonedToUtc("2026-07-01", "18:00", "Europe/Amsterdam").toISOString()).toBe("2026-07-01T16:00:00.000Z")
  })

  it("agrees with the engine's conversion for any date, time and zone", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("2020-01-01"), max: new Date("2035-12-31"), noInvalidDate: true }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.constantFrom(...ZONES),
        (d, h, m, zone) => {
          const date = d.toISOString().slice(0, 10)
          const hhmm = `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`
          expect(zonedToUtc(date, hhmm, zone).toISOString()).toBe(toInstant(date, `${hhmm}:00`, zone).toISOString())
        }
      ),
      { numRuns: 500 }
    )
  })

  it("the calendar date of an instant is the engine's, and times show in the zone", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("2020-01-01"), max: new Date("2035-12-31"), noInvalidDate: true }),
        fc.constantFrom(...ZONES),
        (at, zone) => {
          expect(dateIn(at, zone)).toBe(toLocal(at, zone).date)
        }
      )
    )
    expect(time("2026-07-01T16:00:00Z", "Europe/Amsterdam")).toBe("18:00")
    expect(time("2026-07-01T16:00:00Z", "America/New_York")).toBe("12:00")
  })

  it("weeks start on Monday; days add across months and years", () => {
    expect(mondayOf("2026-11-27")).toBe("2026-11-23")
    expect(mondayOf("2026-11-23")).toBe("2026-11-23")
    expect(mondayOf("2026-11-29")).toBe("2026-11-23")
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01")
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29")
  })
})

describe("the console's money", () => {
  it("reads what a person types in the currency's minor units, and refuses what is not an amount", () => {
    expect(parseMoney("12.50", "EUR")).toBe(1250)
    expect(parseMoney(" 12,5 ", "EUR")).toBe(1250)
    expect(parseMoney("1200", "JPY")).toBe(1200)
    expect(parseMoney("1.234", "KWD")).toBe(1234)
    for (const bad of ["", "-1", "1e3", "12.50.1", "abc", "Infinity"]) expect(parseMoney(bad, "EUR")).toBeUndefined()
  })

  it("shows an amount to edit that reads back as the same amount, in any currency", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.constantFrom("EUR", "JPY", "KWD", "USD"),
        (cents, cur) => {
          expect(parseMoney(amount(cents, cur), cur)).toBe(cents)
        }
      )
    )
    expect(money(1250, "EUR")).toBe("€12.50")
  })
})

describe("the console's routes", () => {
  it("match paths below /dashboard with their named parts", () => {
    expect(match("/", "/dashboard")).toEqual({})
    expect(match("/", "/dashboard/")).toEqual({})
    expect(match("/bookings/:id", "/dashboard/bookings/abc")).toEqual({ id: "abc" })
    expect(match("/bookings/:id", "/dashboard/bookings")).toBeUndefined()
    expect(match("/bookings/new", "/dashboard/bookings/abc")).toBeUndefined()
    expect(match("/times/:id", "/dashboard/times/a%20b")).toEqual({ id: "a b" })
  })
})

describe("a repeating entry's end", () => {
  it("runs past midnight into the next day instead of stopping at 23:59", () => {
    expect(entryEnd("18:00", 60)).toEqual({ end_time: "19:00" })
    expect(entryEnd("23:30", 60)).toEqual({ end_time: "00:30", span_days: 1 })
    expect(entryEnd("22:00", 1440 * 2)).toEqual({ end_time: "22:00", span_days: 2 })
  })
})

describe("a session's browser", () => {
  it("is named by browser and system, not by its raw user agent", () => {
    expect(
      browserName(
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36"
      )
    ).toBe("Chrome on Linux")
    expect(
      browserName(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
      )
    ).toBe("Safari on iPhone or iPad")
    expect(browserName(null)).toBe("A browser")
  })
})

describe("a mail template's placeholders", () => {
  it("are warned when no mail fills them", () => {
    expect(unknownPlaceholders("Hi {{ refrence }}, see {{page_url}} and {{whn}} {{whn}}")).toEqual(["refrence", "whn"])
    expect(unknownPlaceholders("{{reference}} {{offering}} {{when}} {{page_url}} {{note}}")).toEqual([])
  })
})
