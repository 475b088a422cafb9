import Stripe from "stripe"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { advanceTo, type BookingsOrg, bookingsOrg, ok, PIN } from "../bookings/helpers.ts"
import { expectMoneyMatchesLedger, ledger, steps } from "./helpers.ts"
import { startStripeServer } from "./stripeServer.ts"

const SECRET = "whsec_test_local_0123456789"
let app: TestApp
let org: BookingsOrg
let stripe: Awaited<ReturnType<typeof startStripeServer>>
let n = 0

beforeAll(async () => {
  stripe = await startStripeServer()
  app = await startApp({
    stripe: {
      secretKey: "sk_test_local",
      webhookSecret: SECRET,
      host: "127.0.0.1",
      port: stripe.port,
      protocol: "http"
    }
  })
  await advanceTo(app, PIN)
  org = await bookingsOrg(app)
})
afterAll(async () => {
  await app.close()
  await stripe.close()
})

/** Posts an event to the inbound route as Stripe does: JSON body, Stripe-Signature over it. */
const deliver = async (
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; secret?: string } = {}
) => {
  const payload = JSON.stringify({
    id: options.id ?? `evt_${++n}`,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null }
  })
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? SECRET })
  const res = await fetch(`${app.url}/payments/stripe/events`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": header },
    body: payload
  })
  return { status: res.status, body: await res.json() }
}

const completed = (session: Record<string, unknown>, pi: string) => ({
  ...session,
  status: "complete",
  payment_status: "paid",
  payment_intent: pi
})

const heldSeat = async (body: Record<string, unknown> = {}) => {
  const { offering, session } = await org.classWithSession({ price_cents: 4000, ...body })
  const b = ok(await org.book({ offering_id: offering.id, session_id: session.id }), 201)
  const checkoutId = [...stripe.sessions.keys()].at(-1)!
  return { b, checkout: stripe.sessions.get(checkoutId)!, checkoutId }
}

