import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, type TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, expectError, ok, startPinned } from "../bookings/helpers.ts"
import { CARD, checkoutPage, expectMoneyMatchesLedger, ledger, payWith, processorRefunded, steps } from "./helpers.ts"

// A checkout closes when its booking stops needing it (confirmed by hand, cancelled), and a payment that lands anyway
// leaves the booking and its ledger saying the same.

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
})
afterAll(() => app.close())

const heldSeat = async (body: Record<string, unknown> = {}) => {
  const { offering, session } = await org.classWithSession({ price_cents: 2000, ...body })
  const b = ok(await org.book({ offering_id: offering.id, session_id: session.id }), 201)
  expect(b).toMatchObject({ status: "held" })
  expect(b.checkout_url).not.toBeNull()
  return b as { id: string; checkout_url: string }
}

const checkoutStatus = async (bookingId: string) =>
  sql(
    app,
    (s) => s<{ engine: string; sandbox: string }>`select p.status as engine, c.status as sandbox
    from payment_checkouts p join sandbox_checkouts c on c.id = p.id where p.booking_id = ${bookingId} order by p.created_at`
  )

describe("a checkout the booking no longer needs", () => {
  it("closes when the hold is confirmed by hand: the processor expires it and paying it is refused (410)", async () => {
    const b = await heldSeat()
    const confirmed = ok(await org.act(b.id, "confirm"))
    expect(confirmed).toMatchObject({ status: "confirmed", checkout_url: null, paid_at: null, charged_cents: null })
    expect(await checkoutStatus(b.id)).toEqual([{ engine: "expiring", sandbox: "open" }])
    await steps(app, 1)
    expect(await checkoutStatus(b.id)).toEqual([{ engine: "expired", sandbox: "expired" }])
    expect((await payWith(app, b.checkout_url, CARD.pays)).status).toBe(410)
    expect((await checkoutPage(app, b.checkout_url)).html).toContain("expired")
    expect(await ledger(app, b.id)).toEqual([])
    await expectMoneyMatchesLedger(app, org, b.id)
  })

  it("closes when the hold is cancelled", async () => {
    const b = await heldSeat()
    expect(ok(await org.act(b.id, "cancel", {}))).toMatchObject({ status: "cancelled", checkout_url: null })
    await steps(app, 1)
    expect(await checkoutStatus(b.id)).toEqual([{ engine: "expired", sandbox: "expired" }])
    expect((await payWith(app, b.checkout_url, CARD.pays)).status).toBe(410)
    await expectMoneyMatchesLedger(app, org, b.id)
  })

  it("paid before it closed, on a hold confirmed by hand: the payment is the booking's (paid, kept), and a cancel refunds it", async () => {
    const b = await heldSeat({ deposit_cents: 500 })
    ok(await org.act(b.id, "confirm"))
    // The guest pays in the moment before the processor closes the checkout.
    expect((await payWith(app, b.checkout_url, CARD.pays)).status).toBe(200)
    await steps(app, 1, 6)
    const paid = ok(await org.get(b.id))
    expect(paid).toMatchObject({
      status: "confirmed",
      charged_cents: 500,
      paid_cents: 500,
      refund_cents: null,
      refund_next_at: null,
      refunded_at: null
    })
    expect(paid.payment_intent_id).toMatch(/^pi_sandbox_/)
    expect(paid.paid_at).not.toBeNull()
    expect(await ledger(app, b.id)).toEqual([expect.objectContaining({ amount_cents: 500, refund_state: null })])
    const events = (await org.events()).filter((e) => e.data?.id === b.id).map((e) => e.type)
    expect(events).toEqual(["booking.held", "booking.confirmed", "booking.paid"])
    await expectMoneyMatchesLedger(app, org, b.id)

    ok(await org.act(b.id, "cancel", { refund_cents: 200 }))
    await steps(app, 1, 6)
    expect(ok(await org.get(b.id))).toMatchObject({
      status: "cancelled",
      charged_cents: 500,
      refund_cents: 200,
      refund_next_at: null
    })
    expect(await processorRefunded(app, paid.payment_intent_id)).toBe(200)
    await expectMoneyMatchesLedger(app, org, b.id)
  })

  it("paid before it closed, on a booking confirmed and marked paid by hand: refunded in full, the booking keeps describing the hand payment", async () => {
    const b = await heldSeat()
    ok(await org.act(b.id, "confirm"))
    ok(await org.act(b.id, "mark_paid", { paid_cents: 2000 }))
    expect((await payWith(app, b.checkout_url, CARD.pays)).status).toBe(200)
    await steps(app, 1, 6)
    expect(ok(await org.get(b.id))).toMatchObject({
      status: "confirmed",
      paid_cents: 2000,
      payment_intent_id: null,
      charged_cents: null,
      refunded_at: null
    })
    const [row] = await ledger(app, b.id)
    expect(row).toMatchObject({ amount_cents: 2000, refund_cents: 2000, refund_state: "refunded" })
    expect(await processorRefunded(app, row.payment_intent_id)).toBe(2000)
    await expectMoneyMatchesLedger(app, org, b.id)
  })

  it("paid before it closed, on a cancelled hold: refunded in full, and the booking says so (refund_cents null: the whole payment)", async () => {
    const b = await heldSeat()
    ok(await org.act(b.id, "cancel", { refund_cents: 0 }))
    expect((await payWith(app, b.checkout_url, CARD.pays)).status).toBe(200)
    const landed = ok(await org.get(b.id))
    expect(landed).toMatchObject({ status: "cancelled", charged_cents: 2000, refund_cents: null, paid_cents: null })
    expect(landed.refund_next_at).not.toBeNull()
    await steps(app, 1, 6)
    const after = ok(await org.get(b.id))
    expect(after.refunded_at).not.toBeNull()
    expect(await processorRefunded(app, after.payment_intent_id)).toBe(2000)
    await expectMoneyMatchesLedger(app, org, b.id)
  })
})

