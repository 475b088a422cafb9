import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  bookedIn,
  bookingsOrg,
  expectError,
  guest,
  hoursAhead,
  type Json,
  ok,
  startPinned,
  type TestApp
} from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startPinned()
})
afterAll(() => app.close())

const DAY = 86_400_000
/** The local date of an instant in a zone, read from Intl. */
const localDate = (at: Date, zone: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at)
const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10)

describe("sessions.cancel with guests refund (the default)", () => {
  it("cancels every booking of the time: confirmed, keeping and lapsed holds", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 5, price_cents: 100 })
    const lapsed = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest(3) })
    await app.advance(16 * 60)
    const confirmed = await org.booked({ offering_id: offering.id, session_id: session.id })
    ok(await org.act(confirmed.id, "confirm"))
    const held = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest(2) })
    const cancelled = ok(await org.call("POST", `/sessions/${session.id}/cancel`, { note: "Flooded" }))
    expect(cancelled.status).toBe("cancelled")
    for (const id of [confirmed.id, held.id, lapsed.id]) {
      expect(ok(await org.get(id))).toMatchObject({
        status: "cancelled",
        choose_by: null,
        cancel_reason: "session_cancelled"
      })
      const mail = (await org.mails(id)).find((m) => m.kind === "booking.cancelled")!
      expect(mail.body).toContain("Flooded")
    }
    expect((await org.events("booking.cancelled")).map((e) => e.data.id).sort()).toEqual(
      [confirmed.id, held.id, lapsed.id].sort()
    )
    expect(await bookedIn(org, offering.id, session.id)).toBe(0)
    expect((await org.events("session.cancelled")).map((e) => e.data.id)).toEqual([session.id])
  })
})

describe("sessions.cancel with guests choose", () => {
  it("cancels holds; confirmed guests keep their booking without a place until choose_by, and pick or lose it", async () => {
    const zone = "Europe/Amsterdam"
    const org = await bookingsOrg(app, { timezone: zone })
    const o = await org.offering({ kind: "class", capacity: 4, max_per_booking: 3, price_cents: 100 })
    const now = await org.now()
    const s1 = await org.session(o.id, hoursAhead(now, 48))
    const s2 = await org.session(o.id, hoursAhead(now, 72))
    const s3 = await org.session(o.id, hoursAhead(now, 96), { capacity: 1 })
    const filler = await org.booked({ offering_id: o.id, session_id: s2.id, quantity: 3, customer: guest(9) })
    ok(await org.act(filler.id, "confirm"))
    const one = await org.booked({ offering_id: o.id, session_id: s1.id, quantity: 1, customer: guest(1) })
    const two = await org.booked({ offering_id: o.id, session_id: s1.id, quantity: 2, customer: guest(2) })
    ok(await org.act(one.id, "confirm"))
    ok(await org.act(two.id, "confirm"))
    ok(await org.act(two.id, "mark_paid"))
    const hold = await org.booked({ offering_id: o.id, session_id: s1.id, customer: guest(3) })

    const at = await org.now()
    const chooseBy = new Date(`${addDays(localDate(at, zone), 8)}T00:00:00+01:00`).toISOString()
    ok(await org.call("POST", `/sessions/${s1.id}/cancel`, { guests: "choose", note: "Teacher ill" }))
    expect(ok(await org.get(one.id))).toMatchObject({ status: "confirmed", choose_by: chooseBy, session_id: s1.id })
    expect(ok(await org.get(two.id))).toMatchObject({ status: "confirmed", choose_by: chooseBy, paid_cents: 200 })
    expect(ok(await org.get(hold.id)).status).toBe("cancelled")
    expect(await bookedIn(org, o.id, s1.id)).toBe(0)
    const calledOff = await org.events("booking.called_off")
    expect(calledOff.map((e) => [e.data.id, e.data.room, e.data.note, e.data.choose_by]).sort()).toEqual(
      [
        [one.id, true, "Teacher ill", chooseBy],
        [two.id, false, "Teacher ill", chooseBy]
      ].sort()
    )
    expect((await org.mails(one.id)).find((m) => m.kind === "booking.called_off")?.body).toContain("Teacher ill")

    const picked = ok(await org.act(one.id, "move", { session_id: s3.id }))
    expect(picked).toMatchObject({
      status: "confirmed",
      choose_by: null,
      session_id: s3.id,
      previous: { session_id: s1.id, starts_at: s1.starts_at, ends_at: s1.ends_at }
    })
    expect(await bookedIn(org, o.id, s3.id)).toBe(1)
    expect((await org.events("booking.moved")).map((e) => [e.data.id, e.data.choose_by])).toEqual([[one.id, null]])

    await app.advance(Math.ceil((Date.parse(chooseBy) - (await org.now()).getTime()) / 1000) - 60)
    expect(ok(await org.get(two.id)).status).toBe("confirmed")
    await app.advance(60)
    expect(ok(await org.get(two.id))).toMatchObject({
      status: "cancelled",
      choose_by: null,
      cancel_reason: "choose_by_passed"
    })
    expect(ok(await org.get(one.id)).status).toBe("confirmed")
    const cancelled = (await org.events("booking.cancelled")).map((e) => e.data.id)
    expect(cancelled.sort()).toEqual([hold.id, two.id].sort())
    expectError(await org.act(two.id, "move", { session_id: s2.id }), 409, "booking_cancelled")
  })

  it("a guest may not pick a time once choose_by has passed; room is false without another time to come", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 2 })
    const b = await org.booked({ offering_id: offering.id, session_id: session.id })
    ok(await org.call("POST", `/sessions/${session.id}/cancel`, { guests: "choose" }))
    const [event] = (await org.events("booking.called_off")).filter((e) => e.data.id === b.id)
    expect(event.data).toMatchObject({ room: false, note: null })
    expectError(await org.act(b.id, "move", { session_id: session.id }), 409, "time_not_available")
  })

  it("sessions.cancel again: with choose it changes nothing; with refund it cancels whoever is still choosing", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 4 })
    const other = await org.session(offering.id, hoursAhead(await org.now(), 90))
    const stays = await org.booked({ offering_id: offering.id, session_id: session.id })
    const moves = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest(2) })
    ok(await org.call("POST", `/sessions/${session.id}/cancel`, { guests: "choose" }))
    ok(await org.act(moves.id, "move", { session_id: other.id }))
    const before = (await org.events()).length
    ok(await org.call("POST", `/sessions/${session.id}/cancel`, { guests: "choose" }))
    expect(ok(await org.get(stays.id)).choose_by).not.toBeNull()
    expect((await org.events()).length).toBe(before)
    ok(await org.call("POST", `/sessions/${session.id}/cancel`, { guests: "refund" }))
    expect(ok(await org.get(stays.id))).toMatchObject({ status: "cancelled", choose_by: null })
    expect(ok(await org.get(moves.id))).toMatchObject({ status: "confirmed", session_id: other.id })
    expect((await org.events("booking.cancelled")).map((e) => e.data.id)).toEqual([stays.id])
  })
})

