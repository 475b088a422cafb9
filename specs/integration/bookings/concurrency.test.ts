import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql } from "../../support/app.ts"
import { type BookingsOrg, guest, type Json, ok, type Reply, type TestApp, utcAt } from "./helpers.ts"
import { customers, liveRows as liveRowsOf, startRacing } from "./racing.ts"

// "Capacity is never oversold": many bookings race for the last places of each kind over real HTTP. On real Postgres
// (DATABASE_URL) they run concurrently; on PGlite (one connection) one transaction at a time, and must agree. The races
// that need Postgres row locks are in concurrency.pg.test.ts.

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  ;({ app, org } = await startRacing())
})
afterAll(() => app?.close())

const CAPACITY = 8
const K = 5
const RACERS = 200

/** Fires every request at once and sorts the answers: 201s, and the codes of the rest. */
const race = async (bodies: ReadonlyArray<Json>) => {
  const replies: Reply[] = await Promise.all(bodies.map((body) => org.book(body)))
  const won = replies.filter((r) => r.status === 201).map((r) => r.body as Json)
  const lost = replies.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body?.error?.code}`)
  return { won, lost }
}

const expectExactlyK = (result: { won: Json[]; lost: string[] }, k = K, racers = RACERS) => {
  expect(result.lost.filter((l) => l !== "409 sold_out")).toEqual([])
  expect(result.won.length).toBe(k)
  expect(result.lost.length).toBe(racers - k)
}

const liveRows = (offeringId: string) => liveRowsOf(app, org, offeringId)

/** booking.held and booking.confirmed events of an offering (one per booking made here: holds are never confirmed). */
const madeEvents = async (offeringId: string) =>
  (await org.events()).filter(
    (e) => (e.type === "booking.held" || e.type === "booking.confirmed") && e.data.offering_id === offeringId
  )

describe.sequential("the last places, raced", () => {
  it("a class session: exactly K seats are sold", async () => {
    const { offering, session } = await org.classWithSession({
      capacity: CAPACITY,
      max_per_booking: CAPACITY,
      price_cents: 1000
    })
    const first = await org.booked({
      offering_id: offering.id,
      session_id: session.id,
      quantity: CAPACITY - K,
      customer: guest("class-first")
    })
    const result = await race(
      Array.from({ length: RACERS }, (_, i) => ({
        offering_id: offering.id,
        session_id: session.id,
        customer: customers("class", i)
      }))
    )
    expectExactlyK(result)
    for (const b of result.won) expect(b).toMatchObject({ status: "held", quantity: 1, session_id: session.id })
    const live = await liveRows(offering.id)
    expect(live.reduce((n, b) => n + b.quantity, 0)).toBe(CAPACITY)
    expect(new Set(live.map((b) => b.id))).toEqual(new Set([first.id, ...result.won.map((b) => b.id)]))
    expect((await org.sessions(offering.id)).map((s) => s.booked)).toEqual([CAPACITY])
    expect((await madeEvents(offering.id)).length).toBe(1 + K)
  })

  it("a course: exactly K seats, each in every one of its times", async () => {
    const { offering, series } = await org.course({ capacity: CAPACITY, max_per_booking: CAPACITY }, 3)
    await org.booked({
      offering_id: offering.id,
      series_id: series.id,
      quantity: CAPACITY - K,
      customer: guest("course-first")
    })
    const result = await race(
      Array.from({ length: RACERS }, (_, i) => ({
        offering_id: offering.id,
        series_id: series.id,
        customer: customers("course", i)
      }))
    )
    expectExactlyK(result)
    for (const b of result.won) expect(b).toMatchObject({ status: "confirmed", series_id: series.id })
    expect((await org.sessions(offering.id)).map((s) => s.booked)).toEqual([CAPACITY, CAPACITY, CAPACITY])
    expect((await liveRows(offering.id)).reduce((n, b) => n + b.quantity, 0)).toBe(CAPACITY)
    expect((await madeEvents(offering.id)).length).toBe(1 + K)
  })

  it("an appointment on its calendar: exactly K parallel bookings, whatever the party sizes", async () => {
    const { offering, session } = await org.calendarAppointment({ capacity: CAPACITY, max_per_booking: 3 })
    for (let i = 0; i < CAPACITY - K; i++)
      await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest(`cal-first-${i}`) })
    const result = await race(
      Array.from({ length: RACERS }, (_, i) => ({
        offering_id: offering.id,
        session_id: session.id,
        quantity: 1 + (i % 3),
        customer: customers("cal", i)
      }))
    )
    expectExactlyK(result)
    const live = await liveRows(offering.id)
    expect(live.length).toBe(CAPACITY)
    expect((await org.sessions(offering.id)).map((s) => s.booked)).toEqual([CAPACITY])
    expect((await madeEvents(offering.id)).length).toBe(CAPACITY)
  })

  it("an appointment on weekly hours: exactly K bookings over overlapping starts", async () => {
    const cut = await org.hoursAppointment({
      capacity: CAPACITY,
      duration_minutes: 60,
      slot_interval_minutes: 30,
      price_cents: 2500
    })
    const now = await org.now()
    const ten = utcAt(now, 3, "10:00")
    const halfPast = utcAt(now, 3, "10:30")
    for (let i = 0; i < CAPACITY - K; i++)
      await org.booked({ offering_id: cut.id, starts_at: ten.toISOString(), customer: guest(`hours-first-${i}`) })
    const result = await race(
      Array.from({ length: RACERS }, (_, i) => ({
        offering_id: cut.id,
        starts_at: (i % 2 === 0 ? ten : halfPast).toISOString(),
        customer: customers("hours", i)
      }))
    )
    expectExactlyK(result)
    const live = await liveRows(cut.id)
    expect(live.length).toBe(CAPACITY)
    const slots = ok(await org.call("GET", `/offerings/${cut.id}/availability`)).data.map((s: Json) => s.starts_at)
    for (const t of ["10:00", "10:30"]) expect(slots).not.toContain(utcAt(now, 3, t).toISOString())
    expect((await madeEvents(cut.id)).length).toBe(CAPACITY)
  })

  it("a rental over overlapping periods: exactly K items go out on the shared day", async () => {
    const kayak = await org.rental({ capacity: CAPACITY, max_per_booking: CAPACITY, max_periods: 3 })
    const now = await org.now()
    const day = (n: number) => utcAt(now, n, "09:00").toISOString()
    await org.booked({
      offering_id: kayak.id,
      starts_at: day(3),
      quantity: CAPACITY - K,
      customer: guest("rental-first")
    })
    const shapes = [
      { starts_at: day(2), periods: 2 },
      { starts_at: day(2), periods: 3 },
      { starts_at: day(3), periods: 1 },
      { starts_at: day(3), periods: 2 }
    ]
    const result = await race(
      Array.from({ length: RACERS }, (_, i) => ({
        offering_id: kayak.id,
        ...shapes[i % 4],
        customer: customers("rental", i)
      }))
    )
    expectExactlyK(result)
    const live = await liveRows(kayak.id)
    const dayThree = Date.parse(day(3))
    expect(
      live
        .filter((b) => b.starts_at.getTime() <= dayThree && b.ends_at.getTime() > dayThree)
        .reduce((n, b) => n + b.quantity, 0)
    ).toBe(CAPACITY)
    expect((await madeEvents(kayak.id)).length).toBe(1 + K)
  })

  it("every kind at once, across offerings, with new and returning guests: never a 500, never oversold", async () => {
    const klass = await org.classWithSession({ capacity: 6, max_per_booking: 2, price_cents: 100 })
    const course = await org.course({ capacity: 6, max_per_booking: 2 }, 2)
    const cal = await org.calendarAppointment({ capacity: 6 })
    const cut = await org.hoursAppointment({ capacity: 6 })
    const kayak = await org.rental({ capacity: 6, max_per_booking: 2 })
    const now = await org.now()
    const at = utcAt(now, 4, "09:00").toISOString()
    const per = 40
    const bodies: Json[] = []
    for (let i = 0; i < per; i++) {
      const customer = i % 2 === 0 ? guest(`all-${i}`) : guest("class-first")
      bodies.push(
        { offering_id: klass.offering.id, session_id: klass.session.id, quantity: 1 + (i % 2), customer },
        { offering_id: course.offering.id, series_id: course.series.id, quantity: 1 + (i % 2), customer },
        { offering_id: cal.offering.id, session_id: cal.session.id, customer },
        { offering_id: cut.id, starts_at: at, customer },
        { offering_id: kayak.id, starts_at: at, periods: 1 + (i % 2), quantity: 1 + (i % 2), customer }
      )
    }
    const result = await race(bodies)
    expect(result.lost.filter((l) => l !== "409 sold_out")).toEqual([])
    const seats = async (offeringId: string) => (await liveRows(offeringId)).reduce((n, b) => n + b.quantity, 0)
    const won = (offeringId: string) => result.won.filter((b) => b.offering_id === offeringId)
    for (const id of [klass.offering.id, course.offering.id, kayak.id]) {
      expect(await seats(id)).toBeLessThanOrEqual(6)
      expect(await seats(id)).toBe(won(id).reduce((n, b) => n + b.quantity, 0))
      expect(await seats(id)).toBeGreaterThanOrEqual(5)
    }
    expect(won(cal.offering.id).length).toBe(6)
    expect(won(cut.id).length).toBe(6)
    expect((await org.sessions(klass.offering.id)).map((s) => s.booked)).toEqual([await seats(klass.offering.id)])
    expect((await org.sessions(course.offering.id)).map((s) => s.booked)).toEqual([
      await seats(course.offering.id),
      await seats(course.offering.id)
    ])
    for (const id of [klass.offering.id, course.offering.id, cal.offering.id, cut.id, kayak.id]) {
      expect((await madeEvents(id)).length).toBe(won(id).length)
    }
  })

  it("many bookings at once across offerings, by new and returning guests, all go through (no deadlock, no 500)", async () => {
    const classes = await Promise.all(Array.from({ length: 6 }, () => org.classWithSession({ capacity: 100 })))
    for (let i = 0; i < 6; i++)
      await org.booked({
        offering_id: classes[i].offering.id,
        session_id: classes[i].session.id,
        customer: guest(`back-${i}`)
      })
    const result = await race(
      Array.from({ length: 150 }, (_, i) => {
        const { offering, session } = classes[i % 6]
        return {
          offering_id: offering.id,
          session_id: session.id,
          customer: i % 2 === 0 ? guest(`back-${(i >> 1) % 6}`) : guest(`fresh-${i}`)
        }
      })
    )
    expect(result.lost).toEqual([])
    expect(result.won.length).toBe(150)
    for (const { offering } of classes) expect((await org.sessions(offering.id)).map((s) => s.booked)).toEqual([26])
  })

  it("a session cancelled while bookings race for it keeps none of them", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 500 })
    let answered = 0
    let cancel: Promise<Reply> | undefined
    const replies = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        org.book({ offering_id: offering.id, session_id: session.id, customer: customers("cancel", i) }).then((r) => {
          if (++answered === 10) cancel = org.call("POST", `/sessions/${session.id}/cancel`, { guests: "refund" })
          return r
        })
      )
    )
    expect((await cancel!).status).toBe(200)
    const codes = new Set(replies.map((r) => (r.status === 201 ? "201" : `${r.status} ${r.body.error.code}`)))
    for (const c of codes) expect(["201", "409 time_not_available"]).toContain(c)
    expect(await liveRows(offering.id)).toEqual([])
    const rows = await sql(
      app,
      (s) => s<{ status: string }>`select status from bookings where session_id = ${session.id}`
    )
    expect(rows.length).toBeGreaterThanOrEqual(10)
    for (const r of rows) expect(r.status).toBe("cancelled")
  })
})
