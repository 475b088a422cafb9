import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, type TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, expectError, guest, ok, startPinned } from "../bookings/helpers.ts"
import { CARD, payAgain, payWith, steps } from "../payments/helpers.ts"

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
})
afterAll(() => app.close())

const issue = async (amount_cents: number, extra: Record<string, unknown> = {}) =>
  ok(await org.call("POST", "/gift_cards", { amount_cents, ...extra }), 201)
const balanceOf = async (id: string) => ok(await org.call("GET", `/gift_cards/${id}`)).balance_cents as number
const reservedOf = async (id: string) => ok(await org.call("GET", `/gift_cards/${id}`)).reserved_cents as number
/** The card's balance is the sum of its moves, always. */
const ledgerOf = async (id: string) =>
  (
    await sql(
      app,
      (s) =>
        s<{ sum: number }>`select coalesce(sum(cents), 0)::int as sum from gift_card_moves where gift_card_id = ${id}`
    )
  )[0].sum

describe("gift cards (gift_cards.*)", () => {
  it("are issued with a code shown once, listed without it, adjusted never below zero, each with its event", async () => {
    const card = await issue(5000, { for_email: "Ana@Example.com", note: "birthday" })
    expect(card).toMatchObject({
      amount_cents: 5000,
      balance_cents: 5000,
      currency: "EUR",
      for_email: "ana@example.com",
      note: "birthday"
    })
    expect(card.code).toMatch(
      /^GIFT-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/
    )
    expect(card.last4).toBe(card.code.slice(-4))
    const listed = ok(await org.call("GET", "/gift_cards"))
    expect(listed.data.find((c: { id: string }) => c.id === card.id)).toBeDefined()
    expect(JSON.stringify(listed)).not.toContain(card.code)
    const stored = await sql(
      app,
      (s) => s<{ code_hash: string }>`select code_hash from gift_cards where id = ${card.id}`
    )
    expect(stored[0].code_hash).not.toContain(card.code.slice(5, 9))

    expect(
      ok(await org.call("POST", `/gift_cards/${card.id}/adjust`, { cents: -1500, note: "cash refund" })).balance_cents
    ).toBe(3500)
    expectError(
      await org.call("POST", `/gift_cards/${card.id}/adjust`, { cents: -3501, note: "too much" }),
      409,
      "balance_below_zero"
    )
    expect((await org.call("POST", `/gift_cards/${card.id}/adjust`, { cents: 0, note: "nothing" })).status).toBe(400)
    expect((await org.call("POST", `/gift_cards/${card.id}/adjust`, { cents: 100 })).status).toBe(400)
    expect((await org.call("POST", "/gift_cards", { amount_cents: 0 })).status).toBe(400)
    expect(await balanceOf(card.id)).toBe(3500)
    expect(await ledgerOf(card.id)).toBe(3500)

    const events = (await org.events()).filter(
      (e) => e.type.startsWith("gift_card.") && e.data.gift_card_id === card.id
    )
    expect(events.map((e) => e.type)).toEqual(["gift_card.issued", "gift_card.adjusted"])
    expect(events[1].data).toEqual({
      gift_card_id: card.id,
      cents: -1500,
      balance: 3500,
      note: "cash refund",
      for_email: "ana@example.com"
    })
    expect(JSON.stringify(events)).not.toContain(card.code)

    const other = await bookingsOrg(app)
    expectError(await other.call("GET", `/gift_cards/${card.id}`), 404, "not_found")
    expectError(await other.call("POST", `/gift_cards/${card.id}/adjust`, { cents: 10, note: "x" }), 404, "not_found")
  })

  it("pays a whole booking: confirmed at once, counted as paid; a cancel gives it back to the card", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: 2000, capacity: 10 })
    const card = await issue(5000)
    const typed = card.code.toLowerCase().replace(/-/g, " ")
    const b = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: guest("g1"),
        gift_card_code: typed
      }),
      201
    )
    expect(b).toMatchObject({
      status: "confirmed",
      gift_card_id: card.id,
      gift_cents: 2000,
      total_cents: 2000,
      paid_cents: 2000,
      checkout_url: null
    })
    expect(b.paid_at).not.toBeNull()
    expect(await balanceOf(card.id)).toBe(3000)

    ok(await org.act(b.id, "cancel"))
    expect(await balanceOf(card.id)).toBe(5000)
    expect(await ledgerOf(card.id)).toBe(5000)
    const refunded = (await org.events("gift_card.refunded")).filter((e) => e.data.booking_id === b.id)
    expect(refunded.map((e) => e.data)).toEqual([
      { gift_card_id: card.id, booking_id: b.id, cents: 2000, for_email: null }
    ])
    // Cancelling again changes nothing on the card.
    await org.act(b.id, "cancel")
    expect(await balanceOf(card.id)).toBe(5000)
  })

  it("pays part after a promo code; the checkout charges the rest, and paying it confirms with both counted as paid", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: 3000, capacity: 10 })
    ok(await org.call("POST", "/promo_codes", { code: "THIRD", percent_off: 33 }), 201)
    const card = await issue(1000)
    const b = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: guest("g2"),
        promo_code: "THIRD",
        gift_card_code: card.code
      }),
      201
    )
    // 3000 - 990 (33%) = 2010; the card pays 1000; 1010 is left for the checkout.
    expect(b).toMatchObject({
      status: "held",
      discount_cents: 990,
      total_cents: 2010,
      gift_cents: 1000,
      paid_cents: 1000,
      paid_at: null
    })
    // Held, the card's part is reserved, not taken: the balance is whole, none of it free.
    expect(await balanceOf(card.id)).toBe(1000)
    expect(await reservedOf(card.id)).toBe(1000)
    expect(await ledgerOf(card.id)).toBe(1000)
    const checkout = await sql(
      app,
      (s) => s<{ amount_cents: number }>`select amount_cents from payment_checkouts where booking_id = ${b.id}`
    )
    expect(checkout.map((c) => c.amount_cents)).toEqual([1010])
    expect((await payWith(app, b.checkout_url, CARD.pays)).status).toBe(200)
    expect(ok(await org.get(b.id))).toMatchObject({
      status: "confirmed",
      paid_cents: 2010,
      charged_cents: 1010,
      gift_cents: 1000
    })
    // Confirmed: taken off the card.
    expect(await balanceOf(card.id)).toBe(0)
    expect(await reservedOf(card.id)).toBe(0)
    expect(await ledgerOf(card.id)).toBe(0)
    // An empty card is refused by name.
    expectError(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: guest("g3"),
        gift_card_code: card.code
      }),
      400,
      "gift_card_empty"
    )
    expectError(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: guest("g3"),
        gift_card_code: "GIFT-0000-0000-0000-0000"
      }),
      400,
      "gift_card_unknown"
    )
  })

  it("is only reserved by a hold, and released when the hold lapses unpaid: nothing was taken, nothing goes back", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: 3000, capacity: 10 })
    const card = await issue(1000)
    const b = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: guest("g4"),
        gift_card_code: card.code,
        hold_minutes: 1
      }),
      201
    )
    expect(b.status).toBe("held")
    expect(await balanceOf(card.id)).toBe(1000)
    expect(await reservedOf(card.id)).toBe(1000)
    await app.advance(120)
    expect(await balanceOf(card.id)).toBe(1000)
    expect(await reservedOf(card.id)).toBe(0)
    expect((await org.events("gift_card.refunded")).some((e) => e.data.booking_id === b.id)).toBe(false)
    expect(await ledgerOf(card.id)).toBe(1000)
  })

  it("two dozen bookings racing on one card never take more than its balance", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: 700, capacity: 100 })
    const card = await issue(5000)
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        org.book({
          offering_id: offering.id,
          session_id: session.id,
          customer: guest(`race-${i}`),
          gift_card_code: card.code
        })
      )
    )
    expect(results.every((r) => r.status === 201 || r.body?.error?.code === "gift_card_empty")).toBe(true)
    const booked = results.filter((r) => r.status === 201).map((r) => r.body)
    const taken = booked.reduce((sum, b) => sum + b.gift_cents, 0)
    // 5000 pays seven whole bookings of 700 and 100 of an eighth; the rest found it empty.
    expect(taken).toBe(5000)
    expect(booked.filter((b) => b.gift_cents === 700)).toHaveLength(7)
    expect(booked.filter((b) => b.gift_cents === 100)).toHaveLength(1)
    // Seven were confirmed at once and took their part; the eighth is held (600 left to pay) and only reserved 100.
    expect(await balanceOf(card.id)).toBe(100)
    expect(await reservedOf(card.id)).toBe(100)
    expect(await ledgerOf(card.id)).toBe(100)
    ok(await org.act(booked.find((b) => b.gift_cents === 100).id, "confirm"))
    expect(await balanceOf(card.id)).toBe(0)
    expect(await reservedOf(card.id)).toBe(0)
    expect(await ledgerOf(card.id)).toBe(0)
  })

  it("a lapsed hold paid late takes its gift part again; if the card was spent meanwhile the payment is refunded instead", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: 2000, capacity: 10 })
    const card = await issue(500)
    const revived = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: guest("late1"),
        gift_card_code: card.code
      }),
      201
    )
    expect(await reservedOf(card.id)).toBe(500)
    await steps(app, 16 * 60)
    expect(await balanceOf(card.id)).toBe(500)
    expect(await reservedOf(card.id)).toBe(0)
    expect((await payWith(app, await payAgain(app, await org.handle(revived.id)), CARD.pays)).status).toBe(200)
    expect(ok(await org.get(revived.id))).toMatchObject({
      status: "confirmed",
      gift_cents: 500,
      charged_cents: 1500,
      paid_cents: 2000
    })
    expect(await balanceOf(card.id)).toBe(0)
    expect(await ledgerOf(card.id)).toBe(0)

    const second = await issue(500)
    const lost = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: guest("late2"),
        gift_card_code: second.code
      }),
      201
    )
    await steps(app, 16 * 60)
    ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: guest("spender"),
        gift_card_code: second.code
      }),
      201
    )
    // The spender's hold reserved all of it: nothing is free for the lapsed hold paid late.
    expect(await reservedOf(second.id)).toBe(500)
    expect((await payWith(app, await payAgain(app, await org.handle(lost.id)), CARD.pays)).status).toBe(200)
    expect(ok(await org.get(lost.id))).toMatchObject({ status: "cancelled", charged_cents: 1500, refund_cents: null })
    expect(await balanceOf(second.id)).toBe(500)
    expect(await reservedOf(second.id)).toBe(500)
    expect(await ledgerOf(second.id)).toBe(500)
  })
})
