import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql } from "../../support/app.ts"
import {
  type BookingsOrg,
  bookingsOrg,
  expectError,
  guest,
  ok,
  startPinned,
  type TestApp
} from "../bookings/helpers.ts"

// The engine clock reads 2040-01-02 12:00 UTC (07:00 in New York, a Monday).
let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app, { timezone: "America/New_York", currency: "USD" })
})
afterAll(() => app.close())

const set = (id: string, columns: Record<string, unknown>) =>
  sql(app, (s) => s`update bookings set ${s.update(columns)} where id = ${id}`)
const report = async (name: string, query: string) => ok(await org.call("GET", `/reports/${name}?${query}`))

describe("reports (reports.*)", () => {
  it("revenue by local day, week, month and offering; occupancy by hour; attendance; the waitlist", async () => {
    const yoga = await org.offering({ name: "Yoga", kind: "class", capacity: 10, waitlist_enabled: true })
    const s1 = await org.session(yoga.id, new Date("2040-01-05T15:00:00Z"))
    const s2 = await org.session(yoga.id, new Date("2040-01-06T15:30:00Z"))
    const tiny = await org.offering({ name: "Tiny", kind: "class", capacity: 1, waitlist_enabled: true })
    const t1 = await org.session(tiny.id, new Date("2040-01-05T23:00:00Z"))
    const a = await org.booked({ offering_id: yoga.id, session_id: s1.id, quantity: 3 })
    const b = await org.booked({ offering_id: yoga.id, session_id: s2.id, customer: guest(2) })
    const c = await org.booked({ offering_id: tiny.id, session_id: t1.id, customer: guest(3) })
    ok(await org.act(b.id, "cancel", {}))
    // What payments, gift cards and promo codes would have left on the rows, and when each was made.
    await set(a.id, {
      charged_cents: 6000,
      total_cents: 9000,
      paid_cents: 6000,
      gift_cents: 1000,
      discount_cents: 500,
      created_at: new Date("2040-01-03T03:00:00Z")
    })
    await set(b.id, {
      charged_cents: 2000,
      refund_cents: 2000,
      refunded_at: new Date("2040-01-04T00:00:00Z"),
      created_at: new Date("2040-01-03T06:00:00Z")
    })
    await set(c.id, { charged_cents: 1500, created_at: new Date("2040-02-01T12:00:00Z") })
    await set(c.id, { no_show_at: new Date("2040-01-06T00:00:00Z") })
    ok(await org.call("POST", "/waitlist", { session_id: t1.id, customer: guest(4) }), 201)
    ok(await org.call("POST", "/waitlist", { session_id: t1.id, customer: guest(5) }), 201)
    await sql(
      app,
      (s) => s`update waitlist_entries set end_reason = 'booked', ended_at = now() where customer_id =
      (select id from customers where email = 'guest5@example.com' and org_id = ${org.id})`
    )

    const days = await report("revenue", "from=2040-01-01&to=2040-02-29")
    expect(days).toMatchObject({ currency: "USD", timezone: "America/New_York", from: "2040-01-01", to: "2040-02-29" })
    expect(days.data.map((r: any) => [r.period, r.bookings, r.charged_cents, r.refunded_cents, r.net_cents])).toEqual([
      ["2040-01-02", 1, 6000, 0, 6000],
      ["2040-01-03", 1, 2000, 2000, 0],
      ["2040-02-01", 1, 1500, 0, 1500]
    ])
    expect(days.data[0]).toMatchObject({ gift_card_cents: 1000, discount_cents: 500, deposits_due_cents: 3000 })
    const weeks = await report("revenue", "from=2040-01-01&to=2040-02-29&by=week")
    expect(weeks.data.map((r: any) => [r.period, r.bookings, r.net_cents])).toEqual([
      ["2040-01-02", 2, 6000],
      ["2040-01-30", 1, 1500]
    ])
    const months = await report("revenue", "from=2040-01-01&to=2040-02-29&by=month")
    expect(months.data.map((r: any) => [r.period, r.charged_cents])).toEqual([
      ["2040-01-01", 8000],
      ["2040-02-01", 1500]
    ])
    const byOffering = await report("revenue", "from=2040-01-01&to=2040-02-29&by=offering")
    expect(byOffering.data.map((r: any) => [r.offering_name, r.bookings, r.net_cents])).toEqual([
      ["Tiny", 1, 1500],
      ["Yoga", 2, 6000]
    ])
    expect((await report("revenue", "from=2040-01-03&to=2040-01-31")).data.map((r: any) => r.period)).toEqual([
      "2040-01-03"
    ])

    const occupancy = await report("occupancy", "from=2040-01-05&to=2040-01-06")
    expect(occupancy.data).toEqual([
      { offering_id: tiny.id, offering_name: "Tiny", hour: 18, times: 1, places_offered: 1, places_sold: 1 },
      { offering_id: yoga.id, offering_name: "Yoga", hour: 10, times: 2, places_offered: 20, places_sold: 3 }
    ])
    const attendance = await report("attendance", "from=2040-01-01&to=2040-01-31")
    expect(attendance.data).toEqual([
      { offering_id: tiny.id, offering_name: "Tiny", bookings: 1, cancelled: 0, checked_in: 0, no_shows: 1 },
      { offering_id: yoga.id, offering_name: "Yoga", bookings: 2, cancelled: 1, checked_in: 0, no_shows: 0 }
    ])
    const waitlist = await report("waitlist", "from=2040-01-01&to=2040-01-31")
    expect(waitlist.data).toEqual([{ offering_id: tiny.id, offering_name: "Tiny", joins: 2, got_a_place: 1 }])

    // One offering's figures only.
    const yogaOnly = `from=2040-01-01&to=2040-02-29&offering_id=${yoga.id}`
    expect((await report("revenue", yogaOnly)).data.map((r: any) => [r.period, r.net_cents])).toEqual([
      ["2040-01-02", 6000],
      ["2040-01-03", 0]
    ])
    expect((await report("occupancy", yogaOnly)).data.map((r: any) => r.offering_name)).toEqual(["Yoga"])
    expect((await report("attendance", yogaOnly)).data.map((r: any) => r.offering_name)).toEqual(["Yoga"])
    expect((await report("waitlist", yogaOnly)).data).toEqual([])
    expect((await report("waitlist", `from=2040-01-01&to=2040-01-31&offering_id=${tiny.id}`)).data).toHaveLength(1)
    expect((await org.call("GET", "/reports/revenue?offering_id=yoga")).status).toBe(400)

    expectError(await org.call("GET", "/reports/revenue?from=2040-01-05&to=2040-01-01"), 400, "invalid_to")
    expect((await org.call("GET", "/reports/revenue?by=year")).status).toBe(400)
    const other = await bookingsOrg(app)
    expect(ok(await other.call("GET", "/reports/revenue?from=2040-01-01&to=2040-02-29")).data).toEqual([])
    expect(ok(await other.call("GET", "/reports/occupancy?from=2040-01-01&to=2040-02-29")).data).toEqual([])
    expect(
      ok(await other.call("GET", `/reports/revenue?from=2040-01-01&to=2040-02-29&offering_id=${yoga.id}`)).data
    ).toEqual([])
  })
})
