import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BookingsOrg, bookingsOrg, expectError, ok, startPinned, type TestApp } from "../bookings/helpers.ts"
import { wallString } from "../calendar/helpers.ts"

// A rental period of whole days runs to the same local time (docs/behaviour.md, Time). Amsterdam goes back on Sunday
// 28 October 2040 and forward on Sunday 25 March 2040; the engine clock is pinned at 2 January 2040.
const AMS = "Europe/Amsterdam"
let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app, { timezone: AMS })
})
afterAll(() => app.close())

const dayRental = (body: Record<string, unknown> = {}) =>
  org.rental({
    duration_minutes: 1440,
    capacity: 1,
    max_periods: 3,
    max_advance_days: 730,
    min_notice_minutes: 0,
    ...body
  })

describe("day rentals across a change of the clocks", () => {
  it("the Saturday before the clocks go back offers 09:00 to Sunday 09:00, and it can be booked (25 hours)", async () => {
    const o = await dayRental()
    const [slot] = await org
      .call("GET", `/offerings/${o.id}/availability?from=2040-10-27&to=2040-10-27`)
      .then((r) => ok(r).data)
    expect([wallString(slot.starts_at, AMS), wallString(slot.ends_at, AMS)]).toEqual([
      "2040-10-27 09:00",
      "2040-10-28 09:00"
    ])
    const booked = ok(await org.book({ offering_id: o.id, starts_at: slot.starts_at }), 201)
    expect([booked.starts_at, booked.ends_at]).toEqual([slot.starts_at, slot.ends_at])
    expect(Date.parse(booked.ends_at) - Date.parse(booked.starts_at)).toBe(25 * 3_600_000)
  })

  it("the Saturday before spring forward runs to Sunday 09:00 (23 hours); two periods to Monday 09:00", async () => {
    const o = await dayRental({ capacity: 2 })
    const one = ok(await org.book({ offering_id: o.id, starts_at: "2040-03-24T08:00:00.000Z" }), 201)
    expect(wallString(one.ends_at, AMS)).toBe("2040-03-25 09:00")
    const two = ok(await org.book({ offering_id: o.id, starts_at: "2040-03-24T08:00:00.000Z", periods: 2 }), 201)
    expect(wallString(two.ends_at, AMS)).toBe("2040-03-26 09:00")
  })

  it("a period that runs an hour longer than its minutes still holds its item: no second booking in that hour", async () => {
    const o = await dayRental({ slot_interval_minutes: 30, max_periods: 1 })
    ok(
      await org.call("PUT", `/offerings/${o.id}/hours`, {
        hours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_time: "00:00", end_time: "24:00" }))
      })
    )
    // Saturday 09:00 CEST to Sunday 09:00 CET; Sunday 08:30 CET is 24 hours after Saturday 09:30 CEST, inside it.
    ok(await org.book({ offering_id: o.id, starts_at: "2040-10-27T07:00:00.000Z" }), 201)
    expectError(await org.book({ offering_id: o.id, starts_at: "2040-10-28T07:30:00.000Z" }), 409, "sold_out")
    const sunday = ok(await org.call("GET", `/offerings/${o.id}/availability?from=2040-10-28&to=2040-10-28`)).data
    expect(sunday.map((s: { starts_at: string }) => wallString(s.starts_at, AMS))).not.toContain("2040-10-28 08:30")
    expect(sunday.map((s: { starts_at: string }) => wallString(s.starts_at, AMS))).toContain("2040-10-28 09:00")
  })
})
