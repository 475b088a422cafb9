import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  addDays,
  daysBetween,
  endOfLocalDay,
  isValidLocalDate,
  isValidZone,
  monthIn,
  parseTimeInput,
  todayIn,
  toInstant,
  toLocal,
  weekdayOf
} from "../../../engine/time/local.ts"

const at = (date: string, time: string, zone: string) => toInstant(date, time, zone).toISOString()
const hoursLong = (date: string, zone: string) =>
  (endOfLocalDay(date, zone).getTime() - toInstant(date, "00:00:00", zone).getTime()) / 3_600_000

describe("toInstant across DST", () => {
  it("Europe/Amsterdam: 29 Mar 2026 02:00 -> 03:00, gap times move forward by the hour", () => {
    expect(at("2026-03-29", "01:59:00", "Europe/Amsterdam")).toBe("2026-03-29T00:59:00.000Z")
    expect(at("2026-03-29", "02:00:00", "Europe/Amsterdam")).toBe("2026-03-29T01:00:00.000Z")
    expect(at("2026-03-29", "02:30:00", "Europe/Amsterdam")).toBe("2026-03-29T01:30:00.000Z")
    expect(toLocal(toInstant("2026-03-29", "02:30:00", "Europe/Amsterdam"), "Europe/Amsterdam").time).toBe("03:30:00")
    expect(at("2026-03-29", "03:00:00", "Europe/Amsterdam")).toBe("2026-03-29T01:00:00.000Z")
    expect(hoursLong("2026-03-29", "Europe/Amsterdam")).toBe(23)
  })

  it("Europe/Amsterdam: 25 Oct 2026 03:00 -> 02:00, ambiguous times take the earlier instant", () => {
    expect(at("2026-10-25", "02:00:00", "Europe/Amsterdam")).toBe("2026-10-25T00:00:00.000Z")
    expect(at("2026-10-25", "02:30:00", "Europe/Amsterdam")).toBe("2026-10-25T00:30:00.000Z")
    expect(at("2026-10-25", "03:00:00", "Europe/Amsterdam")).toBe("2026-10-25T02:00:00.000Z")
    expect(toLocal(new Date("2026-10-25T01:30:00Z"), "Europe/Amsterdam").time).toBe("02:30:00")
    expect(hoursLong("2026-10-25", "Europe/Amsterdam")).toBe(25)
  })

  it("America/New_York: 8 Mar 2026 02:00 -> 03:00 and 1 Nov 2026 02:00 -> 01:00", () => {
    expect(at("2026-03-08", "02:30:00", "America/New_York")).toBe("2026-03-08T07:30:00.000Z")
    expect(toLocal(toInstant("2026-03-08", "02:30:00", "America/New_York"), "America/New_York").time).toBe("03:30:00")
    expect(at("2026-03-08", "03:00:00", "America/New_York")).toBe("2026-03-08T07:00:00.000Z")
    expect(at("2026-11-01", "01:30:00", "America/New_York")).toBe("2026-11-01T05:30:00.000Z")
    expect(toLocal(new Date("2026-11-01T06:30:00Z"), "America/New_York").time).toBe("01:30:00")
    expect(at("2026-11-01", "02:00:00", "America/New_York")).toBe("2026-11-01T07:00:00.000Z")
    expect(hoursLong("2026-03-08", "America/New_York")).toBe(23)
    expect(hoursLong("2026-11-01", "America/New_York")).toBe(25)
  })

  it("Australia/Lord_Howe: 4 Oct 2026 02:00 -> 02:30, a half-hour gap", () => {
    expect(at("2026-10-04", "01:59:00", "Australia/Lord_Howe")).toBe("2026-10-03T15:29:00.000Z")
    expect(at("2026-10-04", "02:10:00", "Australia/Lord_Howe")).toBe("2026-10-03T15:40:00.000Z")
    expect(toLocal(toInstant("2026-10-04", "02:10:00", "Australia/Lord_Howe"), "Australia/Lord_Howe").time).toBe(
      "02:40:00"
    )
    expect(at("2026-10-04", "02:30:00", "Australia/Lord_Howe")).toBe("2026-10-03T15:30:00.000Z")
    expect(hoursLong("2026-10-04", "Australia/Lord_Howe")).toBe(23.5)
  })

  it("Australia/Lord_Howe: 5 Apr 2026 02:00 -> 01:30, a half-hour fold", () => {
    expect(at("2026-04-05", "01:30:00", "Australia/Lord_Howe")).toBe("2026-04-04T14:30:00.000Z")
    expect(at("2026-04-05", "01:45:00", "Australia/Lord_Howe")).toBe("2026-04-04T14:45:00.000Z")
    expect(toLocal(new Date("2026-04-04T15:15:00Z"), "Australia/Lord_Howe").time).toBe("01:45:00")
    expect(at("2026-04-05", "02:00:00", "Australia/Lord_Howe")).toBe("2026-04-04T15:30:00.000Z")
    expect(hoursLong("2026-04-05", "Australia/Lord_Howe")).toBe(24.5)
  })

  it("24:00:00 is the start of the next day", () => {
    expect(at("2026-01-31", "24:00:00", "Europe/Amsterdam")).toBe(at("2026-02-01", "00:00:00", "Europe/Amsterdam"))
    expect(endOfLocalDay("2026-12-31", "UTC").toISOString()).toBe("2027-01-01T00:00:00.000Z")
  })
})

