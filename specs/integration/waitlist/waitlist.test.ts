import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, type TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, expectError, guest, ok, startPinned } from "../bookings/helpers.ts"

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
})
afterAll(() => app.close())

const join = (body: Record<string, unknown>) => org.call("POST", "/waitlist", body)
const waiting = async (sessionId: string) =>
  ok(await org.call("GET", `/waitlist?session_id=${sessionId}`)).data as Array<Record<string, any>>
const mailsTo = (email: string, kind: string) =>
  sql(app, (s) => s<{ body: string }>`select body from mail_outbox where to_address = ${email} and kind = ${kind}`)

describe("the waitlist", () => {
  it("takes a party only when the time lacks room; one entry per guest and time; list and remove", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 2, waitlist_enabled: true })
    expectError(await join({ session_id: session.id, places: 1, customer: guest("w1") }), 409, "has_room")
    ok(await org.book({ offering_id: offering.id, session_id: session.id, quantity: 2 }), 201)
    const entry = ok(await join({ session_id: session.id, places: 2, customer: guest("w1") }), 201)
    expect(entry).toMatchObject({
      session_id: session.id,
      offering_id: offering.id,
      places: 2,
      ended_at: null,
      end_reason: null
    })
    const again = ok(
      await join({
        offering_id: offering.id,
        starts_at: session.starts_at,
        places: 1,
        customer: { email: "GUESTW1@example.com", name: "W" }
      }),
      201
    )
    expect(again.id).toBe(entry.id)
    expect(again.places).toBe(1)
    expect((await waiting(session.id)).map((e) => e.id)).toEqual([entry.id])

    const removed = ok(await org.call("DELETE", `/waitlist/${entry.id}`))
    expect(removed.end_reason).toBe("removed")
    expect(await waiting(session.id)).toEqual([])
    expectError(await org.call("DELETE", `/waitlist/${entry.id}`), 404, "not_found")
    const events = (await org.events()).filter((e) => e.type.startsWith("waitlist.") && e.data.id === entry.id)
    expect(events.map((e) => e.type)).toEqual(["waitlist.joined", "waitlist.joined", "waitlist.left"])
    expect(events[2].data.reason).toBe("removed")
    expect(events[0].data).toMatchObject({
      id: entry.id,
      session_id: session.id,
      offering_id: offering.id,
      customer_id: entry.customer.id,
      starts_at: session.starts_at,
      places: 2
    })
  })

  it("refuses offerings without a waitlist, courses, weekly hours and rentals", async () => {
    const off = await org.classWithSession({ capacity: 1 })
    ok(await org.book({ offering_id: off.offering.id, session_id: off.session.id }), 201)
    expectError(await join({ session_id: off.session.id, customer: guest("x") }), 409, "waitlist_disabled")
    // A course keeps no waitlist: the offering refuses one, so its times are never waited for.
    expectError(
      await org.call("POST", "/offerings", { name: "Course", kind: "class", course: true, waitlist_enabled: true }),
      409,
      "waitlist_conflict"
    )
    const course = await org.course({ capacity: 1 })
    ok(await org.book({ offering_id: course.offering.id, series_id: course.series.id, customer: guest("c") }), 201)
    expectError(await join({ session_id: course.sessions[0].id, customer: guest("x") }), 409, "waitlist_conflict")
    const hours = await org.hoursAppointment({})
    expectError(
      await org.call("PATCH", `/offerings/${hours.id}`, { waitlist_enabled: true }),
      400,
      "waitlist_not_supported"
    )
    expectError(
      await join({ offering_id: hours.id, starts_at: "2031-01-01T10:00:00Z", customer: guest("x") }),
      400,
      "waitlist_not_supported"
    )
    expect((await join({ places: 1, customer: guest("x") })).status).toBe(400)
    const other = await bookingsOrg(app)
    expectError(
      await other.call("POST", "/waitlist", { session_id: off.session.id, customer: guest("x") }),
      404,
      "not_found"
    )
  })

  it("a cancel opens places: the parties that fit are told once in one waitlist.opened; the first to book gets it", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 3, waitlist_enabled: true })
    const holder = ok(
      await org.book({ offering_id: offering.id, session_id: session.id, quantity: 2, customer: guest("h") }),
      201
    )
    ok(await org.book({ offering_id: offering.id, session_id: session.id, quantity: 1, customer: guest("h2") }), 201)
    const small = ok(await join({ session_id: session.id, places: 1, customer: guest("small") }), 201)
    const pair = ok(await join({ session_id: session.id, places: 2, customer: guest("pair") }), 201)
    const big = ok(await join({ session_id: session.id, places: 3, customer: guest("big") }), 201)

    ok(await org.act(holder.id, "cancel"))
    const opened = (await org.events("waitlist.opened")).filter((e) => e.data.session_id === session.id)
    expect(opened).toHaveLength(1)
    expect(opened[0].data).toMatchObject({ remaining: 2, told: 2, offering_id: offering.id })
    expect([...opened[0].data.entry_ids].sort()).toEqual([small.id, pair.id].sort())
    expect((await mailsTo("guestsmall@example.com", "waitlist.opened")).length).toBe(1)
    expect((await mailsTo("guestbig@example.com", "waitlist.opened")).length).toBe(0)

    // The pair books first and gets the places; their entry ends booked.
    ok(await org.book({ offering_id: offering.id, session_id: session.id, quantity: 2, customer: guest("pair") }), 201)
    expectError(
      await org.book({ offering_id: offering.id, session_id: session.id, quantity: 1, customer: guest("small") }),
      409,
      "sold_out"
    )
    const left = (await org.events("waitlist.left")).filter((e) => e.data.id === pair.id)
    expect(left.map((e) => e.data.reason)).toEqual(["booked"])
    expect((await waiting(session.id)).map((e) => e.id)).toEqual([small.id, big.id])
  })

  it("more capacity opens places: on the offering's times and on a series' times, told once, never for fewer seats", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 1, waitlist_enabled: true })
    ok(await org.book({ offering_id: offering.id, session_id: session.id }), 201)
    const one = ok(await join({ session_id: session.id, places: 1, customer: guest("cap1") }), 201)
    const three = ok(await join({ session_id: session.id, places: 3, customer: guest("cap3") }), 201)
    const openedHere = async () => (await org.events("waitlist.opened")).filter((e) => e.data.session_id === session.id)
    ok(await org.call("PATCH", `/offerings/${offering.id}`, { name: "Renamed" }))
    expect(await openedHere()).toHaveLength(0)
    ok(await org.call("PATCH", `/offerings/${offering.id}`, { capacity: 2 }))
    const opened = await openedHere()
    expect(opened).toHaveLength(1)
    expect(opened[0].data).toMatchObject({ remaining: 1, told: 1, entry_ids: [one.id] })
    expect((await mailsTo("guestcap1@example.com", "waitlist.opened")).length).toBe(1)
    // Growing again without a booking in between tells the party that now fits, not the one already told.
    ok(await org.call("PATCH", `/offerings/${offering.id}`, { capacity: 4 }))
    const again = await openedHere()
    expect(again).toHaveLength(2)
    expect(again[1].data).toMatchObject({ remaining: 3, told: 1, entry_ids: [three.id] })
    ok(await org.call("PATCH", `/offerings/${offering.id}`, { capacity: 3 }))
    expect(await openedHere()).toHaveLength(2)

    // A series' own capacity.
    const o2 = await org.offering({ kind: "class", capacity: 1, waitlist_enabled: true })
    const day = (await org.sessions(offering.id))[0].starts_at.slice(0, 10)
    const entry = ok(
      await org.call("POST", "/series", {
        offering_id: o2.id,
        starts_on: day,
        start_time: "10:00",
        end_time: "11:00",
        repeat: "daily",
        ends_on: day
      }),
      201
    )
    const [t] = await org.sessions(o2.id)
    ok(await org.book({ offering_id: o2.id, session_id: t.id }), 201)
    const w = ok(await join({ session_id: t.id, places: 1, customer: guest("ser") }), 201)
    ok(await org.call("PATCH", `/series/${entry.id}`, { capacity: 2 }))
    const bySeries = (await org.events("waitlist.opened")).filter((e) => e.data.session_id === t.id)
    expect(bySeries.map((e) => e.data.entry_ids)).toEqual([[w.id]])
  })

  it("ends with called_off when the time is cancelled, and closed (with a mail) when the waitlist is switched off", async () => {
    const a = await org.classWithSession({ capacity: 1, waitlist_enabled: true })
    ok(await org.book({ offering_id: a.offering.id, session_id: a.session.id }), 201)
    const e1 = ok(await join({ session_id: a.session.id, customer: guest("c1") }), 201)
    ok(await org.call("POST", `/sessions/${a.session.id}/cancel`, {}))
    const b = await org.classWithSession({ capacity: 1, waitlist_enabled: true })
    ok(await org.book({ offering_id: b.offering.id, session_id: b.session.id }), 201)
    const e2 = ok(await join({ session_id: b.session.id, customer: guest("c2") }), 201)
    ok(await org.call("PATCH", `/offerings/${b.offering.id}`, { waitlist_enabled: false }))
    const reasons = (await org.events("waitlist.left"))
      .filter((e) => [e1.id, e2.id].includes(e.data.id))
      .map((e) => [e.data.id, e.data.reason])
    expect(reasons).toEqual([
      [e1.id, "called_off"],
      [e2.id, "closed"]
    ])
    expect((await mailsTo("guestc2@example.com", "waitlist.closed")).length).toBe(1)
  })
})

