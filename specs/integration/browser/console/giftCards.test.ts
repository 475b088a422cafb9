import { describe, expect, it } from "vitest"
import { expectAccessible } from "../../../support/browser.ts"
import { consoleSuite } from "./helpers.ts"

// Money's gift cards: an owner adds to and takes from a card's balance with a note, and voids a card after asking.

const suite = consoleSuite()
const { owner } = suite

describe("gift cards on Money", () => {
  it("adjusts a card's balance with a note, and voids it only once confirmed", async () => {
    const { org, page } = await owner("cards@example.com")
    const card = (await org.call("POST", "/gift_cards", { amount_cents: 5000 })).body
    const balance = async () => (await org.call("GET", `/gift_cards/${card.id}`)).body.balance_cents
    await page.getByRole("link", { name: "Money" }).click()
    const form = page.getByRole("form", { name: "Adjust a gift card" })
    await form.getByLabel("Card").selectOption(card.id)
    await form.getByLabel("Change").selectOption("remove")
    await form.getByLabel(/^By/).fill("12.50")
    await form.getByLabel("Note").fill("Paid part of a class at the door")
    await form.getByRole("button", { name: "Adjust" }).click()
    await page.getByText(`Card ••••${card.last4} now has €37.50.`).waitFor()
    expect(await balance()).toBe(3750)
    await form.getByLabel("Change").selectOption("add")
    await form.getByLabel(/^By/).fill("2.50")
    await form.getByLabel("Note").fill("Sorry for the wait")
    await form.getByRole("button", { name: "Adjust" }).click()
    await page.getByText(`Card ••••${card.last4} now has €40.00.`).waitFor()
    expect(await balance()).toBe(4000)
    await expectAccessible(page)

    await page.getByRole("button", { name: `Void… card ending ${card.last4}` }).click()
    await page.getByRole("heading", { name: `Void the card ••••${card.last4}?` }).waitFor()
    await page.getByText(/Its €40\.00 left to spend goes/).waitFor()
    await expectAccessible(page)
    await page.getByRole("button", { name: "Keep it" }).click()
    expect(await balance()).toBe(4000)
    await page.getByRole("button", { name: `Void… card ending ${card.last4}` }).click()
    await page.getByRole("button", { name: "Void the card" }).click()
    await page.getByText(`Card ••••${card.last4} voided.`).waitFor()
    expect(await balance()).toBe(0)
    await page.getByText(/€0\.00 left of €50\.00 \(nothing left\)/).waitFor()
  })
})
