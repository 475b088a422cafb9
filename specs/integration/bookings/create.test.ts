import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql } from "../../support/app.ts"
import {
  bookedIn,
  bookingsOrg,
  expectError,
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
const countRows = async (orgId: string) =>
  (
    await sql(
      app,
      (s) => s<{ b: number; c: number; m: number }>`select
    (select count(*)::int from bookings where org_id = ${orgId}) as b,
    (select count(*)::int from customers where org_id = ${orgId}) as c,
    (select count(*)::int from mail_outbox where org_id = ${orgId}) as m`
    )
  )[0]

describe("a class seat", () => {
  it("free: confirmed at once, source api, with a reference and no handle; the guest's email has the page link", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 4 })
    const now = await org.now()
    const res = await org.book({
      offering_id: offering.id,
      session_id: session.id,
      quantity: 3,
      notes: "window seat",
      metadata: { crm: "x1" }
    })
    expect(res.status).toBe(201)
    const b = res.body
    expect(b).toMatchObject({
      status: "confirmed",
      quantity: 3,
      total_cents: 0,
      source: "api",
      session_id: session.id,
      series_id: null,
      offering_id: offering.id,
      starts_at: session.starts_at,
      ends_at: session.ends_at,
      expires_at: null,
      confirmed_at: now.toISOString(),
      created_at: now.toISOString(),
      notes: "window seat",
      metadata: { crm: "x1" },
      answers: {},
      discount_cents: 0,
      promo_code: null,
      cancelled_at: null,
      choose_by: null,
      checked_in_at: null,
      no_show_at: null,
      paid_at: null,
      nudged_at: null,
      waiver: null
    })
    expect(b.reference).toMatch(/^[A-Z2-9]{8}$/)
    expect("handle" in b).toBe(false)
    const handle = await org.handle(b.id)
    expect(JSON.stringify(b)).not.toContain(handle)
    const mails = await org.mails(b.id)
    expect(mails.map((m) => m.kind)).toEqual(["booking.confirmed"])
    expect(mails[0].to_address).toBe("guest1@example.com")
    expect(mails[0].body).toContain(`/b/${handle}`)
    expect(await bookedIn(org, offering.id, session.id)).toBe(3)
    const fetched = ok(await org.get(b.id))
    expect("handle" in fetched).toBe(false)
    expect(JSON.stringify(fetched)).not.toContain(handle)
  })

  it("books a session by its starts_at as well as by session_id", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession()
    const b = await org.booked({ offering_id: offering.id, starts_at: session.starts_at })
    expect(b.session_id).toBe(session.id)
  })

  it("priced: held for 15 minutes at price_cents per seat; hold_minutes asks for less; the hold keeps its place", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 3, price_cents: 1500 })
    const now = await org.now()
    const held = await org.booked({ offering_id: offering.id, session_id: session.id, quantity: 2 })
    expect(held).toMatchObject({
      status: "held",
      total_cents: 3000,
      confirmed_at: null,
      expires_at: new Date(now.getTime() + 15 * MIN).toISOString()
    })
    const short = await org.booked({
      offering_id: offering.id,
      session_id: session.id,
      hold_minutes: 1,
      customer: guest(2)
    })
    expect(short.expires_at).toBe(new Date(now.getTime() + MIN).toISOString())
    expect(await bookedIn(org, offering.id, session.id)).toBe(3)
    expectError(
      await org.book({ offering_id: offering.id, session_id: session.id, customer: guest(3) }),
      409,
      "sold_out"
    )
    expect(await org.mailKinds(held.id)).toEqual(["booking.held"].sort())
    for (const minutes of [0, 31, 1.5, "5"]) {
      expectError(
        await org.book({ offering_id: offering.id, session_id: session.id, hold_minutes: minutes }),
        400,
        "invalid_hold_minutes"
      )
    }
  })

  it("refuses more seats than are left with 409 sold_out and writes nothing", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 3, max_per_booking: 5 })
    await org.booked({ offering_id: offering.id, session_id: session.id, quantity: 2 })
    const before = await countRows(org.id)
    expectError(
      await org.book({ offering_id: offering.id, session_id: session.id, quantity: 2, customer: guest(9) }),
      409,
      "sold_out"
    )
    expect(await countRows(org.id)).toEqual(before)
    await org.booked({ offering_id: offering.id, session_id: session.id, quantity: 1, customer: guest(9) })
    expect(await bookedIn(org, offering.id, session.id)).toBe(3)
  })

  it("a session's own capacity overrides the class's", async () => {
    const org = await bookingsOrg(app)
    const o = await org.offering({ kind: "class", capacity: 10 })
    const session = await org.session(o.id, hoursAhead(await org.now(), 30), { capacity: 1 })
    await org.booked({ offering_id: o.id, session_id: session.id })
    expectError(await org.book({ offering_id: o.id, session_id: session.id, customer: guest(2) }), 409, "sold_out")
  })

  it("quantity above max_per_booking is 400 invalid_quantity", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 10, max_per_booking: 2 })
    const res = await org.book({ offering_id: offering.id, session_id: session.id, quantity: 3 })
    expectError(res, 400, "invalid_quantity")
    expect(res.body.error.message).toContain("2")
  })

  it("a cancelled or unknown time is 409 time_not_available; no time at all is 400", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession()
    const other = await org.session(offering.id, hoursAhead(await org.now(), 72))
    ok(await org.call("POST", `/sessions/${other.id}/cancel`, {}))
    expectError(await org.book({ offering_id: offering.id, session_id: other.id }), 409, "time_not_available")
    expectError(
      await org.book({ offering_id: offering.id, starts_at: hoursAhead(await org.now(), 49).toISOString() }),
      409,
      "time_not_available"
    )
    const foreign = await org.classWithSession()
    expectError(await org.book({ offering_id: offering.id, session_id: foreign.session.id }), 409, "time_not_available")
    expectError(await org.book({ offering_id: offering.id }), 400, "invalid_session_id")
    expect(session.id).toBeDefined()
  })
})

