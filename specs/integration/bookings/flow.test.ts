import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

const guest = (n: number) => ({ email: `guest${n}@example.com`, name: `Guest ${n}` })

const classWithSession = async (key: string, offering: Record<string, unknown>) => {
  const { body: o } = await app.call(key, "POST", "/api/v1/offerings", { name: "Yoga", kind: "class", ...offering })
  const now = new Date((await app.admin("GET", "/clock")).body.now)
  const startsAt = new Date(Math.ceil(now.getTime() / 3600000) * 3600000 + 48 * 3600000).toISOString()
  const { body: s } = await app.call(key, "POST", "/api/v1/sessions", { offering_id: o.id, starts_at: startsAt })
  return { offering: o, session: s.data[0] }
}

describe("bookings", () => {
  it("a free class seat is confirmed at once; a full session refuses with 409 sold_out", async () => {
    const org = await app.newOrg()
    const { offering, session } = await classWithSession(org.key, { capacity: 2 })
    const first = await app.call(org.key, "POST", "/api/v1/bookings", {
      offering_id: offering.id,
      session_id: session.id,
      quantity: 2,
      customer: guest(1)
    })
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({
      status: "confirmed",
      quantity: 2,
      total_cents: 0,
      source: "api",
      session_id: session.id
    })
    expect(first.body.handle).toBeUndefined()
    const second = await app.call(org.key, "POST", "/api/v1/bookings", {
      offering_id: offering.id,
      session_id: session.id,
      customer: guest(2)
    })
    expect(second.status).toBe(409)
    expect(second.body.error.code).toBe("sold_out")
  })

  it("a priced seat is held until confirmed, then cancelled", async () => {
    const org = await app.newOrg()
    const { offering, session } = await classWithSession(org.key, { capacity: 5, price_cents: 1500 })
    const held = await app.call(org.key, "POST", "/api/v1/bookings", {
      offering_id: offering.id,
      session_id: session.id,
      quantity: 2,
      customer: guest(3)
    })
    expect(held.body).toMatchObject({ status: "held", total_cents: 3000 })
    expect(held.body.expires_at).not.toBeNull()
    const confirmed = await app.call(org.key, "POST", `/api/v1/bookings/${held.body.id}/confirm`, {})
    expect(confirmed.body).toMatchObject({ status: "confirmed", expires_at: null })
    const again = await app.call(org.key, "POST", `/api/v1/bookings/${held.body.id}/confirm`, {})
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe("booking_not_held")
    const cancelled = await app.call(org.key, "POST", `/api/v1/bookings/${held.body.id}/cancel`, {})
    expect(cancelled.body).toMatchObject({ status: "cancelled" })
    const listed = await app.call(org.key, "GET", `/api/v1/bookings?offering_id=${offering.id}`)
    expect(listed.body.data[0].customer).toMatchObject({ email: "guest3@example.com" })
    await app.advance(3)
    const events = await app.call(org.key, "GET", "/api/v1/events?type=booking.held")
    expect(events.body.data.length).toBe(1)
  })
})
