import { DateTime } from "effect"
import ICAL from "ical.js"
import { describe, expect, it } from "vitest"
import { offsetChanges, vtimezone } from "../../../engine/time/vtimezone.ts"

const HOUR = 3_600_000
const FROM = Date.parse("2040-01-01T00:00:00Z")
const TO = Date.parse("2041-01-01T00:00:00Z")

/** The zone as ical.js builds it from the VTIMEZONE text alone. */
const icalZone = (text: string) => new ICAL.Timezone(new ICAL.Component(ICAL.parse(text)))

/** The instant ical.js gives the zone's wall-clock reading of `ms` (as a client reads DTSTART;TZID=zone:...). */
const readBack = (zone: ICAL.Timezone, name: string, ms: number) => {
  const p = DateTime.toParts(DateTime.unsafeMakeZoned(ms, { timeZone: name }))
  const t = new ICAL.Time(
    { year: p.year, month: p.month, day: p.day, hour: p.hours, minute: p.minutes, second: p.seconds },
    zone
  )
  return t.toUnixTime() * 1000
}

describe("vtimezone", () => {
  for (const name of ["Europe/Amsterdam", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "UTC"]) {
    it(`${name}: every wall-clock reading of a year, read back by ical.js from the VTIMEZONE, is the same instant`, () => {
      const text = vtimezone(name, FROM, TO)
      expect(text.startsWith(`BEGIN:VTIMEZONE\r\nTZID:${name}\r\n`)).toBe(true)
      const zone = icalZone(text)
      const changes = offsetChanges(name, FROM, TO)
      // A reading in the hour the clocks go back happens twice; either instant is that reading.
      const repeated = (t: number) => changes.some((c) => c.after < c.before && Math.abs(t - c.at) <= 2 * HOUR)
      for (let t = FROM; t < TO; t += 3 * HOUR) if (!repeated(t)) expect([t, readBack(zone, name, t)]).toEqual([t, t])
      for (const c of changes) {
        expect(readBack(zone, name, c.at + HOUR)).toBe(c.at + HOUR)
        if (c.after > c.before) expect(readBack(zone, name, c.at - 1000)).toBe(c.at - 1000)
      }
    })
  }

  it("finds both changes of 2040 in Amsterdam and in Sydney, to the second", () => {
    const at = (zone: string) =>
      offsetChanges(zone, FROM, TO).map((c) => [new Date(c.at).toISOString(), c.before / HOUR, c.after / HOUR])
    expect(at("Europe/Amsterdam")).toEqual([
      ["2040-03-25T01:00:00.000Z", 1, 2],
      ["2040-10-28T01:00:00.000Z", 2, 1]
    ])
    expect(at("Australia/Sydney")).toEqual([
      ["2040-03-31T16:00:00.000Z", 11, 10],
      ["2040-10-06T16:00:00.000Z", 10, 11]
    ])
    const sydney = vtimezone("Australia/Sydney", FROM, TO)
    expect(sydney).toContain("BEGIN:STANDARD\r\nDTSTART:20400401T030000\r\nTZOFFSETFROM:+1100\r\nTZOFFSETTO:+1000")
    expect(sydney).toContain("BEGIN:DAYLIGHT\r\nDTSTART:20401007T020000\r\nTZOFFSETFROM:+1000\r\nTZOFFSETTO:+1100")
  })
})
