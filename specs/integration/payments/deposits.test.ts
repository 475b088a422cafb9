import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, ok, startPinned } from "../bookings/helpers.ts"
import { guestApi, handleOf } from "../guest/helpers.ts"
import { CARD, checkoutPage, ledger, payWith, processorRefunded, steps } from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startPinned()
})
afterAll(() => app.close())

/** Books `quantity` seats of a class priced `price` with `deposit`, pays the checkout, and returns the booking after. */
const payDeposit = async (org: BookingsOrg, price: number, deposit: Record<string, number>, quantity = 1) => {
  const { offering, session } = await org.classWithSession({ price_cents: price, ...deposit })
  const b = ok(await org.book({ offering_id: offering.id, session_id: session.id, quantity }), 201)
  const page = await checkoutPage(app, b.checkout_url)
  expect((await payWith(app, b.checkout_url, CARD.pays)).status).toBe(200)
  return { b, page: page.html, after: ok(await org.get(b.id)) }
}

describe("deposits", () => {
  it("EUR (2 decimals): deposit_percent of the total, rounded half up to a cent, is what the checkout charges; the rest is due", async () => {
    const org = await bookingsOrg(app, { currency: "EUR" })
    const { b, page, after } = await payDeposit(org, 1250, { deposit_percent: 33 })
    expect(b.total_cents).toBe(1250)
    expect(page).toContain("€4.13")
    expect(after).toMatchObject({ status: "confirmed", total_cents: 1250, charged_cents: 413, paid_cents: 413 })
    // The rest is marked paid by hand later, up to the total.
    expect(ok(await org.act(after.id, "mark_paid", {})).paid_cents).toBe(1250)
    // Cancelling refunds what was charged online (the deposit), not the total.
    ok(await org.act(after.id, "cancel", {}))
    await steps(app, 1, 6)
    expect(await processorRefunded(app, after.payment_intent_id)).toBe(413)
  })

  it("EUR: deposit_cents is per booking, at most the total", async () => {
    const org = await bookingsOrg(app, { currency: "EUR" })
    expect((await payDeposit(org, 2000, { deposit_cents: 1500 }, 3)).after).toMatchObject({
      total_cents: 6000,
      charged_cents: 1500,
      paid_cents: 1500
    })
    expect((await payDeposit(org, 700, { deposit_cents: 5000 })).after).toMatchObject({
      total_cents: 700,
      charged_cents: 700
    })
  })

  it("JPY (zero decimals): amounts are whole yen, a half yen rounds up, the page shows yen", async () => {
    const org = await bookingsOrg(app, { currency: "JPY" })
    const { page, after } = await payDeposit(org, 3333, { deposit_percent: 50 })
    expect(after).toMatchObject({ total_cents: 3333, charged_cents: 1667, paid_cents: 1667 })
    expect(page).toContain("¥1,667")
    expect(page).toContain("<dd>JPY</dd>")
    expect(await ledger(app, after.id)).toEqual([expect.objectContaining({ amount_cents: 1667 })])
    const whole = await payDeposit(org, 5000, { deposit_cents: 1200 })
    expect(whole.after).toMatchObject({ charged_cents: 1200 })
    expect(whole.page).toContain("¥1,200")
  })

  it("every surface shows the deposit due now and the rest due at the start: the quote, the guest page and its API", async () => {
    const org = await bookingsOrg(app, { currency: "EUR" })
    const { offering, session } = await org.classWithSession({ price_cents: 1999, deposit_cents: 500 })
    expect(ok(await org.call("POST", "/public/quote", { offering_id: offering.id }))).toEqual({
      price_cents: 1999,
      discount_cents: 0,
      total_cents: 1999,
      gift_cents: 0,
      due_cents: 500,
      due_at_start_cents: 1499,
      currency: "EUR"
    })
    const b = ok(await org.book({ offering_id: offering.id, session_id: session.id }), 201)
    const handle = await handleOf(app, b.id)
    expect(ok(await guestApi(app, handle).get()).actions).toMatchObject({ pay_cents: 500 })
    const html = await (await fetch(`${app.url}/b/${handle}`)).text()
    expect(html).toContain("Pay €5.00 now</a>")
    expect(html).toContain("The rest, €14.99, is due at the start.")
    expect(html).not.toContain("Pay €19.99")
    // Without a deposit the button takes the whole total, with nothing left for later.
    const whole = await org.classWithSession({ price_cents: 1999 })
    expect(ok(await org.call("POST", "/public/quote", { offering_id: whole.offering.id }))).toMatchObject({
      due_cents: 1999,
      due_at_start_cents: 0
    })
    const w = ok(await org.book({ offering_id: whole.offering.id, session_id: whole.session.id }), 201)
    const page = await (await fetch(`${app.url}/b/${await handleOf(app, w.id)}`)).text()
    expect(page).toContain("Pay €19.99</a>")
    expect(page).not.toContain("due at the start.")
  })
})
