import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import {
  advanceTo,
  type BookingsOrg,
  bookingsOrg,
  expectError,
  guest,
  hoursAhead,
  ok,
  startPinned
} from "../bookings/helpers.ts"
import { CARD, payWith } from "../payments/helpers.ts"
import { guestApi, handleFromMail, handleOf } from "./helpers.ts"

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app, { timezone: "Europe/Amsterdam" })
})
afterAll(() => app.close())

let n = 0
const freeClass = async (hours = 72, body: Record<string, unknown> = {}) => {
  const { offering, session } = await org.classWithSession(
    { name: "Morning yoga", capacity: 5, location: "Dock 4", lat: 52.37, lon: 4.9, ...body },
    hours
  )
  const email = `g${++n}-${Date.now()}@example.com`
  const b = await org.booked({
    offering_id: offering.id,
    session_id: session.id,
    customer: { email, name: "Ada Guest" },
    notes: "internal note",
    metadata: { crm: "crm-ref-4417" }
  })
  return { offering, session, b, email }
}

describe("the guest page's API (/api/v1/guest/{handle})", () => {
  it("shows the guest their booking from the link in their email, nothing internal, and 404 for any other handle", async () => {
    const { b, email } = await freeClass()
    const handle = await handleFromMail(app, email)
    const view = ok(await guestApi(app, handle).get())
    expect(view).toMatchObject({
      reference: b.reference,
      status: "confirmed",
      quantity: 1,
      total_cents: 0,
      due_cents: 0,
      offering: {
        name: "Morning yoga",
        location: "Dock 4",
        lat: 52.37,
        lon: 4.9,
        map_url: "https://www.openstreetmap.org/?mlat=52.37&mlon=4.9#map=16/52.37/4.9"
      },
      org: { timezone: "Europe/Amsterdam", currency: "EUR" },
      guest: { name: "Ada Guest", email }
    })
    expect(view.page_url).toBe(`http://127.0.0.1/b/${handle}`)
    expect(JSON.stringify(view)).not.toMatch(/internal note|"crm"|crm-ref-4417/)
    expect(view).not.toHaveProperty("id")
    expectError(await guestApi(app, "x".repeat(24)).get(), 404, "not_found")
    expectError(await guestApi(app, "../../bookings").get(), 404, "not_found")
    expectError(await guestApi(app, handle.slice(0, -1) + (handle.endsWith("A") ? "B" : "A")).get(), 404, "not_found")
  })

  it("lets the guest cancel until the org's hours before the start, then refuses with the reason; the business sees it cancelled", async () => {
    const { b } = await freeClass(30)
    const g = guestApi(app, await handleOf(app, b.id))
    const view = ok(await g.get())
    expect(new Date(view.actions.cancel_until).getTime()).toBe(new Date(b.starts_at).getTime() - 24 * 3_600_000)
    const later = await freeClass(30)
    const late = guestApi(app, await handleOf(app, later.b.id))
    await advanceTo(app, new Date(new Date(b.starts_at).getTime() - 23 * 3_600_000))
    const refused = await late.cancel()
    expectError(refused, 409, "guest_cannot_cancel")
    expect(refused.body.error.message).toMatch(/24 hours before the start/)
    expect(ok(await late.get()).actions).toMatchObject({ cancel_until: null, move_until: null })
    expect(ok(await org.get(later.b.id)).status).toBe("confirmed")
    // The first one, cancelled in time? It is now too late too: the rule is the same for both.
    expectError(await g.cancel(), 409, "guest_cannot_cancel")
  })

  it("cancels in time: the booking is cancelled as by the business, reason guest, and the page says so", async () => {
    const { b } = await freeClass(200)
    const g = guestApi(app, await handleOf(app, b.id))
    const after = ok(await g.cancel())
    expect(after).toMatchObject({
      status: "cancelled",
      due_cents: 0,
      actions: { cancel_until: null, why_not: "This booking is cancelled." }
    })
    expect(ok(await org.get(b.id))).toMatchObject({ status: "cancelled", cancel_reason: "guest" })
    expectError(await g.cancel(), 409, "guest_cannot_cancel")
  })

  it("keeps the rule a booking was made under when the org's gets stricter, and applies the org's new rule when it is kinder", async () => {
    const strict = await freeClass(300)
    ok(await org.call("PATCH", "/org", { guest_cancel_hours: 240 }))
    const made240 = await freeClass(300)
    ok(await org.call("PATCH", "/org", { guest_cancel_hours: 2 }))
    const start = (x: { b: { [k: string]: unknown } }) => new Date(x.b.starts_at as string).getTime()
    const until = async (id: string) =>
      new Date(ok(await guestApi(app, await handleOf(app, id)).get()).actions.cancel_until).getTime()
    expect(await until(strict.b.id)).toBe(start(strict) - 2 * 3_600_000)
    expect(await until(made240.b.id)).toBe(start(made240) - 2 * 3_600_000)
    ok(await org.call("PATCH", "/org", { guest_cancel_hours: null }))
    expect(await until(made240.b.id)).toBe(start(made240) - 240 * 3_600_000)
    const none = await freeClass(300)
    const view = ok(await guestApi(app, await handleOf(app, none.b.id)).get())
    expect(view.actions).toMatchObject({ cancel_until: null, move_until: null })
    expect(view.actions.why_not).toMatch(/made by the business/)
    expectError(await org.call("PATCH", "/org", { guest_cancel_hours: -1 }), 400, "invalid_guest_cancel_hours")
    expectError(await org.call("PATCH", "/org", { guest_cancel_hours: 1.5 }), 400, "invalid_guest_cancel_hours")
    ok(await org.call("PATCH", "/org", { guest_cancel_hours: 24 }))
  })

  it("moves to another session of the class within the rule, and refuses a full one without changing anything", async () => {
    const { offering, b } = await freeClass(400)
    const other = await org.session(offering.id, hoursAhead(await org.now(), 500))
    const full = await org.session(offering.id, hoursAhead(await org.now(), 520), { capacity: 1 })
    await org.booked({ offering_id: offering.id, session_id: full.id, customer: guest("filler") })
    const g = guestApi(app, await handleOf(app, b.id))
    const times = ok(await g.times())
    expect(times.timezone).toBe("Europe/Amsterdam")
    expectError(await g.move({ session_id: full.id }), 409, "sold_out")
    expect(ok(await org.get(b.id)).session_id).toBe(b.session_id)
    const moved = ok(await g.move({ session_id: other.id }))
    expect(moved.starts_at).toBe(other.starts_at)
    expect(ok(await org.get(b.id))).toMatchObject({ session_id: other.id, status: "confirmed" })
    expectError(await g.move({}), 400, "invalid_body")
    expectError(await g.move({ session_id: "nope" }), 400, "invalid_session_id")
  })

  it("a paid booking cancelled by its guest gets back what the checkout charged", async () => {
    const { offering, session } = await org.classWithSession(
      { name: "Paid class", price_cents: 2500, capacity: 3 },
      600
    )
    const held = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("payer") })
    expect(held.status).toBe("held")
    const g = guestApi(app, await handleOf(app, held.id))
    const before = ok(await g.get())
    expect(before).toMatchObject({
      status: "held",
      due_cents: 2500,
      actions: { pay_url: expect.stringMatching(/\/pay\/again\//) }
    })
    expect((await payWith(app, held.checkout_url, CARD.pays)).status).toBe(200)
    const paid = ok(await g.get())
    expect(paid).toMatchObject({
      status: "confirmed",
      paid_cents: 2500,
      due_cents: 0,
      actions: { cancel_refunds_cents: 2500, pay_url: null }
    })
    const cancelled = ok(await g.cancel())
    expect(cancelled).toMatchObject({ status: "cancelled", refund_cents: 2500 })
    // The sandbox takes the refund at once and confirms it a moment later, as the payments suite shows.
    await app.advance(1)
    await app.advance(6)
    expect(ok(await org.get(held.id))).toMatchObject({
      status: "cancelled",
      cancel_reason: "guest",
      refunded_at: expect.any(String)
    })
    expect(ok(await g.get()).refunded_at).not.toBeNull()
  })

  it("after a call-off the guest picks another time or cancels, whatever the hours rule, until choose_by", async () => {
    ok(await org.call("PATCH", "/org", { guest_cancel_hours: null }))
    try {
      const { offering, session, b } = await freeClass(700)
      const other = await org.session(offering.id, hoursAhead(await org.now(), 800))
      ok(await org.call("POST", `/sessions/${session.id}/cancel`, { guests: "choose" }))
      const g = guestApi(app, await handleOf(app, b.id))
      const view = ok(await g.get())
      expect(view.choose_by).not.toBeNull()
      expect(view.actions).toMatchObject({ cancel_until: view.choose_by, move_until: view.choose_by })
      const moved = ok(await g.move({ session_id: other.id }))
      expect(moved).toMatchObject({ status: "confirmed", choose_by: null, starts_at: other.starts_at })
    } finally {
      ok(await org.call("PATCH", "/org", { guest_cancel_hours: 24 }))
    }
  })

  it("carries messages both ways: the guest writes on their page, the business reads and answers", async () => {
    const { b, email } = await freeClass(900)
    const g = guestApi(app, await handleOf(app, b.id))
    const written = ok(await g.write("Can I bring my own mat?"), 201)
    expect(written).toMatchObject({ from: "guest", body: "Can I bring my own mat?" })
    const seen = ok(await org.call("GET", `/messages?booking_id=${b.id}`)).data
    expect(seen).toEqual([
      expect.objectContaining({ direction: "inbound", channel: "page", body: "Can I bring my own mat?" })
    ])
    ok(await org.call("POST", "/messages", { booking_id: b.id, body: "Yes, of course." }), 201)
    const thread = ok(await g.messages()).data
    expect(thread.map((m: { from: string; body: string }) => [m.from, m.body])).toEqual([
      ["guest", "Can I bring my own mat?"],
      ["business", "Yes, of course."]
    ])
    expectError(await g.write(""), 400, "invalid_body")
    await app.advance(3)
    const subjects = (await app.admin("GET", `/mail?to=${encodeURIComponent(email)}`)).body.data.map(
      (m: { subject: string }) => m.subject
    )
    expect(subjects.filter((x: string) => /A message from/.test(x))).toHaveLength(1)
  })

  it("one guest's handle reaches only their own booking", async () => {
    const a = await freeClass(1000)
    const b = await freeClass(1000)
    const ga = guestApi(app, await handleOf(app, a.b.id))
    expect(ok(await ga.get()).reference).toBe(a.b.reference)
    ok(await ga.write("hello"), 201)
    expect(ok(await org.call("GET", `/messages?booking_id=${b.b.id}`)).data).toEqual([])
    expect(ok(await guestApi(app, await handleOf(app, b.b.id)).get()).status).toBe("confirmed")
  })
})