describe("the booking window and a paused offering", () => {
  it("inside the notice or beyond max_advance_days is 409 outside_booking_window", async () => {
    const org = await bookingsOrg(app)
    const o = await org.offering({ kind: "class", min_notice_minutes: 180, max_advance_days: 3 })
    const now = await org.now()
    const soon = await org.session(o.id, hoursAhead(now, 2))
    const far = await org.session(o.id, hoursAhead(now, 24 * 4))
    const fine = await org.session(o.id, hoursAhead(now, 24))
    expectError(await org.book({ offering_id: o.id, session_id: soon.id }), 409, "outside_booking_window")
    expectError(await org.book({ offering_id: o.id, session_id: far.id }), 409, "outside_booking_window")
    expect((await org.book({ offering_id: o.id, session_id: fine.id })).status).toBe(201)
  })

  it("a time that has started is outside the window", async () => {
    const org = await bookingsOrg(app)
    const o = await org.offering({ kind: "class" })
    const s = await org.session(o.id, hoursAhead(await org.now(), 1))
    await app.advance(3 * 3600)
    expectError(await org.book({ offering_id: o.id, session_id: s.id }), 409, "outside_booking_window")
  })

  it("a paused offering is 409 offering_paused; resumed, it books again", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession()
    ok(await org.call("PATCH", `/offerings/${offering.id}`, { active: false }))
    expectError(await org.book({ offering_id: offering.id, session_id: session.id }), 409, "offering_paused")
    const rental = await org.rental()
    ok(await org.call("PATCH", `/offerings/${rental.id}`, { active: false }))
    expectError(
      await org.book({ offering_id: rental.id, starts_at: utcAt(await org.now(), 2, "09:00").toISOString() }),
      409,
      "offering_paused"
    )
    ok(await org.call("PATCH", `/offerings/${offering.id}`, { active: true }))
    expect((await org.book({ offering_id: offering.id, session_id: session.id })).status).toBe(201)
  })

  it("an unknown, deleted or other org's offering is 404", async () => {
    const org = await bookingsOrg(app)
    const other = await bookingsOrg(app)
    const { offering, session } = await other.classWithSession()
    expectError(await org.book({ offering_id: offering.id, session_id: session.id }), 404, "not_found")
    expectError(
      await org.book({ offering_id: "00000000-0000-4000-8000-000000000000", session_id: session.id }),
      404,
      "not_found"
    )
    const mine = await org.offering({ kind: "class" })
    ok(await org.call("DELETE", `/offerings/${mine.id}`))
    expectError(await org.book({ offering_id: mine.id, session_id: session.id }), 404, "not_found")
  })
})

