import { describe, expect, it } from "vitest"
import { contactFrom, type OctoRow, octoStatus } from "../../../transports/octo/booking.ts"
import { localIso, pricing, statusOf, utc } from "../../../transports/octo/map.ts"

describe("OCTO mapping", () => {
  it("writes local date-times with the zone's offset on either side of a change of the clocks", () => {
    expect(localIso(new Date("2026-03-29T00:30:00Z"), "Europe/Amsterdam")).toBe("2026-03-29T01:30:00+01:00")
    expect(localIso(new Date("2026-03-29T01:30:00Z"), "Europe/Amsterdam")).toBe("2026-03-29T03:30:00+02:00")
    expect(localIso(new Date("2026-11-01T12:00:00Z"), "America/New_York")).toBe("2026-11-01T07:00:00-05:00")
    expect(localIso(new Date("2026-06-01T12:00:00Z"), "Asia/Kolkata")).toBe("2026-06-01T17:30:00+05:30")
    expect(localIso(new Date("2026-06-01T12:00:00Z"), "UTC")).toBe("2026-06-01T12:00:00+00:00")
    expect(Date.parse(localIso(new Date("2026-10-25T01:15:00Z"), "Europe/Amsterdam"))).toBe(
      Date.parse("2026-10-25T01:15:00Z")
    )
    expect(utc(new Date("2026-06-01T12:00:00.000Z"))).toBe("2026-06-01T12:00:00Z")
  })

  it("derives availability and booking statuses", () => {
    expect([statusOf(0, 3), statusOf(1, 3), statusOf(3, 3)]).toEqual(["SOLD_OUT", "LIMITED", "AVAILABLE"])
    const now = new Date("2026-06-01T12:00:00Z")
    const row = {
      status: "held",
      keeps_place: true,
      expires_at: new Date("2026-06-01T12:10:00Z"),
      checked_in_at: null
    } as unknown as OctoRow
    expect(octoStatus(row, now)).toBe("ON_HOLD")
    expect(octoStatus({ ...row, expires_at: now }, now)).toBe("EXPIRED")
    expect(octoStatus({ ...row, keeps_place: false }, now)).toBe("EXPIRED")
    expect(octoStatus({ ...row, status: "confirmed" }, now)).toBe("CONFIRMED")
    expect(octoStatus({ ...row, status: "confirmed", checked_in_at: now }, now)).toBe("REDEEMED")
    expect(octoStatus({ ...row, status: "cancelled" }, now)).toBe("CANCELLED")
  })

  it("prices in the currency's minor units and fills a contact in", () => {
    expect(pricing(1500, "EUR")).toMatchObject({ retail: 1500, currencyPrecision: 2 })
    expect(pricing(1500, "JPY").currencyPrecision).toBe(0)
    expect(
      contactFrom({ firstName: " Ann ", lastName: "Lee", emailAddress: "ANN@example.com", country: "nl" })
    ).toEqual({
      fullName: "Ann Lee",
      firstName: "Ann",
      lastName: "Lee",
      emailAddress: "ann@example.com",
      phoneNumber: null,
      locales: [],
      postalCode: null,
      country: "NL",
      notes: null
    })
    expect(contactFrom(undefined).fullName).toBeNull()
  })
})
