import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql } from "../../support/app.ts"
import {
  type BookingsOrg,
  bookingsOrg,
  expectError,
  guest,
  hoursAhead,
  ok,
  startPinned,
  type TestApp
} from "../bookings/helpers.ts"

const INT4_MAX = 2_147_483_647
const MAX_TOTAL = 99_999_999

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
})
afterAll(() => app.close())

const rowsFor = async (offeringId: string) =>
  Number(
    (
      await sql(app, (s) => s<{ n: number }>`select count(*)::int as n from bookings where offering_id = ${offeringId}`)
    )[0].n
  )

describe("a booking's total is bounded, never an integer overflow", () => {
  it("a class seat at 2147483647 x 2 is 400 total_too_large, and nothing is written", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: INT4_MAX })
    const quotaBefore = await sql(
      app,
      (s) => s<{ used: number }>`select coalesce(sum(used), 0)::int as used from org_events where org_id = ${org.id}`
    )
    const res = await org.book({
      offering_id: offering.id,
      session_id: session.id,
      quantity: 2,
      customer: guest("overflow")
    })
    expectError(res, 400, "total_too_large")
    expect(res.body.error.message).toContain(String(MAX_TOTAL))
    expect(await rowsFor(offering.id)).toBe(0)
    expect(await sql(app, (s) => s`select id from customers where email = ${guest("overflow").email}`)).toEqual([])
    expect(
      await sql(
        app,
        (s) => s<{ used: number }>`select coalesce(sum(used), 0)::int as used from org_events where org_id = ${org.id}`
      )
    ).toEqual(quotaBefore)
  })

  it("a total of exactly the bound is taken (held, as it is priced) and stored whole", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: MAX_TOTAL })
    const booked = ok(await org.book({ offering_id: offering.id, session_id: session.id }), 201)
    expect([booked.status, booked.total_cents]).toEqual(["held", MAX_TOTAL])
    expectError(
      await org.book({ offering_id: offering.id, session_id: session.id, quantity: 2 }),
      400,
      "total_too_large"
    )
  })

  it("an appointment party: price plus 9 guests at guest_price_cents 2147483647 is 400 total_too_large", async () => {
    const { offering, session } = await org.calendarAppointment({
      price_cents: 100,
      guest_price_cents: INT4_MAX,
      max_per_booking: 10,
      capacity: 1
    })
    expectError(
      await org.book({ offering_id: offering.id, session_id: session.id, quantity: 10 }),
      400,
      "total_too_large"
    )
    const free = await org.calendarAppointment({ price_cents: MAX_TOTAL, guest_price_cents: 0, max_per_booking: 10 })
    expect(
      ok(await org.book({ offering_id: free.offering.id, session_id: free.session.id, quantity: 10 }), 201).total_cents
    ).toBe(MAX_TOTAL)
    // null guest price: each guest at the full price
    const full = await org.calendarAppointment({ price_cents: 50_000_000, max_per_booking: 10 })
    expectError(
      await org.book({ offering_id: full.offering.id, session_id: full.session.id, quantity: 2 }),
      400,
      "total_too_large"
    )
  })

  it("a rental: price x items x periods past the bound is 400 total_too_large; at it, taken", async () => {
    const rental = await org.rental({
      price_cents: 1_000_000,
      capacity: 100,
      max_per_booking: 100,
      max_periods: 60,
      duration_minutes: 60,
      min_notice_minutes: 0
    })
    ok(
      await org.call("PUT", `/offerings/${rental.id}/hours`, {
        hours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_time: "00:00", end_time: "24:00" }))
      })
    )
    const starts_at = hoursAhead(await org.now(), 24).toISOString()
    expectError(
      await org.book({ offering_id: rental.id, starts_at, quantity: 10, periods: 10 }),
      400,
      "total_too_large"
    )
    const cheap = await org.rental({
      price_cents: INT4_MAX,
      capacity: 3,
      max_periods: 60,
      duration_minutes: 60,
      min_notice_minutes: 0
    })
    expectError(await org.book({ offering_id: cheap.id, starts_at, periods: 60 }), 400, "total_too_large")
    const bounded = await org.rental({
      price_cents: 1_666_666,
      capacity: 3,
      max_periods: 60,
      duration_minutes: 60,
      min_notice_minutes: 0
    })
    ok(
      await org.call("PUT", `/offerings/${bounded.id}/hours`, {
        hours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_time: "00:00", end_time: "24:00" }))
      })
    )
    expect(ok(await org.book({ offering_id: bounded.id, starts_at, periods: 60 }), 201).total_cents).toBe(
      1_666_666 * 60
    )
  })
})

describe("money amounts sent with a booking fit their columns", () => {
  it("cancel with refund_cents beyond any total is 400 invalid_refund_cents, not a 500", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: 1000 })
    const booked = ok(await org.book({ offering_id: offering.id, session_id: session.id }), 201)
    expectError(await org.act(booked.id, "cancel", { refund_cents: INT4_MAX + 1 }), 400, "invalid_refund_cents")
    expectError(await org.act(booked.id, "cancel", { refund_cents: 1e15 }), 400, "invalid_refund_cents")
    expect(ok(await org.get(booked.id)).status).toBe("held")
  })

  it("mark_paid with paid_cents beyond any total is 400 invalid_paid_cents", async () => {
    const { offering, session } = await org.classWithSession()
    const booked = ok(await org.book({ offering_id: offering.id, session_id: session.id }), 201)
    expectError(await org.act(booked.id, "mark_paid", { paid_cents: INT4_MAX + 1 }), 400, "invalid_paid_cents")
  })
})

describe("an org's currency sets its minor units (ISO 4217)", () => {
  it.each([
    ["JPY", 1],
    ["EUR", 100],
    ["BHD", 1000],
    ["KWD", 1000],
    ["IQD", 1000],
    ["TND", 1000]
  ])("%s: currency_minor_units %i", async (currency, units) => {
    const res = await app.admin("POST", "/orgs", { name: `In ${currency}`, timezone: "Asia/Bahrain", currency })
    expect(ok(res, 201).org).toMatchObject({ currency, currency_minor_units: units })
    const key = res.body.api_key.key
    expect(ok(await app.call(key, "GET", "/api/v1/org"))).toMatchObject({ currency_minor_units: units })
  })

  it.each(["XYZ", "XAU", "bhd", "BHDX"])("refuses %s with 400 invalid_currency", async (currency) => {
    expectError(await app.admin("POST", "/orgs", { name: "Bad", timezone: "UTC", currency }), 400, "invalid_currency")
  })
})