describe("a course", () => {
  it("one booking takes a seat in every time to come, at price_cents per seat for the whole course", async () => {
    const org = await bookingsOrg(app)
    const { offering, series, sessions } = await org.course({ capacity: 4, price_cents: 5000 })
    const b = await org.booked({ offering_id: offering.id, series_id: series.id, quantity: 2 })
    expect(b).toMatchObject({
      status: "held",
      total_cents: 10000,
      quantity: 2,
      series_id: series.id,
      session_id: sessions[0].id,
      starts_at: sessions[0].starts_at,
      ends_at: sessions[2].ends_at
    })
    expect((await org.sessions(offering.id)).map((s) => s.booked)).toEqual([2, 2, 2])
    await org.booked({ offering_id: offering.id, series_id: series.id, quantity: 2, customer: guest(2) })
    expectError(await org.book({ offering_id: offering.id, series_id: series.id, customer: guest(3) }), 409, "sold_out")
    const slots = ok(await org.call("GET", `/offerings/${offering.id}/availability`)).data
    expect(slots.filter((s: Json) => s.series_id === series.id)).toEqual([])
  })

  it("is full when any one of its times is full (a time with less room)", async () => {
    const org = await bookingsOrg(app)
    const { offering, series, sessions } = await org.course({ capacity: 4 })
    await sql(app, (s) => s`update sessions set capacity = 1 where id = ${sessions[2].id}`)
    await org.booked({ offering_id: offering.id, series_id: series.id })
    expectError(await org.book({ offering_id: offering.id, series_id: series.id, customer: guest(2) }), 409, "sold_out")
  })

  it("booked after its first time has passed, it starts at its next time", async () => {
    const org = await bookingsOrg(app)
    const { offering, series, sessions } = await org.course({ capacity: 4 })
    const early = await org.booked({ offering_id: offering.id, series_id: series.id })
    const first = new Date(sessions[0].starts_at)
    await app.advance(Math.ceil((first.getTime() - (await org.now()).getTime()) / 1000) + 60)
    const late = await org.booked({ offering_id: offering.id, series_id: series.id, customer: guest(2) })
    expect(late).toMatchObject({
      session_id: sessions[1].id,
      starts_at: sessions[1].starts_at,
      ends_at: sessions[2].ends_at
    })
    expect(early.session_id).toBe(sessions[0].id)
    expect((await org.sessions(offering.id)).map((s) => s.booked)).toEqual([1, 2, 2])
  })

  it("needs series_id (400 invalid_series_id); series_id on a class that is not a course is 400 too", async () => {
    const org = await bookingsOrg(app)
    const { offering, sessions } = await org.course()
    expectError(await org.book({ offering_id: offering.id, session_id: sessions[0].id }), 400, "invalid_series_id")
    const plain = await org.classWithSession()
    const other = await org.course()
    expectError(
      await org.book({ offering_id: plain.offering.id, series_id: other.series.id }),
      400,
      "invalid_series_id"
    )
    expectError(await org.book({ offering_id: offering.id, series_id: other.series.id }), 409, "time_not_available")
  })
})

describe("an appointment on its calendar", () => {
  it("capacity is parallel bookings per time, whatever each party's size", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.calendarAppointment({ capacity: 2, max_per_booking: 4 })
    await org.booked({ offering_id: offering.id, session_id: session.id, quantity: 4 })
    await org.booked({ offering_id: offering.id, session_id: session.id, quantity: 1, customer: guest(2) })
    expectError(
      await org.book({ offering_id: offering.id, session_id: session.id, customer: guest(3) }),
      409,
      "sold_out"
    )
    expect(await bookedIn(org, offering.id, session.id)).toBe(2)
  })

  it("price: price_cents for the first person and guest_price_cents (null: full price) for each other", async () => {
    const org = await bookingsOrg(app)
    const cases: Array<[number | null, number, number]> = [
      [null, 3, 12000],
      [1000, 3, 6000],
      [0, 3, 4000],
      [1000, 1, 4000]
    ]
    for (const [guestPrice, quantity, total] of cases) {
      const { offering, session } = await org.calendarAppointment({
        capacity: 5,
        max_per_booking: 4,
        price_cents: 4000,
        guest_price_cents: guestPrice
      })
      const b = await org.booked({ offering_id: offering.id, session_id: session.id, quantity })
      expect({ guestPrice, quantity, total: b.total_cents, status: b.status }).toEqual({
        guestPrice,
        quantity,
        total,
        status: "held"
      })
    }
  })

  it("one-on-one by default: a party of two is 400 invalid_quantity", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.calendarAppointment()
    expectError(
      await org.book({ offering_id: offering.id, session_id: session.id, quantity: 2 }),
      400,
      "invalid_quantity"
    )
  })
})

