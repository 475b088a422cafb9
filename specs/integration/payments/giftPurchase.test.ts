import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type PayResult, SandboxPages } from "../../../engine/ports/SandboxPages.ts"
import { Payments } from "../../../engine/services/payments/Payments.ts"
import { sql, type TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, expectError, guest, ok, startPinned } from "../bookings/helpers.ts"
import { CARD, checkoutPage, payWith, steps } from "./helpers.ts"

let app: TestApp
let org: BookingsOrg
let pk: string
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
  pk = ok(await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "publishable", name: "site" }), 201).key
})
afterAll(() => app.close())

const CODE = /GIFT-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}/
let n = 0
const recipient = () => `friend${++n}-${Date.now()}@example.com`
const purchase = (body: Record<string, unknown>, o: BookingsOrg = org) => o.call("POST", "/gift_cards/purchase", body)
const mailTo = async (to: string) =>
  ok(await app.admin("GET", `/mail?to=${encodeURIComponent(to)}`)).data as Array<{
    kind: string
    to: string
    subject: string
    text: string
  }>
const purchaseRow = async (id: string) =>
  (
    await sql(
      app,
      (s) => s<{ status: string; gift_card_id: string | null; source: string; payment_intent_id: string | null }>`
    select status, gift_card_id, source, payment_intent_id from gift_purchases where id = ${id}`
    )
  )[0]
const cardsFor = async (o: BookingsOrg, email: string) =>
  (
    ok(await o.call("GET", "/gift_cards")).data as Array<{
      id: string
      for_email: string
      amount_cents: number
      balance_cents: number
    }>
  ).filter((c) => c.for_email === email)

