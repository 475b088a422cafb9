import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  bookedIn,
  bookingsOrg,
  expectError,
  expireInPlace,
  guest,
  hoursAhead,
  type Json,
  ok,
  startPinned,
  type TestApp,
  utcAt
} from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startPinned()
})
afterAll(() => app.close())

const MIN = 60_000
const secondsUntil = async (org: { now: () => Promise<Date> }, at: string | Date) =>
  Math.ceil((new Date(at).getTime() - (await org.now()).getTime()) / 1000)

describe("confirm", () => {
  it("a keeping hold is confirmed: confirmed_at set, expires_at cleared, event and mail", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 2, price_cents: 900 })
    const held = await org.booked({ offering_id: offering.id, session_id: session.id })
    await app.advance(60)
    const now = await org.now()
    const res = ok(await org.act(held.id, "confirm"))
    expect(res).toMatchObject({
      status: "confirmed",
      expires_at: null,
      confirmed_at: now.toISOString(),
      total_cents: 900
    })
    expect(await org.mailKinds(held.id)).toEqual(["booking.held", "booking.confirmed"].sort())
    const events = (await org.events()).filter((e) => e.data.id === held.id)
    expect(events.map((e) => e.type)).toEqual(["booking.held", "booking.confirmed"])
    expect(events[1].data).toMatchObject({ status: "confirmed", confirmed_at: now.toISOString() })
    expectError(await org.act(held.id, "confirm"), 409, "booking_not_held")
  })

  it("a free booking is already confirmed (booking_not_held); a cancelled one is booking_cancelled", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession()
    const b = await org.booked({ offering_id: offering.id, session_id: session.id })
    expectError(await org.act(b.id, "confirm"), 409, "booking_not_held")
    ok(await org.act(b.id, "cancel"))
    expectError(await org.act(b.id, "confirm"), 409, "booking_cancelled")
  })

  it("a lapsed hold is confirmed when its place is still free, and is 409 sold_out when it was taken", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 1, price_cents: 900 })
    const first = await org.booked({ offering_id: offering.id, session_id: session.id })
    await app.advance(16 * 60)
    expect(ok(await org.get(first.id))).toMatchObject({ status: "held" })
    expect(ok(await org.act(first.id, "confirm"))).toMatchObject({ status: "confirmed", expires_at: null })
    expect(await bookedIn(org, offering.id, session.id)).toBe(1)

    const other = await org.classWithSession({ capacity: 1, price_cents: 900 })
    const lapsed = await org.booked({ offering_id: other.offering.id, session_id: other.session.id })
    await app.advance(16 * 60)
    const taker = await org.booked({ offering_id: other.offering.id, session_id: other.session.id, customer: guest(2) })
    expectError(await org.act(lapsed.id, "confirm"), 409, "sold_out")
    expect(ok(await org.get(lapsed.id)).status).toBe("held")
    ok(await org.act(taker.id, "cancel"))
    expect(ok(await org.act(lapsed.id, "confirm")).status).toBe("confirmed")
    expect(await bookedIn(org, other.offering.id, other.session.id)).toBe(1)
  })

  it("a lapsed hold is re-placed where it was: a rental keeps its periods and items", async () => {
    const org = await bookingsOrg(app)
    const kayak = await org.rental({ capacity: 2, price_cents: 100, max_per_booking: 2 })
    const now = await org.now()
    const hold = await org.booked({
      offering_id: kayak.id,
      starts_at: utcAt(now, 2, "09:00").toISOString(),
      periods: 2,
      quantity: 2
    })
    await app.advance(16 * 60)
    const other = await org.book({
      offering_id: kayak.id,
      starts_at: utcAt(now, 3, "09:00").toISOString(),
      customer: guest(2)
    })
    expect(other.status).toBe(201)
    expectError(await org.act(hold.id, "confirm"), 409, "sold_out")
    ok(await org.act(other.body.id, "cancel"))
    expect(ok(await org.act(hold.id, "confirm"))).toMatchObject({
      status: "confirmed",
      starts_at: hold.starts_at,
      ends_at: hold.ends_at,
      quantity: 2
    })
  })
})

