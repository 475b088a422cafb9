import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BookingsOrg, bookingsOrg, guest, ok, startPinned, type TestApp } from "../bookings/helpers.ts"
import { CARD, payWith } from "../payments/helpers.ts"

// Who made each change: every event carries its actor, known at the request (a key, a person, a guest) or the
// system (no caller: the processor's webhook, a job). docs/events.md, "Who did it".

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
})
afterAll(() => app?.close())

type Ev = { type: string; data: Record<string, unknown>; actor: Record<string, unknown> | null }
const about = async (id: string) =>
  ((await org.events()) as Ev[]).filter((e) => (e.type.startsWith("booking.") ? e.data.id : e.data.booking_id) === id)

describe("an event's actor", () => {
  it("is the API key that made the change, with the member it belongs to", async () => {
    const { offering, session } = await org.classWithSession()
    const b = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("k1") })
    ok(await org.act(b.id, "cancel", {}))
    const events = await about(b.id)
    expect(events.map((e) => e.type)).toEqual(["booking.confirmed", "booking.cancelled"])
    for (const e of events) expect(e.actor).toEqual({ type: "key", id: org.keyId, user_id: null })
  })

  it("is the guest on their own page, and the system when the processor says a hold was paid", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: 1500 })
    const b = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("g1") })
    expect(b.status).toBe("held")
    expect((await payWith(app, b.checkout_url as string, CARD.pays)).status).toBe(200)
    const wrote = await app.call(null, "POST", `/api/v1/guest/${await org.handle(b.id)}/messages`, { body: "Hi" })
    expect(wrote.status).toBe(201)
    const events = await about(b.id)
    const actors = Object.fromEntries(events.map((e) => [e.type, e.actor]))
    expect(actors["booking.held"]).toEqual({ type: "key", id: org.keyId, user_id: null })
    expect(actors["booking.confirmed"]).toEqual({ type: "system" })
    expect(actors["message.received"]).toEqual({ type: "guest", via: "guest_page" })
  })
})