describe("cancelling with refund_cents more than was charged", () => {
  it("an unpaid hold (nothing charged) is 400 invalid_refund_cents for any refund above 0, and nothing is recorded", async () => {
    const b = await heldSeat()
    const before = (await org.events()).length
    const refused = await org.act(b.id, "cancel", { refund_cents: 1500 })
    expectError(refused, 400, "invalid_refund_cents")
    expect(refused.body.error.message).toContain("at most 0")
    expectError(await org.act(b.id, "cancel", { refund_cents: 1 }), 400, "invalid_refund_cents")
    expect(ok(await org.get(b.id))).toMatchObject({
      status: "held",
      refund_cents: null,
      cancelled_at: null,
      refund_next_at: null
    })
    expect((await org.events()).length).toBe(before)
    expect(await ledger(app, b.id)).toEqual([])
    // None (0) and the default (null) cancel it.
    expect(ok(await org.act(b.id, "cancel", { refund_cents: 0 }))).toMatchObject({
      status: "cancelled",
      refund_cents: 0
    })
    await expectMoneyMatchesLedger(app, org, b.id)
  })

  it("a booking confirmed by hand and never paid online: 400 for refund_cents above 0", async () => {
    const b = await heldSeat()
    ok(await org.act(b.id, "confirm"))
    expectError(await org.act(b.id, "cancel", { refund_cents: 2000 }), 400, "invalid_refund_cents")
    expect(ok(await org.get(b.id)).status).toBe("confirmed")
    expect(ok(await org.act(b.id, "cancel", {}))).toMatchObject({
      status: "cancelled",
      refund_cents: null,
      refund_next_at: null
    })
    await expectMoneyMatchesLedger(app, org, b.id)
  })
})

describe("marking paid by hand a booking paid online", () => {
  it("counts the online payment: paid_cents at least it, and taking the hand payment back leaves paid_at and paid_cents as the checkout paid them", async () => {
    const b = await heldSeat({ deposit_cents: 500 })
    await payWith(app, b.checkout_url, CARD.pays)
    const online = ok(await org.get(b.id))
    expect(online).toMatchObject({ status: "confirmed", paid_cents: 500, charged_cents: 500 })
    // Less than was paid online is not what was paid.
    expectError(await org.act(b.id, "mark_paid", { paid_cents: 499 }), 400, "invalid_paid_cents")
    expect(ok(await org.act(b.id, "mark_paid", {}))).toMatchObject({ paid_cents: 2000 })
    const unpaid = ok(await org.act(b.id, "mark_unpaid"))
    expect(unpaid).toMatchObject({
      paid_cents: 500,
      paid_at: online.paid_at,
      charged_cents: 500,
      payment_intent_id: online.payment_intent_id
    })
    await expectMoneyMatchesLedger(app, org, b.id)
    // Marked paid again, and taken back again.
    expect(ok(await org.act(b.id, "mark_paid", { paid_cents: 1500 }))).toMatchObject({ paid_cents: 1500 })
    expect(ok(await org.act(b.id, "mark_unpaid"))).toMatchObject({ paid_cents: 500, paid_at: online.paid_at })
  })
})