describe("gift_cards.purchase through the sandbox checkout", () => {
  it("answers a checkout; paying it issues one card, mails its code and the message to for_email, emits gift_card.purchased without the code; the code pays a booking", async () => {
    const to = recipient()
    const p = ok(
      await purchase({
        amount_cents: 5000,
        for_email: to.toUpperCase(),
        message: "Happy birthday! Go surf.",
        buyer_email: "buyer@example.com",
        buyer_name: "Ana"
      }),
      201
    )
    expect(p).toMatchObject({ status: "open", amount_cents: 5000, currency: "EUR", for_email: to })
    expect(p.checkout_url).toMatch(/^http:\/\/127\.0\.0\.1\/pay\/cs_sandbox_[0-9a-f]+$/)
    // Nothing is issued or mailed before the payment lands.
    expect(await cardsFor(org, to)).toEqual([])
    expect(await mailTo(to)).toEqual([])
    const page = await checkoutPage(app, p.checkout_url)
    expect(page.status).toBe(200)
    expect(page.html).toContain("Pay for your gift card")
    expect(page.html).toContain("€50.00")

    expect((await payWith(app, p.checkout_url, CARD.declined)).status).toBe(402)
    expect(await cardsFor(org, to)).toEqual([])
    const paid = await payWith(app, p.checkout_url, CARD.pays)
    expect(paid.status).toBe(200)
    expect(paid.html).toContain("code is on its way by email")

    const cards = await cardsFor(org, to)
    expect(cards).toHaveLength(1)
    expect(cards[0]).toMatchObject({ amount_cents: 5000, balance_cents: 5000 })
    const row = await purchaseRow(p.id)
    expect(row).toMatchObject({ status: "paid", gift_card_id: cards[0].id, source: "api" })
    const ledger = await sql(
      app,
      (s) =>
        s<{
          amount_cents: number
          booking_id: string | null
        }>`select amount_cents, booking_id from payments where gift_purchase_id = ${p.id}`
    )
    expect(ledger).toEqual([{ amount_cents: 5000, booking_id: null }])

    const mails = await mailTo(to)
    expect(mails).toHaveLength(1)
    expect(mails[0]).toMatchObject({ kind: "gift_card.purchased", to })
    expect(mails[0].subject).toContain("€50.00")
    expect(mails[0].text).toContain("Happy birthday! Go surf.")
    expect(mails[0].text).toContain("Ana")
    const code = CODE.exec(mails[0].text)![0]
    expect(code.slice(-4)).toBe((ok(await org.call("GET", `/gift_cards/${cards[0].id}`)) as { last4: string }).last4)

    const events = (await org.events("gift_card.purchased")).filter((e) => e.data.gift_purchase_id === p.id)
    expect(events).toHaveLength(1)
    expect(events[0].data).toMatchObject({
      gift_card_id: cards[0].id,
      amount_cents: 5000,
      currency: "EUR",
      for_email: to,
      buyer_email: "buyer@example.com",
      source: "api"
    })
    expect(JSON.stringify(events)).not.toContain(code)
    expect(JSON.stringify(events)).not.toContain(`${code.slice(5, 9)}-${code.slice(10, 14)}`)

    // The code, as the recipient types it, pays a booking.
    const { offering, session } = await org.classWithSession({ price_cents: 2000 })
    const b = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: guest("giftee"),
        gift_card_code: code.toLowerCase()
      }),
      201
    )
    expect(b).toMatchObject({ status: "confirmed", gift_card_id: cards[0].id, gift_cents: 2000 })
    expect(ok(await org.call("GET", `/gift_cards/${cards[0].id}`)).balance_cents).toBe(3000)

    // The paid checkout cannot be paid again; nothing more is issued.
    expect((await payWith(app, p.checkout_url, CARD.pays)).status).toBe(409)
    expect(await cardsFor(org, to)).toHaveLength(1)
  })

  it("a payment event delivered twice (and two payers racing) issues one card and one mail", async () => {
    const to = recipient()
    const p = ok(await purchase({ amount_cents: 2500, for_email: to }), 201)
    const checkoutId = p.checkout_url.split("/").pop()
    // The sandbox pays and signs the event; it is then delivered twice through the inbound path.
    const result = await app.runtime.runPromise(
      Effect.flatMap(SandboxPages, (pages) => pages.pay(checkoutId, CARD.pays)) as Effect.Effect<PayResult>
    )
    expect(result._tag).toBe("paid")
    if (result._tag !== "paid") return
    const deliver = () =>
      app.runtime.runPromise(Effect.flatMap(Payments, (pay) => pay.receive(result.event)) as Effect.Effect<unknown>)
    await Promise.all([deliver(), deliver()])
    await deliver()
    expect(await cardsFor(org, to)).toHaveLength(1)
    expect(await mailTo(to)).toHaveLength(1)
    expect((await org.events("gift_card.purchased")).filter((e) => e.data.gift_purchase_id === p.id)).toHaveLength(1)

    const racing = recipient()
    const q = ok(await purchase({ amount_cents: 1000, for_email: racing }), 201)
    const answers = await Promise.all([
      payWith(app, q.checkout_url, CARD.pays),
      payWith(app, q.checkout_url, CARD.pays)
    ])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
    expect(await cardsFor(org, racing)).toHaveLength(1)
    expect(await mailTo(racing)).toHaveLength(1)
  })

  it("an unpaid checkout that expires issues nothing and cannot be paid after", async () => {
    const to = recipient()
    const p = ok(await purchase({ amount_cents: 3000, for_email: to }), 201)
    expect(Date.parse(p.expires_at) - Date.parse(p.created_at)).toBe(60 * 60_000)
    await steps(app, 61 * 60)
    expect((await payWith(app, p.checkout_url, CARD.pays)).status).toBe(410)
    expect(await cardsFor(org, to)).toEqual([])
    expect(await mailTo(to)).toEqual([])
    expect(await purchaseRow(p.id)).toMatchObject({ status: "open", gift_card_id: null, payment_intent_id: null })
  })

  it("refuses bad input with 400 in the error shape, amounts below one whole unit of the org currency, and orgs that are not paid online", async () => {
    const to = recipient()
    const bad = async (body: Record<string, unknown>, code = "invalid_request") => {
      const res = await purchase(body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        error: { code: expect.any(String), message: expect.any(String), param: expect.any(String) }
      })
      if (code !== "invalid_request") expect(res.body.error.code).toBe(code)
      return res
    }
    await bad({ amount_cents: 0, for_email: to })
    await bad({ amount_cents: -100, for_email: to })
    await bad({ amount_cents: 12.5, for_email: to })
    await bad({ amount_cents: 100_000_000, for_email: to })
    await bad({ amount_cents: 99, for_email: to }, "invalid_amount")
    await bad({ amount_cents: 1000 })
    await bad({ amount_cents: 1000, for_email: "not an email" })
    await bad({ amount_cents: 1000, for_email: to, message: "x".repeat(1001) })
    await bad({ amount_cents: 1000, for_email: to, buyer_email: "nope" })
    await bad({ amount_cents: 1000, for_email: to, buyer_name: "" })
    await bad({ amount_cents: 1000, for_email: to, code: "GIFT-MINE" })
    expect(ok(await purchase({ amount_cents: 1000, for_email: to, message: "x".repeat(1000) }), 201).status).toBe(
      "open"
    )

    // Yen have no minor unit: 1 is one whole yen.
    const yen = await bookingsOrg(app, { currency: "JPY" })
    expect(ok(await purchase({ amount_cents: 1, for_email: to }, yen), 201)).toMatchObject({
      amount_cents: 1,
      currency: "JPY"
    })

    const offline = await bookingsOrg(app)
    ok(await offline.call("PATCH", "/org", { payments: "offline" }))
    expectError(await purchase({ amount_cents: 1000, for_email: to }, offline), 409, "not_paid_online")
  })

  it("another org sees neither the purchase's card nor takes its code", async () => {
    const to = recipient()
    const p = ok(await purchase({ amount_cents: 1500, for_email: to }), 201)
    expect((await payWith(app, p.checkout_url, CARD.pays)).status).toBe(200)
    const [card] = await cardsFor(org, to)
    const code = CODE.exec((await mailTo(to))[0].text)![0]
    const other = await bookingsOrg(app)
    expect(await cardsFor(other, to)).toEqual([])
    expectError(await other.call("GET", `/gift_cards/${card.id}`), 404, "not_found")
    const { offering, session } = await other.classWithSession({ price_cents: 1000 })
    expectError(
      await other.book({ offering_id: offering.id, session_id: session.id, gift_card_code: code }),
      400,
      "gift_card_unknown"
    )
    expect((await other.events("gift_card.purchased")).filter((e) => e.data.gift_purchase_id === p.id)).toEqual([])
  })
})