describe("a course losing one of its times", () => {
  it("stays confirmed without a refund (booking.session_cancelled with data.session); loses its first time to the next", async () => {
    const org = await bookingsOrg(app)
    const { offering, series, sessions } = await org.course({ capacity: 3, price_cents: 3000 }, 3)
    const b = await org.booked({ offering_id: offering.id, series_id: series.id })
    ok(await org.act(b.id, "confirm"))
    ok(await org.call("POST", `/sessions/${sessions[1].id}/cancel`, { note: "Holiday" }))
    expect(ok(await org.get(b.id))).toMatchObject({
      status: "confirmed",
      total_cents: 3000,
      session_id: sessions[0].id,
      starts_at: sessions[0].starts_at,
      refund_cents: null
    })
    ok(await org.call("POST", `/sessions/${sessions[0].id}/cancel`, { guests: "choose" }))
    expect(ok(await org.get(b.id))).toMatchObject({
      status: "confirmed",
      choose_by: null,
      session_id: sessions[2].id,
      starts_at: sessions[2].starts_at,
      ends_at: sessions[2].ends_at
    })
    const events = await org.events("booking.session_cancelled")
    expect(events.map((e) => [e.data.id, e.data.session, e.data.note])).toEqual([
      [b.id, { id: sessions[1].id, starts_at: sessions[1].starts_at, ends_at: sessions[1].ends_at }, "Holiday"],
      [b.id, { id: sessions[0].id, starts_at: sessions[0].starts_at, ends_at: sessions[0].ends_at }, null]
    ])
    expect((await org.sessions(offering.id)).map((s: Json) => [s.status, s.booked])).toEqual([
      ["cancelled", 0],
      ["cancelled", 0],
      ["scheduled", 1]
    ])
    expect((await org.events("booking.cancelled")).length).toBe(0)
  })

  it("a held course booking whose first time is cancelled keeps its hold and starts at the next time", async () => {
    const org = await bookingsOrg(app)
    const { offering, series, sessions } = await org.course({ capacity: 3, price_cents: 3000 }, 3)
    const b = await org.booked({ offering_id: offering.id, series_id: series.id })
    expect(b.status).toBe("held")
    ok(await org.call("POST", `/sessions/${sessions[0].id}/cancel`, {}))
    expect(ok(await org.get(b.id))).toMatchObject({
      status: "held",
      session_id: sessions[1].id,
      starts_at: sessions[1].starts_at
    })
    expect((await org.events("booking.session_cancelled")).map((e) => e.data.id)).toEqual([b.id])
    expect(ok(await org.act(b.id, "confirm"))).toMatchObject({ status: "confirmed", session_id: sessions[1].id })
    expect((await org.sessions(offering.id)).map((s: Json) => [s.status, s.booked])).toEqual([
      ["cancelled", 0],
      ["scheduled", 1],
      ["scheduled", 1]
    ])
  })
})

