import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, codeOf, ok, startPinned } from "../bookings/helpers.ts"
import { CARD, expectMoneyMatchesLedger, payWith } from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startPinned()
})
afterAll(() => app.close())

/** A class priced 25.00 with one time, and a booking of two seats taken by the business with `payment`. */
const desk = async (org: BookingsOrg, payment: string | undefined, extra: Record<string, unknown> = {}) => {
  const { offering, session } = await org.classWithSession({ price_cents: 2500 })
  const res = await org.book({
    offering_id: offering.id,
    session_id: session.id,
    quantity: 2,
    ...(payment === undefined ? {} : { payment }),
    ...extra
  })
  return { offering, session, res }
}

describe("a priced booking the business takes (payment)", () => {
  it("paid: confirmed and paid by hand in full as it is booked; no hold, no checkout, the guest mailed a confirmation", async () => {
    const org = await bookingsOrg(app)
    const { res } = await desk(org, "paid")
    const b = ok(res, 201)
    expect(b).toMatchObject({
      status: "confirmed",
      total_cents: 5000,
      paid_cents: 5000,
      payment_intent_id: null,
      expires_at: null,
      checkout_url: null
    })
    expect(b.paid_at).not.toBeNull()
    expect(ok(await org.get(b.id))).toMatchObject({ status: "confirmed", paid_cents: 5000, paid_at: b.paid_at })
    expect(await org.mailKinds(b.id)).toEqual(["booking.confirmed"])
    const events = (await org.events()).filter((e) => e.data?.id === b.id)
    expect(events.map((e) => [e.type, e.data.paid_cents])).toEqual([["booking.confirmed", 5000]])
    // A hand payment: mark_unpaid takes it back, and nothing can be refunded of it.
    expect(ok(await org.act(b.id, "mark_unpaid"))).toMatchObject({ paid_at: null, paid_cents: null })
    expect(ok(await org.act(b.id, "mark_paid", { paid_cents: 2000 }))).toMatchObject({ paid_cents: 2000 })
    expect(codeOf(await org.act(b.id, "cancel", { refund_cents: 100 }))).toBe("400 invalid_refund_cents")
    await expectMoneyMatchesLedger(app, org, b.id)
  })

  it("unpaid: confirmed now and keeps its places past any hold time; marked paid later", async () => {
    const org = await bookingsOrg(app)
    const { offering, session, res } = await desk(org, "unpaid")
    const b = ok(res, 201)
    expect(b).toMatchObject({ status: "confirmed", paid_at: null, paid_cents: null, expires_at: null })
    await app.advance(3600)
    const later = ok(await org.get(b.id))
    expect(later.status).toBe("confirmed")
    const time = (await org.sessions(offering.id)).find((s) => s.id === session.id)
    expect(time?.booked).toBe(2)
    expect(ok(await org.act(b.id, "mark_paid"))).toMatchObject({ paid_cents: 5000 })
    expect(await org.mailKinds(b.id)).toEqual(["booking.confirmed"])
  })

  it("free: the price waived, confirmed with nothing to pay; a promo code or gift card beside it is refused", async () => {
    const org = await bookingsOrg(app)
    const b = ok((await desk(org, "free")).res, 201)
    expect(b).toMatchObject({ status: "confirmed", total_cents: 0, discount_cents: 5000, paid_at: null })
    const refused = (await desk(org, "free", { promo_code: "SUMMER" })).res
    expect(codeOf(refused)).toBe("400 invalid_payment")
    expect(refused.body.error.message).toMatch(/promo_code/)
    expect(ok(await org.list()).data).toHaveLength(1)
  })

  it("online (and no payment at all): the hold with its checkout, as before", async () => {
    const org = await bookingsOrg(app)
    for (const payment of ["online", undefined]) {
      const b = ok((await desk(org, payment)).res, 201)
      expect(b.status).toBe("held")
      expect(b.checkout_url).toMatch(/\/pay\//)
      expect((await payWith(app, b.checkout_url, CARD.pays)).status).toBe(200)
      expect(ok(await org.get(b.id))).toMatchObject({ status: "confirmed", charged_cents: 5000 })
    }
  })

  it("an unknown choice is 400 invalid_payment; the public surface does not take the field", async () => {
    const org = await bookingsOrg(app)
    expect(codeOf((await desk(org, "later")).res)).toBe("400 invalid_payment")
    const { offering, session } = await org.classWithSession({ price_cents: 2500 })
    const pk = ok(await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "publishable", name: "site" }), 201).key
    const res = await app.call(pk, "POST", "/api/v1/public/bookings", {
      offering_id: offering.id,
      session_id: session.id,
      customer: { name: "Guest", email: "guest@example.com" },
      payment: "free"
    })
    expect(res.status).toBe(400)
    expect(ok(await org.list()).data).toHaveLength(0)
  })
})
