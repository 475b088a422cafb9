import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql } from "../../support/app.ts"
import { advanceTo, bookingsOrg, expectError, guest, ok, startPinned, type TestApp } from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startPinned()
})
afterAll(() => app.close())

const written = async (orgId: string) =>
  (
    await sql(
      app,
      (s) => s<{ b: number; c: number; e: number; m: number }>`select
    (select count(*)::int from bookings where org_id = ${orgId}) as b,
    (select count(*)::int from customers where org_id = ${orgId}) as c,
    (select count(*)::int from events where org_id = ${orgId}) as e,
    (select count(*)::int from mail_outbox where org_id = ${orgId}) as m`
    )
  )[0]

describe("the monthly booking quota", () => {
  it("free: 25 bookings a calendar month in org time; the 26th is 402 plan_quota_exceeded and writes nothing", async () => {
    // Auckland is UTC+13 in January: its February starts at 11:00 UTC on 31 January.
    const org = await bookingsOrg(app, { plan: "free", timezone: "Pacific/Auckland" })
    const o = await org.offering({ kind: "class", capacity: 100, max_per_booking: 5 })
    const priced = await org.offering({ kind: "class", capacity: 100, price_cents: 100 })
    const january = await org.session(o.id, new Date("2040-01-20T08:00:00Z"))
    const paid = await org.session(priced.id, new Date("2040-01-20T08:00:00Z"))
    const february = await org.session(o.id, new Date("2040-02-10T08:00:00Z"))
    const made: string[] = []
    for (let i = 0; i < 25; i++) {
      if (i === 10)
        expectError(await org.book({ offering_id: o.id, session_id: january.id, quantity: 6 }), 400, "invalid_quantity")
      const res = await org.book({
        offering_id: i % 3 === 0 ? priced.id : o.id,
        session_id: i % 3 === 0 ? paid.id : i % 5 === 0 ? february.id : january.id,
        customer: guest(i)
      })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      made.push(res.body.id)
    }
    ok(await org.act(made[1], "cancel"))
    const before = await written(org.id)
    const refused = await org.book({ offering_id: o.id, session_id: january.id, customer: guest("new") })
    expectError(refused, 402, "plan_quota_exceeded")
    expect(refused.body.error.message).toContain("25")
    expectError(
      await org.book({ offering_id: o.id, session_id: january.id, customer: guest(1) }),
      402,
      "plan_quota_exceeded"
    )
    await app.advance(3)
    expect(await written(org.id)).toEqual(before)
    await advanceTo(app, new Date("2040-01-31T10:59:00Z"))
    expectError(await org.book({ offering_id: o.id, session_id: february.id }), 402, "plan_quota_exceeded")
    await advanceTo(app, new Date("2040-01-31T11:00:00Z"))
    const next = await org.book({ offering_id: o.id, session_id: february.id, customer: guest("new") })
    expect(next.status).toBe(201)
  })

  it("a refused booking (sold out, bad input) does not count; the scale plan is far from its limit", async () => {
    const org = await bookingsOrg(app, { plan: "free" })
    const { offering, session } = await org.classWithSession({ capacity: 1 })
    await org.booked({ offering_id: offering.id, session_id: session.id })
    for (let i = 0; i < 30; i++)
      expectError(
        await org.book({ offering_id: offering.id, session_id: session.id, customer: guest(i) }),
        409,
        "sold_out"
      )
    const more = await org.classWithSession({ capacity: 30 })
    for (let i = 0; i < 24; i++)
      expect(
        (await org.book({ offering_id: more.offering.id, session_id: more.session.id, customer: guest(i) })).status
      ).toBe(201)
    expectError(
      await org.book({ offering_id: more.offering.id, session_id: more.session.id }),
      402,
      "plan_quota_exceeded"
    )
    const scale = await bookingsOrg(app, { plan: "scale" })
    const big = await scale.classWithSession({ capacity: 40 })
    for (let i = 0; i < 30; i++)
      expect(
        (await scale.book({ offering_id: big.offering.id, session_id: big.session.id, customer: guest(i) })).status
      ).toBe(201)
  })

  it("is counted on the org's event clock row: a later month starts anew, an earlier one counts against the row's month", async () => {
    const org = await bookingsOrg(app, { plan: "free" })
    const { offering, session } = await org.classWithSession({ capacity: 100 })
    const clock = () =>
      sql(
        app,
        (s) =>
          s<{
            month: string
            used: number
            quota: number
          }>`select month, used, quota from org_events where org_id = ${org.id}`
      )
    await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest(0) })
    const [first] = await clock()
    expect(first).toMatchObject({ used: 1, quota: 25 })
    expect(first.month).toMatch(/^\d{4}-\d{2}$/)
    // A month used up long ago does not refuse this one: the count starts anew.
    await sql(app, (s) => s`update org_events set month = '2000-01', used = 25 where org_id = ${org.id}`)
    await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest(1) })
    expect(await clock()).toEqual([{ month: first.month, used: 1, quota: 25 }])
    // Another instance (clock ahead) already counted bookings in a later month: this one counts against that month, to its limit.
    await sql(app, (s) => s`update org_events set month = '9999-12', used = 24 where org_id = ${org.id}`)
    await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest(2) })
    expect(await clock()).toEqual([{ month: "9999-12", used: 25, quota: 25 }])
    expectError(
      await org.book({ offering_id: offering.id, session_id: session.id, customer: guest(3) }),
      402,
      "plan_quota_exceeded"
    )
    expect(await clock()).toEqual([{ month: "9999-12", used: 25, quota: 25 }])
  })
})