describe("cancel", () => {
  it("frees the place and writes booking.cancelled; refund_cents and reason are kept", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 1 })
    const b = await org.booked({ offering_id: offering.id, session_id: session.id })
    const now = await org.now()
    const res = ok(await org.act(b.id, "cancel", { refund_cents: 0, reason: "changed plans" }))
    expect(res).toMatchObject({
      status: "cancelled",
      cancelled_at: now.toISOString(),
      refund_cents: 0,
      cancel_reason: "changed plans",
      choose_by: null
    })
    expect(await bookedIn(org, offering.id, session.id)).toBe(0)
    await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest(2) })
    expectError(await org.act(b.id, "cancel"), 409, "booking_cancelled")
    expect(await org.mailKinds(b.id)).toEqual(["booking.confirmed", "booking.cancelled"].sort())
    expect((await org.events("booking.cancelled")).map((e) => e.data.id)).toEqual([b.id])
  })

  it("cancels a hold, keeping or lapsed; refund_cents null means the whole payment", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ price_cents: 100 })
    const keeping = await org.booked({ offering_id: offering.id, session_id: session.id })
    expect(ok(await org.act(keeping.id, "cancel", { refund_cents: null }))).toMatchObject({
      status: "cancelled",
      refund_cents: null,
      expires_at: null
    })
    const lapsing = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest(2) })
    await app.advance(16 * 60)
    expect(ok(await org.act(lapsing.id, "cancel")).status).toBe("cancelled")
    expect(await bookedIn(org, offering.id, session.id)).toBe(0)
  })

  it("bad bodies are 400 and change nothing", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession()
    const b = await org.booked({ offering_id: offering.id, session_id: session.id })
    const cases: Array<[unknown, string]> = [
      [{ refund_cents: -1 }, "invalid_refund_cents"],
      [{ refund_cents: 1.5 }, "invalid_refund_cents"],
      [{ refund_cents: "all" }, "invalid_refund_cents"],
      [{ reason: "x".repeat(501) }, "invalid_reason"],
      [{ reason: 7 }, "invalid_reason"],
      [{ refund: 0 }, "unknown_field"]
    ]
    for (const [body, code] of cases) expectError(await org.act(b.id, "cancel", body), 400, code)
    expectError(await org.call("POST", "/bookings/not-a-uuid/cancel", {}), 400, "invalid_id")
    expectError(await org.call("POST", "/bookings/00000000-0000-4000-8000-000000000000/cancel", {}), 404, "not_found")
    expect(ok(await org.get(b.id)).status).toBe("confirmed")
  })
})