describe("an appointment on weekly hours", () => {
  it("starts_at must be an offered slot start; the party counts as one parallel booking", async () => {
    const org = await bookingsOrg(app)
    const o = await org.hoursAppointment({ capacity: 1, max_per_booking: 3, price_cents: 0 })
    const now = await org.now()
    const ten = utcAt(now, 2, "10:00")
    const b = await org.booked({ offering_id: o.id, starts_at: ten.toISOString(), quantity: 3 })
    expect(b).toMatchObject({
      status: "confirmed",
      session_id: null,
      starts_at: ten.toISOString(),
      ends_at: utcAt(now, 2, "11:00").toISOString()
    })
    expectError(
      await org.book({ offering_id: o.id, starts_at: ten.toISOString(), customer: guest(2) }),
      409,
      "sold_out"
    )
    for (const t of ["10:30", "08:00", "16:30", "17:00"]) {
      expectError(
        await org.book({ offering_id: o.id, starts_at: utcAt(now, 2, t).toISOString(), customer: guest(2) }),
        409,
        "time_not_available"
      )
    }
    expectError(await org.book({ offering_id: o.id, customer: guest(2) }), 400, "invalid_starts_at")
    expect(
      (await org.book({ offering_id: o.id, starts_at: utcAt(now, 2, "16:00").toISOString(), customer: guest(2) }))
        .status
    ).toBe(201)
  })

  it("follows the weekly hours set on it", async () => {
    const org = await bookingsOrg(app)
    const now = await org.now()
    const day = utcAt(now, 2, "00:00")
    const o = await org.hoursAppointment({}, [{ weekday: day.getUTCDay(), start_time: "13:00", end_time: "15:00" }])
    expectError(
      await org.book({ offering_id: o.id, starts_at: utcAt(now, 2, "10:00").toISOString() }),
      409,
      "time_not_available"
    )
    expect((await org.book({ offering_id: o.id, starts_at: utcAt(now, 2, "14:00").toISOString() })).status).toBe(201)
    expectError(
      await org.book({ offering_id: o.id, starts_at: utcAt(now, 3, "14:00").toISOString() }),
      409,
      "time_not_available"
    )
  })

  it("keeps buffer_minutes free around each booking", async () => {
    const org = await bookingsOrg(app)
    const o = await org.hoursAppointment({ capacity: 1, buffer_minutes: 30 })
    const now = await org.now()
    await org.booked({ offering_id: o.id, starts_at: utcAt(now, 2, "12:00").toISOString() })
    for (const t of ["11:00", "13:00"]) {
      expectError(
        await org.book({ offering_id: o.id, starts_at: utcAt(now, 2, t).toISOString(), customer: guest(2) }),
        409,
        "sold_out"
      )
    }
    for (const t of ["10:00", "14:00"]) {
      expect(
        (await org.book({ offering_id: o.id, starts_at: utcAt(now, 2, t).toISOString(), customer: guest(2) })).status
      ).toBe(201)
    }
    const slots = ok(await org.call("GET", `/offerings/${o.id}/availability`)).data.map((s: Json) => s.starts_at)
    for (const t of ["10:00", "11:00", "12:00", "13:00", "14:00"])
      expect(slots).not.toContain(utcAt(now, 2, t).toISOString())
    expect(slots).toContain(utcAt(now, 2, "16:00").toISOString())
  })

  it("min_notice_minutes closes booking before the start (the appointment default is 60)", async () => {
    const org = await bookingsOrg(app)
    const o = await org.offering({ kind: "appointment", duration_minutes: 60 })
    ok(await org.call("PATCH", `/offerings/${o.id}`, { schedule: "hours" }))
    const now = await org.now()
    const soon = new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000)
    const hour = soon.getUTCHours()
    if (hour >= 9 && hour < 17)
      expectError(await org.book({ offering_id: o.id, starts_at: soon.toISOString() }), 409, "outside_booking_window")
    expect((await org.book({ offering_id: o.id, starts_at: utcAt(now, 1, "09:00").toISOString() })).status).toBe(201)
    expectError(
      await org.book({ offering_id: o.id, starts_at: utcAt(now, 61, "09:00").toISOString() }),
      409,
      "outside_booking_window"
    )
  })
})