describe("the Stripe adapter (real SDK, local wire-format server)", () => {
  it("opens a Checkout Session in payment mode for the hold: amount, currency, metadata, idempotency key, expiry at least 30 minutes out", async () => {
    const before = Date.now()
    const { b, checkoutId } = await heldSeat({ deposit_percent: 25 })
    expect(b.checkout_url).toBe(`https://checkout.stripe.test/c/pay/${checkoutId}`)
    const call = stripe.calls.find(
      (c) => c.path === "/v1/checkout/sessions" && c.form["metadata[booking_id]"] === b.id
    )!
    expect(call.method).toBe("POST")
    expect(call.authorization).toBe("Bearer sk_test_local")
    expect(call.form).toMatchObject({
      mode: "payment",
      "metadata[org_id]": org.id,
      "metadata[booking_id]": b.id,
      "line_items[0][price_data][currency]": "eur",
      "line_items[0][price_data][unit_amount]": "1000",
      "line_items[0][quantity]": "1",
      "payment_intent_data[metadata][booking_id]": b.id
    })
    expect(call.idempotencyKey).toBe(`${b.id}:checkout:0`)
    expect(Number(call.form.expires_at) * 1000).toBeGreaterThanOrEqual(before + 30 * 60_000)
    expect(call.form.success_url).toContain("{CHECKOUT_SESSION_ID}")
  })

  it("checkout.session.completed confirms the hold; a replay and an expiry arriving after it change nothing", async () => {
    const { b, checkout } = await heldSeat()
    const event = completed(checkout, "pi_test_a")
    expect(await deliver("checkout.session.completed", event, { id: "evt_completed_a" })).toEqual({
      status: 200,
      body: { received: true }
    })
    const after = ok(await org.get(b.id))
    expect(after).toMatchObject({
      status: "confirmed",
      payment_intent_id: "pi_test_a",
      charged_cents: 4000,
      paid_cents: 4000
    })
    expect((await deliver("checkout.session.completed", event, { id: "evt_completed_a" })).status).toBe(200)
    expect((await deliver("checkout.session.completed", event)).status).toBe(200)
    expect((await deliver("checkout.session.expired", { ...checkout, status: "expired" })).status).toBe(200)
    expect(ok(await org.get(b.id))).toMatchObject({ status: "confirmed", payment_intent_id: "pi_test_a" })
    expect(await ledger(app, b.id)).toHaveLength(1)
    expect((await org.events("booking.confirmed")).filter((e) => e.data.id === b.id)).toHaveLength(1)
  })

  it("refuses an event whose signature does not verify with 400 and changes nothing", async () => {
    const { b, checkout } = await heldSeat()
    const bad = await deliver("checkout.session.completed", completed(checkout, "pi_test_bad"), {
      secret: "whsec_someone_else"
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe("invalid_signature")
    const none = await fetch(`${app.url}/payments/stripe/events`, { method: "POST", body: "{}" })
    expect(none.status).toBe(400)
    expect(ok(await org.get(b.id)).status).toBe("held")
  })

  it("cancel refunds through POST /v1/refunds with an idempotency key; refund.updated confirms it, a later charge.refunded is no second refund", async () => {
    const { b, checkout } = await heldSeat()
    await deliver("checkout.session.completed", completed(checkout, "pi_test_r"))
    ok(await org.act(b.id, "cancel", { refund_cents: 1500 }))
    stripe.state.refundStatus = "pending"
    await steps(app, 1)
    const call = stripe.calls.find((c) => c.path === "/v1/refunds" && c.form.payment_intent === "pi_test_r")!
    expect(call.form).toMatchObject({ amount: "1500", "metadata[booking_id]": b.id })
    expect(call.idempotencyKey).toMatch(/:refund:0$/)
    const taken = ok(await org.get(b.id))
    expect(taken.refund_id).toMatch(/^re_test_/)
    expect(taken.refunded_at).toBeNull()
    const refund = stripe.refunds.get(taken.refund_id)!
    expect((await deliver("refund.updated", { ...refund, status: "succeeded" })).status).toBe(200)
    expect(ok(await org.get(b.id)).refunded_at).not.toBeNull()
    await deliver("charge.refunded", {
      id: "ch_1",
      object: "charge",
      payment_intent: "pi_test_r",
      amount_refunded: 1500
    })
    expect((await org.events("booking.refunded")).filter((e) => e.data.id === b.id)).toHaveLength(1)
    expect(await ledger(app, b.id)).toEqual([expect.objectContaining({ refund_state: "refunded", refund_cents: 1500 })])
  })

  it("a refund's outcome arriving before its id was recorded still settles it; refund.failed schedules a retry", async () => {
    const { b, checkout } = await heldSeat()
    await deliver("checkout.session.completed", completed(checkout, "pi_test_f"))
    ok(await org.act(b.id, "cancel", {}))
    // The event comes first: the refund job has not even called Stripe yet.
    expect(
      (
        await deliver("refund.failed", {
          id: "re_early",
          object: "refund",
          payment_intent: "pi_test_f",
          status: "failed",
          failure_reason: "lost_or_stolen_card"
        })
      ).status
    ).toBe(200)
    const failed = ok(await org.get(b.id))
    expect(failed).toMatchObject({ refund_error: "lost_or_stolen_card", refund_id: "re_early" })
    expect(Date.parse(failed.refund_next_at) - Date.parse(failed.refund_failed_at)).toBe(60_000)
    stripe.state.refundStatus = "succeeded"
    await steps(app, 61)
    const retried = stripe.calls.filter((c) => c.path === "/v1/refunds" && c.form.payment_intent === "pi_test_f")
    expect(retried).toHaveLength(1)
    expect(retried[0].idempotencyKey).toMatch(/:refund:1$/)
    const done = ok(await org.get(b.id))
    expect(done.refunded_at).not.toBeNull()
    expect(done.refund_id).not.toBe("re_early")
  })

  it("the hold lapsing expires the Checkout Session at Stripe (POST .../expire); a completion arriving later revives the booking", async () => {
    const { b, checkout, checkoutId } = await heldSeat()
    await steps(app, 16 * 60, 1)
    expect(stripe.calls.some((c) => c.path === `/v1/checkout/sessions/${checkoutId}/expire`)).toBe(true)
    expect(stripe.sessions.get(checkoutId)!.status).toBe("expired")
    await deliver("checkout.session.completed", completed(checkout, "pi_test_late"))
    expect(ok(await org.get(b.id))).toMatchObject({ status: "confirmed", payment_intent_id: "pi_test_late" })
  })

  it("a hold confirmed by hand or cancelled expires its Checkout Session at Stripe; a completion that still arrives leaves booking and ledger agreeing", async () => {
    const confirmed = await heldSeat()
    ok(await org.act(confirmed.b.id, "confirm"))
    const cancelled = await heldSeat()
    ok(await org.act(cancelled.b.id, "cancel", { refund_cents: 0 }))
    await steps(app, 1)
    for (const { checkoutId } of [confirmed, cancelled]) {
      const expired = stripe.calls.filter(
        (c) => c.method === "POST" && c.path === `/v1/checkout/sessions/${checkoutId}/expire`
      )
      expect(expired.map((c) => c.idempotencyKey)).toEqual([`${checkoutId}:expire`])
      expect(stripe.sessions.get(checkoutId)!.status).toBe("expired")
    }
    // Paid at Stripe in the moment before the expiry: the confirmed booking keeps it, the cancelled one gives it back whole.
    await deliver("checkout.session.completed", completed(confirmed.checkout, "pi_test_confirmed_late"))
    expect(ok(await org.get(confirmed.b.id))).toMatchObject({
      status: "confirmed",
      payment_intent_id: "pi_test_confirmed_late",
      charged_cents: 4000,
      paid_cents: 4000,
      refund_next_at: null
    })
    expect(await ledger(app, confirmed.b.id)).toEqual([expect.objectContaining({ refund_state: null })])
    await deliver("checkout.session.completed", completed(cancelled.checkout, "pi_test_cancelled_late"))
    expect(ok(await org.get(cancelled.b.id))).toMatchObject({
      status: "cancelled",
      payment_intent_id: "pi_test_cancelled_late",
      charged_cents: 4000,
      refund_cents: null
    })
    stripe.state.refundStatus = "succeeded"
    await steps(app, 1)
    expect(
      stripe.calls.find((c) => c.path === "/v1/refunds" && c.form.payment_intent === "pi_test_cancelled_late")!.form
        .amount
    ).toBe("4000")
    expect(ok(await org.get(cancelled.b.id)).refunded_at).not.toBeNull()
    await expectMoneyMatchesLedger(app, org, confirmed.b.id)
    await expectMoneyMatchesLedger(app, org, cancelled.b.id)
  })

  it("offerings.delete with cancel_bookings answers what became of each refund: refunded, failed or on its way", async () => {
    /** An offering with `paid` bookings paid through Stripe and one hold not paid. */
    const offeringWith = async (paid: number, tag: string) => {
      const { offering, session } = await org.classWithSession({ price_cents: 4000, capacity: 10 })
      for (let i = 0; i < paid; i++) {
        ok(await org.book({ offering_id: offering.id, session_id: session.id }), 201)
        const checkoutId = [...stripe.sessions.keys()].at(-1)!
        await deliver("checkout.session.completed", completed(stripe.sessions.get(checkoutId)!, `pi_del_${tag}_${i}`))
      }
      ok(await org.book({ offering_id: offering.id, session_id: session.id }), 201)
      return offering.id as string
    }
    const remove = (id: string) => org.call("DELETE", `/offerings/${id}?cancel_bookings=true`)

    const succeeding = await offeringWith(2, "ok")
    stripe.state.refundStatus = "succeeded"
    expect(ok(await remove(succeeding))).toEqual({ cancelled: 3, refunded: 2, refunding: 0, refund_failed: 0 })

    const failing = await offeringWith(1, "no")
    stripe.state.refundStatus = "failed"
    expect(ok(await remove(failing))).toEqual({ cancelled: 2, refunded: 0, refunding: 0, refund_failed: 1 })

    const pending = await offeringWith(1, "wait")
    stripe.state.refundStatus = "pending"
    expect(ok(await remove(pending))).toEqual({ cancelled: 2, refunded: 0, refunding: 1, refund_failed: 0 })
    stripe.state.refundStatus = "succeeded"
  })

  it("a hold confirmed while its Checkout Session was being opened: the session is expired at once, never left open", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: 4000 })
    let release = () => {}
    stripe.state.checkoutGate = new Promise<void>((resolve) => (release = resolve))
    const calls = stripe.calls.length
    const creating = org.book({ offering_id: offering.id, session_id: session.id })
    while (!stripe.calls.slice(calls).some((c) => c.path === "/v1/checkout/sessions"))
      await new Promise((r) => setTimeout(r, 10))
    const bookingId = stripe.calls.slice(calls).find((c) => c.path === "/v1/checkout/sessions")!.form[
      "metadata[booking_id]"
    ]
    // The hold is written before the processor is called: confirmed by hand in the meantime.
    ok(await org.act(bookingId, "confirm"))
    release()
    stripe.state.checkoutGate = null
    expect(ok(await creating, 201)).toMatchObject({ id: bookingId, checkout_url: null })
    const checkoutId = [...stripe.sessions.keys()].at(-1)!
    expect(stripe.sessions.get(checkoutId)!.metadata).toMatchObject({ booking_id: bookingId })
    expect(ok(await org.get(bookingId))).toMatchObject({ status: "confirmed", checkout_url: null })
    await steps(app, 1)
    expect(stripe.calls.some((c) => c.path === `/v1/checkout/sessions/${checkoutId}/expire`)).toBe(true)
    expect(stripe.sessions.get(checkoutId)!.status).toBe("expired")
  })

  it("gift_cards.purchase opens a Checkout Session naming the purchase; completed issues one card however often it is delivered; an expired one issues none", async () => {
    const to = `stripe-gift-${Date.now()}@example.com`
    const p = ok(
      await org.call("POST", "/gift_cards/purchase", {
        amount_cents: 4500,
        for_email: to,
        buyer_email: "payer@example.com"
      }),
      201
    )
    const checkoutId = [...stripe.sessions.keys()].at(-1)!
    expect(p.checkout_url).toBe(`https://checkout.stripe.test/c/pay/${checkoutId}`)
    const call = stripe.calls.find(
      (c) => c.path === "/v1/checkout/sessions" && c.form["metadata[gift_purchase_id]"] === p.id
    )!
    expect(call.form).toMatchObject({
      mode: "payment",
      "metadata[org_id]": org.id,
      "line_items[0][price_data][unit_amount]": "4500",
      "line_items[0][price_data][currency]": "eur",
      "payment_intent_data[metadata][gift_purchase_id]": p.id,
      customer_email: "payer@example.com",
      client_reference_id: p.id
    })
    expect(call.form["metadata[booking_id]"]).toBeUndefined()
    expect(call.idempotencyKey).toBe(`${p.id}:gift_checkout`)

    const event = completed(stripe.sessions.get(checkoutId)!, "pi_test_gift")
    expect((await deliver("checkout.session.completed", event, { id: "evt_gift_a" })).status).toBe(200)
    expect((await deliver("checkout.session.completed", event, { id: "evt_gift_a" })).status).toBe(200)
    expect((await deliver("checkout.session.completed", event)).status).toBe(200)
    const cards = ok(await org.call("GET", "/gift_cards")).data.filter((c: { for_email: string }) => c.for_email === to)
    expect(cards).toHaveLength(1)
    expect(cards[0]).toMatchObject({ amount_cents: 4500, balance_cents: 4500 })
    const mails = ok(await app.admin("GET", `/mail?to=${encodeURIComponent(to)}`)).data
    expect(mails).toHaveLength(1)
    expect(mails[0].text).toMatch(/GIFT-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/)
    expect((await org.events("gift_card.purchased")).filter((e) => e.data.gift_purchase_id === p.id)).toHaveLength(1)

    const lapsed = `stripe-gift-lapsed-${Date.now()}@example.com`
    const q = ok(await org.call("POST", "/gift_cards/purchase", { amount_cents: 1000, for_email: lapsed }), 201)
    const expiredId = [...stripe.sessions.keys()].at(-1)!
    expect(
      (await deliver("checkout.session.expired", { ...stripe.sessions.get(expiredId)!, status: "expired" })).status
    ).toBe(200)
    const [row] = await sql(
      app,
      (s) =>
        s<{
          status: string
          gift_card_id: string | null
        }>`select status, gift_card_id from gift_purchases where id = ${q.id}`
    )
    expect(row).toEqual({ status: "expired", gift_card_id: null })
    expect(
      ok(await org.call("GET", "/gift_cards")).data.filter((c: { for_email: string }) => c.for_email === lapsed)
    ).toEqual([])
    expect(ok(await app.admin("GET", `/mail?to=${encodeURIComponent(lapsed)}`)).data).toEqual([])
  })
})
