import { describe, expect, it } from "vitest"
import { expectAccessible } from "../../../support/browser.ts"
import { clockNow, consoleSuite } from "./helpers.ts"

// Voiding a gift card while a held booking has reserved part of it: what is left to spend goes, the held part stays
// with the booking (the engine never lets an adjustment take it), and the void is not refused.

const suite = consoleSuite()
const { owner } = suite

describe("voiding a gift card with part of it held", () => {
  it("takes what is left to spend, says the held part stays, and the card keeps only that", async () => {
    const { org, page } = await owner("void@example.com")
    const offering = (
      await org.call("POST", "/offerings", { kind: "class", name: "Yoga", capacity: 10, price_cents: 2000 })
    ).body
    const at = new Date((await clockNow(suite.app)).getTime() + 48 * 3600_000)
    const session = (await org.call("POST", "/sessions", { offering_id: offering.id, starts_at: at.toISOString() }))
      .body.data[0]
    const card = (await org.call("POST", "/gift_cards", { amount_cents: 1500 })).body
    const held = await org.call("POST", "/bookings", {
      offering_id: offering.id,
      session_id: session.id,
      customer: { name: "Ada Lovelace", email: "ada@example.com" },
      gift_card_code: card.code
    })
    // The card pays 1500 of 2000: held for the rest, its part reserved; then 1000 more is put on it.
    expect(held.body.status).toBe("held")
    expect((await org.call("POST", `/gift_cards/${card.id}/adjust`, { cents: 1000, note: "Top-up" })).status).toBe(200)
    const read = async () => (await org.call("GET", `/gift_cards/${card.id}`)).body
    expect(await read()).toMatchObject({ balance_cents: 2500, reserved_cents: 1500 })
    await page.goto(`${suite.app.url}/dashboard/money`)
    await page.getByRole("button", { name: `Void… ••••${card.last4}` }).click()
    await page.getByRole("heading", { name: `Void the card ••••${card.last4}?` }).waitFor()
    await page.getByText(/Its €10\.00 left to spend goes.*€15\.00 held by bookings not yet confirmed stays/).waitFor()
    await expectAccessible(page)
    await page.getByRole("button", { name: "Void the card" }).click()
    await page.getByText(`••••${card.last4} voided.`).waitFor()
    expect(await read()).toMatchObject({ balance_cents: 1500, reserved_cents: 1500 })
    await expect.poll(() => page.getByRole("button", { name: `Void… ••••${card.last4}` }).count()).toBe(0)
  })
})