describe("a rental", () => {
  it("a day rental is picked up at opening (09:00) and returned at the next day's; price per item per period", async () => {
    const org = await bookingsOrg(app)
    const kayak = await org.rental({ capacity: 3, price_cents: 500, max_per_booking: 3 })
    const now = await org.now()
    const b = await org.booked({
      offering_id: kayak.id,
      starts_at: utcAt(now, 1, "09:00").toISOString(),
      quantity: 2,
      periods: 3
    })
    expect(b).toMatchObject({
      status: "held",
      total_cents: 3000,
      quantity: 2,
      starts_at: utcAt(now, 1, "09:00").toISOString(),
      ends_at: utcAt(now, 4, "09:00").toISOString()
    })
    expectError(
      await org.book({ offering_id: kayak.id, starts_at: utcAt(now, 1, "10:00").toISOString() }),
      409,
      "time_not_available"
    )
    expectError(
      await org.book({ offering_id: kayak.id, starts_at: utcAt(now, 1, "09:00").toISOString(), periods: 8 }),
      400,
      "invalid_periods"
    )
  })

  it("items overlap by period: stock is never exceeded on any day", async () => {
    const org = await bookingsOrg(app)
    const kayak = await org.rental({ capacity: 3, max_per_booking: 3 })
    const now = await org.now()
    const day = (n: number) => utcAt(now, n, "09:00").toISOString()
    await org.booked({ offering_id: kayak.id, starts_at: day(1), quantity: 2, periods: 2 })
    expectError(
      await org.book({ offering_id: kayak.id, starts_at: day(2), quantity: 2, customer: guest(2) }),
      409,
      "sold_out"
    )
    expectError(
      await org.book({ offering_id: kayak.id, starts_at: day(0 + 1), quantity: 2, periods: 1, customer: guest(2) }),
      409,
      "sold_out"
    )
    await org.booked({ offering_id: kayak.id, starts_at: day(2), quantity: 1, customer: guest(2) })
    await org.booked({ offering_id: kayak.id, starts_at: day(3), quantity: 3, customer: guest(3) })
    expectError(
      await org.book({ offering_id: kayak.id, starts_at: day(2), quantity: 1, periods: 2, customer: guest(4) }),
      409,
      "sold_out"
    )
  })

  it("a shorter period steps through the opening hours", async () => {
    const org = await bookingsOrg(app)
    const bike = await org.rental({ capacity: 1, duration_minutes: 120, max_periods: 3 })
    const now = await org.now()
    const b = await org.booked({ offering_id: bike.id, starts_at: utcAt(now, 1, "11:00").toISOString(), periods: 2 })
    expect(b.ends_at).toBe(utcAt(now, 1, "15:00").toISOString())
    expectError(
      await org.book({ offering_id: bike.id, starts_at: utcAt(now, 1, "13:00").toISOString(), customer: guest(2) }),
      409,
      "sold_out"
    )
    expectError(
      await org.book({ offering_id: bike.id, starts_at: utcAt(now, 1, "12:00").toISOString(), customer: guest(2) }),
      409,
      "time_not_available"
    )
    expect(
      (await org.book({ offering_id: bike.id, starts_at: utcAt(now, 1, "15:00").toISOString(), customer: guest(2) }))
        .status
    ).toBe(201)
  })

  it("periods on another kind is 400 invalid_periods", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession()
    expectError(
      await org.book({ offering_id: offering.id, session_id: session.id, periods: 2 }),
      400,
      "invalid_periods"
    )
  })
})

describe("answers", () => {
  const questions = [
    { id: "level", label: "Level", type: "choice", options: ["new", "old"], required: true },
    { id: "wetsuit", label: "Wetsuit", type: "yes_no" },
    { id: "note", label: "Anything else", type: "text" }
  ]

  it("are checked against the offering's questions (400 invalid_answers) and kept", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ questions })
    const base = { offering_id: offering.id, session_id: session.id }
    const bad: Array<Json> = [
      {},
      { wetsuit: true },
      { level: "expert" },
      { level: "new", wetsuit: "yes" },
      { level: true },
      { level: "new", note: true },
      { level: "new", note: "   " },
      { level: "new", shoe: "42" }
    ]
    const before = await countRows(org.id)
    for (const answers of bad) expectError(await org.book({ ...base, answers }), 400, "invalid_answers")
    expectError(await org.book({ ...base, answers: { level: 3 } }), 400, "invalid_answers")
    expect(await countRows(org.id)).toEqual(before)
    const b = await org.booked({ ...base, answers: { level: "old", wetsuit: false, note: "vegan lunch" } })
    expect(b.answers).toEqual({ level: "old", wetsuit: false, note: "vegan lunch" })
    const got = ok(await org.get(b.id))
    expect(got.offering.questions.map((q: Json) => q.id)).toEqual(["level", "wetsuit", "note"])
  })
})