describe("toLocal", () => {
  it("gives the local date, time and weekday (0 = Sunday)", () => {
    expect(toLocal(new Date("2026-03-28T23:30:00Z"), "Europe/Amsterdam")).toEqual({
      date: "2026-03-29",
      time: "00:30:00",
      weekday: 0
    })
    expect(toLocal(new Date("2026-01-01T03:00:00Z"), "America/New_York")).toEqual({
      date: "2025-12-31",
      time: "22:00:00",
      weekday: 3
    })
    expect(todayIn(new Date("2026-01-01T03:00:00Z"), "America/New_York")).toBe("2025-12-31")
  })
})

describe("calendar dates", () => {
  it("adds days across months, years and leap days", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29")
    expect(addDays("2023-02-28", 1)).toBe("2023-03-01")
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01")
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28")
    expect(daysBetween("2026-01-01", "2027-01-01")).toBe(365)
    expect(daysBetween("2026-03-29", "2026-03-28")).toBe(-1)
    expect(weekdayOf("2026-11-21")).toBe(6)
  })

  it("validates real calendar dates", () => {
    expect(isValidLocalDate("2024-02-29")).toBe(true)
    expect(isValidLocalDate("2023-02-29")).toBe(false)
    expect(isValidLocalDate("2100-02-29")).toBe(false)
    expect(isValidLocalDate("2000-02-29")).toBe(true)
    expect(isValidLocalDate("2026-04-31")).toBe(false)
    expect(isValidLocalDate("2026-13-01")).toBe(false)
    expect(isValidLocalDate("2026-1-01")).toBe(false)
    expect(isValidLocalDate("2026-01-01T00:00")).toBe(false)
  })

  it("knows IANA zones", () => {
    expect(isValidZone("Europe/Amsterdam")).toBe(true)
    expect(isValidZone("Australia/Lord_Howe")).toBe(true)
    expect(isValidZone("UTC")).toBe(true)
    expect(isValidZone("Mars/Olympus_Mons")).toBe(false)
    expect(isValidZone("+01:00")).toBe(false)
    expect(isValidZone("")).toBe(false)
  })
})

describe("parseTimeInput", () => {
  it("accepts HH:MM, HH:MM:00 and 24:00", () => {
    expect(parseTimeInput("09:00")).toBe("09:00:00")
    expect(parseTimeInput("23:59:00")).toBe("23:59:00")
    expect(parseTimeInput("00:00")).toBe("00:00:00")
    expect(parseTimeInput("24:00")).toBe("24:00:00")
    expect(parseTimeInput("24:00:00")).toBe("24:00:00")
  })

  it("refuses anything else", () => {
    for (const bad of ["9:00", "09:00:30", "24:01", "24:00:01", "25:00", "12:60", "12", "", "12:00:00.000", " 12:00"]) {
      expect(parseTimeInput(bad)).toBeNull()
    }
  })
})

describe("monthIn", () => {
  it("is the local month of toLocal, also across a month's first second and when asked again within a second", () => {
    // 2026-11-30T23:00:00Z is 1 December 00:00 in Amsterdam; the second before is still November there.
    expect(monthIn(new Date("2026-11-30T22:59:59.999Z"), "Europe/Amsterdam")).toBe("2026-11")
    expect(monthIn(new Date("2026-11-30T23:00:00.000Z"), "Europe/Amsterdam")).toBe("2026-12")
    expect(monthIn(new Date("2026-11-30T23:00:00.999Z"), "Europe/Amsterdam")).toBe("2026-12")
    expect(monthIn(new Date("2026-11-30T23:00:00.500Z"), "UTC")).toBe("2026-11")
    const zones = fc.constantFrom(
      "UTC",
      "Europe/Amsterdam",
      "America/New_York",
      "Asia/Kolkata",
      "Pacific/Chatham",
      "Australia/Adelaide"
    )
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2060, 0, 1) }), zones), {
          maxLength: 20
        }),
        (asks) => {
          for (const [ms, zone] of asks)
            expect(monthIn(new Date(ms), zone)).toBe(toLocal(new Date(ms), zone).date.slice(0, 7))
        }
      ),
      { numRuns: 300 }
    )
  })
})