describe("move", () => {
  it("moves a class booking to another time in place, with data.previous on booking.moved", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 2, max_per_booking: 2 })
    const later = await org.session(offering.id, hoursAhead(await org.now(), 72))
    const b = await org.booked({ offering_id: offering.id, session_id: session.id, quantity: 2 })
    const moved = ok(await org.act(b.id, "move", { session_id: later.id }))
    const previous = { starts_at: session.starts_at, ends_at: session.ends_at, session_id: session.id }
    expect(moved).toMatchObject({
      id: b.id,
      status: "confirmed",
      session_id: later.id,
      starts_at: later.starts_at,
      ends_at: later.ends_at,
      previous
    })
    expect(await bookedIn(org, offering.id, session.id)).toBe(0)
    expect(await bookedIn(org, offering.id, later.id)).toBe(2)
    const back = ok(await org.act(b.id, "move", { starts_at: session.starts_at }))
    expect(back).toMatchObject({
      session_id: session.id,
      previous: { starts_at: later.starts_at, ends_at: later.ends_at, session_id: later.id }
    })
    const events = await org.events("booking.moved")
    expect(events.map((e) => e.data.previous)).toEqual([previous, back.previous])
    expect(await org.mailKinds(b.id)).toEqual(["booking.confirmed", "booking.moved", "booking.moved"].sort())
  })

  it("moving to a full time is 409 sold_out; within its own time it counts itself once", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 2, max_per_booking: 2 })
    const full = await org.session(offering.id, hoursAhead(await org.now(), 72))
    await org.booked({ offering_id: offering.id, session_id: full.id, quantity: 2, customer: guest(2) })
    const b = await org.booked({ offering_id: offering.id, session_id: session.id, quantity: 2 })
    expectError(await org.act(b.id, "move", { session_id: full.id }), 409, "sold_out")
    expect(ok(await org.get(b.id)).session_id).toBe(session.id)
    expect(ok(await org.act(b.id, "move", { session_id: session.id })).session_id).toBe(session.id)
  })

  it("refusals: a course booking (course_booking), a cancelled one, a lapsed hold, a bad target", async () => {
    const org = await bookingsOrg(app)
    const course = await org.course()
    const cb = await org.booked({ offering_id: course.offering.id, series_id: course.series.id })
    expectError(await org.act(cb.id, "move", { session_id: course.sessions[1].id }), 409, "course_booking")

    const { offering, session } = await org.classWithSession({ price_cents: 100 })
    const other = await org.session(offering.id, hoursAhead(await org.now(), 80))
    const b = await org.booked({ offering_id: offering.id, session_id: session.id })
    expectError(await org.act(b.id, "move", {}), 400, "invalid_body")
    expectError(await org.act(b.id, "move", { session_id: "x" }), 400, "invalid_session_id")
    expectError(await org.act(b.id, "move", { starts_at: "soon" }), 400, "invalid_starts_at")
    expectError(await org.act(b.id, "move", { session: other.id }), 400, "unknown_field")
    expectError(
      await org.act(b.id, "move", { starts_at: hoursAhead(await org.now(), 100).toISOString() }),
      409,
      "time_not_available"
    )
    expectError(await org.act(b.id, "move", { session_id: course.sessions[0].id }), 409, "time_not_available")
    const moved = ok(await org.act(b.id, "move", { session_id: other.id }))
    expect(moved).toMatchObject({ status: "held", session_id: other.id })
    await app.advance(16 * 60)
    expectError(await org.act(b.id, "move", { session_id: session.id }), 409, "hold_lapsed")
    ok(await org.act(b.id, "cancel"))
    expectError(await org.act(b.id, "move", { session_id: session.id }), 409, "booking_cancelled")
  })

  it("a move outside the booking window is 409 outside_booking_window", async () => {
    const org = await bookingsOrg(app)
    const o = await org.offering({ kind: "class", min_notice_minutes: 600 })
    const now = await org.now()
    const near = await org.session(o.id, hoursAhead(now, 2))
    const ok1 = await org.session(o.id, hoursAhead(now, 48))
    const b = await org.booked({ offering_id: o.id, session_id: ok1.id })
    expectError(await org.act(b.id, "move", { session_id: near.id }), 409, "outside_booking_window")
  })

  it("moves appointments on weekly hours and rentals by starts_at, keeping the length", async () => {
    const org = await bookingsOrg(app)
    const now = await org.now()
    const cut = await org.hoursAppointment({ capacity: 1 })
    const a = await org.booked({ offering_id: cut.id, starts_at: utcAt(now, 2, "10:00").toISOString() })
    const b = await org.booked({
      offering_id: cut.id,
      starts_at: utcAt(now, 2, "12:00").toISOString(),
      customer: guest(2)
    })
    expectError(await org.act(a.id, "move", { starts_at: b.starts_at }), 409, "sold_out")
    expectError(
      await org.act(a.id, "move", { starts_at: utcAt(now, 2, "12:30").toISOString() }),
      409,
      "time_not_available"
    )
    expect(ok(await org.act(a.id, "move", { starts_at: utcAt(now, 2, "11:00").toISOString() }))).toMatchObject({
      starts_at: utcAt(now, 2, "11:00").toISOString(),
      ends_at: utcAt(now, 2, "12:00").toISOString()
    })
    const kayak = await org.rental({ capacity: 1 })
    const r = await org.booked({ offering_id: kayak.id, starts_at: utcAt(now, 2, "09:00").toISOString(), periods: 3 })
    const moved = ok(await org.act(r.id, "move", { starts_at: utcAt(now, 3, "09:00").toISOString() }))
    expect(moved).toMatchObject({
      starts_at: utcAt(now, 3, "09:00").toISOString(),
      ends_at: utcAt(now, 6, "09:00").toISOString()
    })
    expect(
      (await org.book({ offering_id: kayak.id, starts_at: utcAt(now, 2, "09:00").toISOString(), customer: guest(3) }))
        .status
    ).toBe(201)
  })
})

