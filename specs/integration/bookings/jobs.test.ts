import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bookedIn, bookingsOrg, expectError, guest, ok, startPinned, type TestApp } from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startPinned()
})
afterAll(() => app.close())

describe("a hold passing expires_at", () => {
  it("keeps its place until then; then lapses, frees the place and its guest is nudged once", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 1, price_cents: 1200 })
    const hold = await org.booked({ offering_id: offering.id, session_id: session.id })
    expect(hold.checkout_url).toMatch(/^https?:\/\//)
    await app.advance(14 * 60)
    expectError(
      await org.book({ offering_id: offering.id, session_id: session.id, customer: guest(2) }),
      409,
      "sold_out"
    )
    expect(await bookedIn(org, offering.id, session.id)).toBe(1)
    await app.advance(60)
    const lapsedAt = await org.now()
    const lapsed = ok(await org.get(hold.id))
    expect(lapsed).toMatchObject({
      status: "held",
      nudged_at: lapsedAt.toISOString(),
      expires_at: hold.expires_at,
      confirmed_at: null,
      // Its checkout closed with it: no link to a dead checkout (the nudge's link opens a fresh one).
      checkout_url: null
    })
    expect(await bookedIn(org, offering.id, session.id)).toBe(0)
    await app.advance(3600)
    const nudged = await org.events("booking.nudged")
    expect(nudged.map((e) => [e.data.id, e.data.nudged_at, e.data.checkout_url])).toEqual([
      [hold.id, lapsedAt.toISOString(), null]
    ])
    expect(await org.mailKinds(hold.id)).toEqual(["booking.held", "booking.nudged"])
    const mail = (await org.mails(hold.id)).find((m) => m.kind === "booking.nudged")!
    expect(mail.body).toContain(`/b/${await org.handle(hold.id)}`)
    expect(mail.body).toContain("/pay/again/")
    expectError(await org.act(hold.id, "nudge"), 409, "already_nudged")
    const taker = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest(2) })
    expect(taker.status).toBe("held")
    expectError(await org.act(hold.id, "confirm"), 409, "sold_out")
    expect((await org.events()).filter((e) => e.data.id === hold.id).map((e) => e.type)).toEqual([
      "booking.held",
      "booking.nudged"
    ])
  })

  it("hold_minutes: 1 lapses after a minute; a confirmed booking never lapses", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 3, price_cents: 100 })
    const quick = await org.booked({ offering_id: offering.id, session_id: session.id, hold_minutes: 1 })
    const kept = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest(2) })
    ok(await org.act(kept.id, "confirm"))
    await app.advance(59)
    expect(ok(await org.get(quick.id)).nudged_at).toBeNull()
    await app.advance(1)
    expect(ok(await org.get(quick.id)).nudged_at).not.toBeNull()
    await app.advance(3600)
    expect(ok(await org.get(kept.id))).toMatchObject({ status: "confirmed", nudged_at: null })
    expect(await bookedIn(org, offering.id, session.id)).toBe(1)
  })

  it("lapses across kinds: a rental's items and an hours appointment's time come free", async () => {
    const org = await bookingsOrg(app)
    const now = await org.now()
    const day = new Date(`${new Date(now.getTime() + 2 * 86_400_000).toISOString().slice(0, 10)}T09:00:00Z`)
    const kayak = await org.rental({ capacity: 1, price_cents: 100 })
    const cut = await org.hoursAppointment({ capacity: 1, price_cents: 100 })
    const r = await org.booked({ offering_id: kayak.id, starts_at: day.toISOString(), periods: 2 })
    const a = await org.booked({ offering_id: cut.id, starts_at: day.toISOString() })
    expectError(
      await org.book({ offering_id: kayak.id, starts_at: day.toISOString(), customer: guest(2) }),
      409,
      "sold_out"
    )
    expectError(
      await org.book({ offering_id: cut.id, starts_at: day.toISOString(), customer: guest(2) }),
      409,
      "sold_out"
    )
    await app.advance(15 * 60)
    expect((await org.book({ offering_id: kayak.id, starts_at: day.toISOString(), customer: guest(2) })).status).toBe(
      201
    )
    expect((await org.book({ offering_id: cut.id, starts_at: day.toISOString(), customer: guest(2) })).status).toBe(201)
    expect((await org.events("booking.nudged")).map((e) => e.data.id).sort()).toEqual([r.id, a.id].sort())
  })
})