describe("the customer", () => {
  it("is found or created per org by email: same email, same customer; an existing name is kept", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession()
    const a = await org.booked({
      offering_id: offering.id,
      session_id: session.id,
      customer: { email: "Ann@Example.com", name: "Ann" }
    })
    const b = await org.booked({
      offering_id: offering.id,
      session_id: session.id,
      customer: { email: "ann@example.com", name: "Annie", phone: "+31 6 1234 5678" }
    })
    expect(b.customer_id).toBe(a.customer_id)
    const got = ok(await org.get(b.id))
    expect(got.customer).toEqual({ id: a.customer_id, name: "Ann", email: "Ann@Example.com", phone: "+31612345678" })
    const other = await bookingsOrg(app)
    const c = await other.classWithSession()
    const elsewhere = await other.booked({
      offering_id: c.offering.id,
      session_id: c.session.id,
      customer: { email: "ann@example.com", name: "Ann B" }
    })
    expect(elsewhere.customer_id).not.toBe(a.customer_id)
    const listed = ok(await org.call("GET", "/customers?q=ann"))
    expect(listed.data.length).toBe(1)
  })
})

describe("bad input", () => {
  it("is 400 with a code naming the field, or unknown_field, and writes nothing", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession()
    const base = { offering_id: offering.id, session_id: session.id, customer: guest(1) }
    const cases: Array<[Json, string]> = [
      [{ ...base, offering_id: undefined }, "invalid_offering_id"],
      [{ ...base, offering_id: "yoga" }, "invalid_offering_id"],
      [{ ...base, session_id: "nope" }, "invalid_session_id"],
      [{ ...base, series_id: 12 }, "invalid_series_id"],
      [{ ...base, starts_at: "tomorrow" }, "invalid_starts_at"],
      [{ ...base, quantity: 0 }, "invalid_quantity"],
      [{ ...base, quantity: 2.5 }, "invalid_quantity"],
      [{ ...base, quantity: "2" }, "invalid_quantity"],
      [{ ...base, quantity: 10001 }, "invalid_quantity"],
      [{ ...base, customer: undefined }, "invalid_customer"],
      [{ ...base, customer: { name: "No Email" } }, "invalid_customer"],
      [{ ...base, customer: { email: "not-an-email", name: "X" } }, "invalid_customer"],
      [{ ...base, customer: { email: "x@example.com", name: "" } }, "invalid_customer"],
      [{ ...base, customer: { email: "x@example.com" } }, "invalid_customer"],
      [{ ...base, customer: { email: "x@example.com", name: "X", vip: true } }, "unknown_field"],
      [{ ...base, periods: 0 }, "invalid_periods"],
      [{ ...base, answers: [] }, "invalid_answers"],
      [{ ...base, notes: "x".repeat(2001) }, "invalid_notes"],
      [{ ...base, metadata: "x" }, "invalid_metadata"],
      [{ ...base, handle: "mine" }, "unknown_field"],
      [{ ...base, status: "confirmed" }, "unknown_field"]
    ]
    const before = await countRows(org.id)
    for (const [body, code] of cases) {
      const res = await org.call("POST", "/bookings", body)
      expect({ body, code: res.body?.error?.code, status: res.status }).toEqual({ body, code, status: 400 })
    }
    expectError(await org.call("POST", "/bookings", "{not json"), 400, "invalid_json")
    expect(await countRows(org.id)).toEqual(before)
  })

  it("without a key is 401", async () => {
    const res = await app.call(null, "POST", "/api/v1/bookings", {})
    expect(res.status).toBe(401)
  })
})

describe("idempotency", () => {
  it("a retry with the same key and body replays the booking; another body with the key is refused", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 5 })
    const body = { offering_id: offering.id, session_id: session.id }
    const first = await org.book(body, { "idempotency-key": "k-1" })
    const again = await org.book(body, { "idempotency-key": "k-1" })
    expect(again.status).toBe(201)
    expect(again.body.id).toBe(first.body.id)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(await bookedIn(org, offering.id, session.id)).toBe(1)
    const reused = await org.book({ ...body, quantity: 2 }, { "idempotency-key": "k-1" })
    expectError(reused, 422, "idempotency_key_reused")
    expect(await bookedIn(org, offering.id, session.id)).toBe(1)
  })
})