describe("attendance", () => {
  it("check-in, no-show once started, clear; never both set; each with its event", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({}, 2)
    const b = await org.booked({ offering_id: offering.id, session_id: session.id })
    const t0 = await org.now()
    expect(ok(await org.act(b.id, "attendance", { attendance: "checked_in" }))).toMatchObject({
      checked_in_at: t0.toISOString(),
      no_show_at: null
    })
    expectError(await org.act(b.id, "attendance", { attendance: "no_show" }), 409, "not_started")
    await app.advance(await secondsUntil(org, session.starts_at))
    const t1 = await org.now()
    expect(ok(await org.act(b.id, "attendance", { attendance: "no_show" }))).toMatchObject({
      no_show_at: t1.toISOString(),
      checked_in_at: null
    })
    expect(ok(await org.act(b.id, "attendance", { attendance: "checked_in" }))).toMatchObject({
      checked_in_at: t1.toISOString(),
      no_show_at: null
    })
    expect(ok(await org.act(b.id, "attendance", { attendance: "clear" }))).toMatchObject({
      checked_in_at: null,
      no_show_at: null
    })
    const types = (await org.events()).filter((e) => e.data.id === b.id).map((e) => e.type)
    expect(types).toEqual([
      "booking.confirmed",
      "booking.checked_in",
      "booking.no_show",
      "booking.checked_in",
      "booking.attendance_cleared"
    ])
  })

  it("a hold or a cancelled booking has no attendance; bad bodies are 400", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ price_cents: 100 })
    const b = await org.booked({ offering_id: offering.id, session_id: session.id })
    expectError(await org.act(b.id, "attendance", { attendance: "checked_in" }), 409, "booking_not_confirmed")
    for (const body of [{}, { attendance: "late" }, { attendance: null }])
      expectError(await org.act(b.id, "attendance", body), 400, "invalid_attendance")
    expectError(await org.act(b.id, "attendance", { attendance: "clear", at: "now" }), 400, "unknown_field")
    ok(await org.act(b.id, "cancel"))
    expectError(await org.act(b.id, "attendance", { attendance: "clear" }), 409, "booking_cancelled")
  })
})

describe("mark paid by hand", () => {
  it("sets paid_at and paid_cents (the total unless told); mark_unpaid takes it back", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ price_cents: 2500 })
    const b = await org.booked({ offering_id: offering.id, session_id: session.id, quantity: 2 })
    expectError(await org.act(b.id, "mark_paid"), 409, "booking_not_confirmed")
    ok(await org.act(b.id, "confirm"))
    expectError(await org.act(b.id, "mark_paid", { paid_cents: 5001 }), 400, "invalid_paid_cents")
    expectError(await org.act(b.id, "mark_paid", { paid_cents: -1 }), 400, "invalid_paid_cents")
    expectError(await org.act(b.id, "mark_paid", { paid: 1 }), 400, "unknown_field")
    expectError(await org.act(b.id, "mark_unpaid"), 409, "not_paid_by_hand")
    const now = await org.now()
    expect(ok(await org.act(b.id, "mark_paid", { paid_cents: 2000 }))).toMatchObject({
      paid_at: now.toISOString(),
      paid_cents: 2000,
      payment_intent_id: null,
      status: "confirmed"
    })
    expectError(await org.act(b.id, "mark_paid"), 409, "already_paid")
    expect(ok(await org.act(b.id, "mark_unpaid"))).toMatchObject({ paid_at: null, paid_cents: null })
    expect(ok(await org.act(b.id, "mark_paid"))).toMatchObject({ paid_cents: 5000 })
    const events = (await org.events()).filter((e) => e.data.id === b.id)
    expect(events.map((e) => e.type)).toEqual([
      "booking.held",
      "booking.confirmed",
      "booking.paid",
      "booking.unpaid",
      "booking.paid"
    ])
    expect(events[2].data.paid_at).toBe(now.toISOString())
  })
})