describe("offerings.delete", () => {
  it("with upcoming bookings or live holds is 409 offering_has_bookings naming counts; cancel_bookings=true cancels them", async () => {
    const org = await bookingsOrg(app)
    const o = await org.offering({ kind: "class", capacity: 5, price_cents: 100 })
    const soon = await org.session(o.id, hoursAhead(await org.now(), 1))
    const past = await org.booked({ offering_id: o.id, session_id: soon.id, customer: guest(5) })
    ok(await org.act(past.id, "confirm"))
    const lapsedSession = await org.session(o.id, hoursAhead(await org.now(), 30))
    const lapsed = await org.booked({ offering_id: o.id, session_id: lapsedSession.id, customer: guest(4) })
    await app.advance(3 * 3600)
    const session = await org.session(o.id, hoursAhead(await org.now(), 24))
    const confirmed = await org.booked({ offering_id: o.id, session_id: session.id })
    ok(await org.act(confirmed.id, "confirm"))
    const held = await org.booked({ offering_id: o.id, session_id: session.id, customer: guest(2) })
    const refused = await org.call("DELETE", `/offerings/${o.id}`)
    expectError(refused, 409, "offering_has_bookings")
    expect(refused.body.error.message).toContain("1 upcoming booking(s) and 1 live hold(s)")
    expectError(await org.call("DELETE", `/offerings/${o.id}?cancel_bookings=false`), 409, "offering_has_bookings")
    expect(ok(await org.get(confirmed.id)).status).toBe("confirmed")
    expect(ok(await org.call("DELETE", `/offerings/${o.id}?cancel_bookings=true`))).toEqual({
      cancelled: 2,
      refunded: 0,
      refunding: 0,
      refund_failed: 0
    })
    for (const id of [confirmed.id, held.id])
      expect(ok(await org.get(id))).toMatchObject({ status: "cancelled", cancel_reason: "offering_deleted" })
    expect(ok(await org.get(past.id)).status).toBe("confirmed")
    expect(ok(await org.get(lapsed.id)).status).toBe("held")
    expect((await org.events("booking.cancelled")).map((e) => e.data.id).sort()).toEqual([confirmed.id, held.id].sort())
    expect(await org.mailKinds(confirmed.id)).toEqual(["booking.cancelled", "booking.confirmed", "booking.held"])
    expectError(await org.call("DELETE", `/offerings/${o.id}`), 404, "not_found")
  })

  it("without bookings deletes at once", async () => {
    const org = await bookingsOrg(app)
    const { offering } = await org.classWithSession()
    expect(ok(await org.call("DELETE", `/offerings/${offering.id}`))).toEqual({
      cancelled: 0,
      refunded: 0,
      refunding: 0,
      refund_failed: 0
    })
  })
})

describe("series.delete", () => {
  it("with booked future times is 409 series_has_bookings; cancel_bookings=true cancels their bookings and counts the booked times", async () => {
    const org = await bookingsOrg(app)
    const o = await org.offering({ kind: "class", capacity: 5 })
    const startsOn = new Date((await org.now()).getTime() + 2 * DAY).toISOString().slice(0, 10)
    const entry = ok(
      await org.call("POST", "/series", {
        offering_id: o.id,
        starts_on: startsOn,
        start_time: "18:00",
        end_time: "19:00",
        repeat: "weekly"
      }),
      201
    )
    const times = await org.sessions(o.id)
    const a = await org.booked({ offering_id: o.id, session_id: times[0].id })
    const b = await org.booked({ offering_id: o.id, session_id: times[1].id, quantity: 1, customer: guest(2) })
    const c = await org.booked({ offering_id: o.id, session_id: times[1].id, quantity: 1, customer: guest(3) })
    const d = await org.booked({ offering_id: o.id, session_id: times[1].id, quantity: 1, customer: guest(4) })
    ok(await org.act(d.id, "cancel"))
    expectError(await org.call("DELETE", `/series/${entry.id}`), 409, "series_has_bookings")
    // Three bookings on two booked times: `cancelled` counts the times, as the spec names it.
    expect(ok(await org.call("DELETE", `/series/${entry.id}?cancel_bookings=true`))).toEqual({ cancelled: 2 })
    for (const id of [a.id, b.id, c.id])
      expect(ok(await org.get(id))).toMatchObject({ status: "cancelled", cancel_reason: "series_deleted" })
    expect((await org.events("booking.cancelled")).map((e) => e.data.id).sort()).toEqual(
      [a.id, b.id, c.id, d.id].sort()
    )
    expect(await org.sessions(o.id)).toEqual([])
  })

  it("a course's entry: its course bookings are cancelled", async () => {
    const org = await bookingsOrg(app)
    const { offering, series } = await org.course({ capacity: 3 })
    const b = await org.booked({ offering_id: offering.id, series_id: series.id, quantity: 2 })
    expectError(await org.call("DELETE", `/series/${series.id}`), 409, "series_has_bookings")
    // One course booking holds a seat in each of its three times: three booked times.
    expect(ok(await org.call("DELETE", `/series/${series.id}?cancel_bookings=true`))).toEqual({ cancelled: 3 })
    expect(ok(await org.get(b.id)).status).toBe("cancelled")
  })
})