describe("POST /api/v1/public/gift_cards", () => {
  it("buys as the guest with a publishable key (source widget), from the org's allowed origins only (CORS)", async () => {
    const to = recipient()
    const pub = (body: unknown, headers: Record<string, string> = {}) =>
      app.call(pk, "POST", "/api/v1/public/gift_cards", body, headers)
    const p = ok(await pub({ amount_cents: 2000, for_email: to, message: "For you" }), 201)
    expect(p).toMatchObject({ status: "open", amount_cents: 2000, currency: "EUR" })
    expect((await purchaseRow(p.id)).source).toBe("widget")
    expectError(
      await pub({ amount_cents: 2000, for_email: to }, { origin: "https://elsewhere.example" }),
      403,
      "forbidden"
    )
    ok(await org.call("PATCH", "/org", { allowed_origins: ["https://shop.example.com"] }))
    const allowed = await pub({ amount_cents: 2000, for_email: to }, { origin: "https://shop.example.com" })
    expect(allowed.status).toBe(201)
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://shop.example.com")
    expect((await pub({ amount_cents: 0, for_email: to })).status).toBe(400)
    // A publishable key does not reach the secret-key operation.
    expectError(
      await app.call(pk, "POST", "/api/v1/gift_cards/purchase", { amount_cents: 2000, for_email: to }),
      401,
      "unauthorized"
    )

    expect((await payWith(app, p.checkout_url, CARD.pays)).status).toBe(200)
    const mails = await mailTo(to)
    expect(mails).toHaveLength(1)
    expect(mails[0].text).toContain("For you")
    const [event] = (await org.events("gift_card.purchased")).filter((e) => e.data.gift_purchase_id === p.id)
    expect(event.data.source).toBe("widget")
  })
})