describe("nudge and resend", () => {
  it("nudge is for a lapsed hold, once: a keeping hold is hold_not_lapsed, a confirmed one booking_not_held", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ price_cents: 100 })
    const hold = await org.booked({ offering_id: offering.id, session_id: session.id })
    expectError(await org.act(hold.id, "nudge"), 409, "hold_not_lapsed")
    await app.advance(15 * 60)
    const lapsed = ok(await org.get(hold.id))
    expect(lapsed.nudged_at).not.toBeNull()
    expectError(await org.act(hold.id, "nudge"), 409, "already_nudged")
    const free = await org.classWithSession()
    const c = await org.booked({ offering_id: free.offering.id, session_id: free.session.id })
    expectError(await org.act(c.id, "nudge"), 409, "booking_not_held")
  })

  it("resend mails the guest their page again and changes nothing; not for a cancelled booking", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession()
    const b = await org.booked({ offering_id: offering.id, session_id: session.id })
    const res = ok(await org.act(b.id, "resend"))
    expect("handle" in res).toBe(false)
    expect(res).toEqual(ok(await org.get(b.id)))
    const mails = await org.mails(b.id)
    expect(mails.map((m) => m.kind).sort()).toEqual(["booking.confirmed", "booking.resend"])
    expect(mails.find((m) => m.kind === "booking.resend")?.body).toContain(`/b/${await org.handle(b.id)}`)
    expect((await app.call(org.key, "POST", `/api/v1/bookings/${b.id}/resend`)).status).toBe(200)
    expect(await org.mailKinds(b.id)).toEqual(["booking.confirmed", "booking.resend", "booking.resend"])
    ok(await org.act(b.id, "cancel"))
    expectError(await org.act(b.id, "resend"), 409, "booking_cancelled")
    expect((await org.events()).filter((e) => e.data.id === b.id).map((e) => e.type)).toEqual([
      "booking.confirmed",
      "booking.cancelled"
    ])
  })
})

describe("events and the handle", () => {
  it("every transition writes its event with the booking after it, and no event or response carries the handle", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ price_cents: 100, capacity: 5 }, 3)
    const later = await org.session(offering.id, hoursAhead(await org.now(), 30))
    const b = await org.booked({ offering_id: offering.id, session_id: session.id })
    const seen: Json[] = [b]
    seen.push(ok(await org.act(b.id, "move", { session_id: later.id })))
    seen.push(ok(await org.act(b.id, "confirm")))
    seen.push(ok(await org.act(b.id, "mark_paid")))
    seen.push(ok(await org.act(b.id, "mark_unpaid")))
    seen.push(ok(await org.act(b.id, "attendance", { attendance: "checked_in" })))
    seen.push(ok(await org.act(b.id, "attendance", { attendance: "clear" })))
    seen.push(ok(await org.act(b.id, "resend")))
    seen.push(ok(await org.list({ offering_id: offering.id })))
    seen.push(ok(await org.act(b.id, "cancel")))
    const events = (await org.events()).filter((e) => e.type.startsWith("booking."))
    expect(events.map((e) => e.type)).toEqual([
      "booking.held",
      "booking.moved",
      "booking.confirmed",
      "booking.paid",
      "booking.unpaid",
      "booking.checked_in",
      "booking.attendance_cleared",
      "booking.cancelled"
    ])
    for (const e of events) expect(e.data.id).toBe(b.id)
    expect(events[7].data.status).toBe("cancelled")
    const handle = await org.handle(b.id)
    expect(handle.length).toBeGreaterThanOrEqual(20)
    expect(JSON.stringify([seen, events])).not.toContain(handle)
    for (const e of events) expect("handle" in e.data).toBe(false)
  })
})

describe("a hold in place past expires_at", () => {
  it("stops counting at once (before the job); the booking that needs its place lapses it (guest nudged once); confirm then needs its place", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 1, price_cents: 100 })
    const hold = await org.booked({ offering_id: offering.id, session_id: session.id })
    await expireInPlace(app, hold.id, new Date((await org.now()).getTime() - MIN))
    expect(await bookedIn(org, offering.id, session.id)).toBe(0)
    const taker = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest(2) })
    expect(ok(await org.call("GET", `/bookings/${hold.id}`)).nudged_at).not.toBeNull()
    expectError(await org.act(hold.id, "confirm"), 409, "sold_out")
    expectError(await org.act(hold.id, "move", { session_id: session.id }), 409, "hold_lapsed")
    expectError(await org.act(hold.id, "nudge"), 409, "already_nudged")
    await app.advance(60)
    expect((await org.events("booking.nudged")).map((e) => e.data.id)).toEqual([hold.id])
    expect(await org.mailKinds(hold.id)).toEqual(["booking.held", "booking.nudged"].sort())
    expect(await bookedIn(org, offering.id, session.id)).toBe(1)
    ok(await org.act(taker.id, "cancel"))
    expect(ok(await org.act(hold.id, "confirm")).status).toBe("confirmed")
  })
})