describe("the waitlist under a race", () => {
  it("50 guests waiting, 3 places open: exactly the fitting parties are told once, and parallel bookers take 3 places, never more", async () => {
    const { offering, session } = await org.classWithSession({
      capacity: 6,
      max_per_booking: 6,
      waitlist_enabled: true
    })
    const holder = ok(
      await org.book({ offering_id: offering.id, session_id: session.id, quantity: 3, customer: guest("race-holder") }),
      201
    )
    ok(
      await org.book({ offering_id: offering.id, session_id: session.id, quantity: 3, customer: guest("race-rest") }),
      201
    )
    const parties = Array.from({ length: 50 }, (_, i) => 1 + (i % 5))
    const entries = []
    for (const [i, places] of parties.entries())
      entries.push(ok(await join({ session_id: session.id, places, customer: guest(`race-${i}`) }), 201))
    ok(await org.act(holder.id, "cancel"))
    const opened = (await org.events("waitlist.opened")).filter((e) => e.data.session_id === session.id)
    expect(opened).toHaveLength(1)
    const fitting = entries
      .filter((e) => e.places <= 3)
      .map((e) => e.id)
      .sort()
    expect([...opened[0].data.entry_ids].sort()).toEqual(fitting)
    const results = await Promise.all(
      entries
        .map((e, i) => ({ e, i }))
        .filter(({ e }) => e.places <= 3)
        .map(({ e, i }) =>
          org.book({
            offering_id: offering.id,
            session_id: session.id,
            quantity: e.places,
            customer: guest(`race-${i}`)
          })
        )
    )
    const placesBooked = results.filter((r) => r.status === 201).reduce((n, r) => n + r.body.quantity, 0)
    expect(placesBooked).toBeLessThanOrEqual(3)
    expect(placesBooked).toBeGreaterThanOrEqual(1)
    expect(results.every((r) => r.status === 201 || r.body.error.code === "sold_out")).toBe(true)
    const [{ booked, cap }] = await sql(
      app,
      (s) => s<{ booked: number; cap: number }>`select booked, cap from sessions where id = ${session.id}`
    )
    expect(booked).toBeLessThanOrEqual(cap)
  })

  it("one guest joining ten times at once has one live entry, on the places of the last join to commit; none fails", async () => {
    const { offering, session } = await org.classWithSession({
      capacity: 1,
      max_per_booking: 10,
      waitlist_enabled: true
    })
    ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: guest("same-holder") }), 201)
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => join({ session_id: session.id, places: i + 1, customer: guest("same") }))
    )
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201))
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1)
    const live = await waiting(session.id)
    expect(live.map((e) => e.id)).toEqual([results[0].body.id])
    const joined = (await org.events("waitlist.joined")).filter((e) => e.data.session_id === session.id)
    expect(joined).toHaveLength(10)
    expect(live[0].places).toBe(joined[joined.length - 1].data.places)
  })

  it("joins racing a cancel: every guest told 201 is told of the opening, every later one is told has_room", async () => {
    for (let round = 0; round < 3; round++) {
      const { offering, session } = await org.classWithSession({ capacity: 1, waitlist_enabled: true })
      const holder = ok(
        await org.book({ offering_id: offering.id, session_id: session.id, customer: guest(`cancel-${round}`) }),
        201
      )
      const joins = Array.from({ length: 30 }, (_, i) =>
        join({ session_id: session.id, places: 1, customer: guest(`racer-${round}-${i}`) })
      )
      const [cancel, ...results] = await Promise.all([
        new Promise((r) => setTimeout(r, 5 * round)).then(() => org.act(holder.id, "cancel")),
        ...joins
      ])
      ok(cancel)
      for (const r of results) expect([201, 409]).toContain(r.status)
      for (const r of results.filter((r) => r.status === 409)) expect(r.body.error.code).toBe("has_room")
      const entered = results.filter((r) => r.status === 201).map((r) => r.body.id as string)
      const opened = (await org.events("waitlist.opened")).filter((e) => e.data.session_id === session.id)
      const told = opened.flatMap((e) => e.data.entry_ids as Array<string>)
      expect(told.sort()).toEqual(entered.sort())
    }
  })
})
