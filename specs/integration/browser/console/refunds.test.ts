import { describe, expect, it } from "vitest"
import { sql } from "../../../support/app.ts"
import { expectAccessible, screenshots } from "../../../support/browser.ts"
import { CARD, payWith, processorRefunded, steps } from "../../payments/helpers.ts"
import { clockNow, consoleSuite, orgWith, settle, signIn } from "./helpers.ts"

// Money: a refund that failed for good is listed first with a Retry button (bookings.retry_refund); the booking's
// page shows it refunded, and its history (events.list with booking_id) every step of it.

const suite = consoleSuite()
const { newPage } = suite

describe("retrying a failed refund", () => {
  it("is first on Money with a Retry button; the owner retries and the booking shows refunded, with its history", async () => {
    const email = "money@example.com"
    const org = await orgWith(suite.app, { [email]: "owner" })
    const offering = (
      await org.call("POST", "/offerings", { kind: "class", name: "Yoga", capacity: 10, price_cents: 2000 })
    ).body
    const at = new Date((await clockNow(suite.app)).getTime() + 48 * 3600_000)
    const session = (await org.call("POST", "/sessions", { offering_id: offering.id, starts_at: at.toISOString() }))
      .body.data[0]
    const book = async (name: string, card: string) => {
      const b = (
        await org.call("POST", "/bookings", {
          offering_id: offering.id,
          session_id: session.id,
          customer: { name, email: `${name.toLowerCase().replace(" ", ".")}@example.com` }
        })
      ).body
      expect((await payWith(suite.app, b.checkout_url, card)).status).toBe(200)
      return b as { id: string; reference: string }
    }
    const kept = await book("Kept Payer", CARD.pays)
    const failing = await book("Refused Payer", CARD.refundFails)
    expect((await org.call("POST", `/bookings/${failing.id}/cancel`, {})).status).toBe(200)
    // Every automatic try fails: taken, settled, retried after 1, 10 and 60 minutes.
    await steps(suite.app, 1, 6, 61, 6, 601, 6, 3601, 6)
    const before = (await org.call("GET", `/bookings/${failing.id}`)).body
    expect(before).toMatchObject({ refunded_at: null, refund_next_at: null })
    expect(before.refund_error).toContain("5126")
    // The guest's bank sorted out, the processor now takes this payment's refunds.
    await sql(
      suite.app,
      (s) => s`update sandbox_checkouts set card_last4 = '4242' where payment_intent_id = ${before.payment_intent_id}`
    )

    const page = await newPage()
    await signIn(suite.app, page, email)
    await page.getByRole("link", { name: "Money", exact: true }).click()
    const rows = page.getByRole("table", { name: /Payments and refunds/ }).getByRole("row")
    await rows
      .nth(1)
      .getByText(/Failed: .*5126/)
      .waitFor()
    expect(await rows.nth(1).getByRole("link").textContent()).toBe(failing.reference)
    expect(await rows.nth(2).getByRole("link").textContent()).toBe(kept.reference)
    await expectAccessible(page)
    await screenshots(page, "console-money-retry")
    await page.getByRole("button", { name: `Retry refund of ${failing.reference}` }).click()
    await page.getByText(`Refund of ${failing.reference} taken again: on its way.`).waitFor()
    await rows.filter({ hasText: failing.reference }).getByText("€20.00 on its way").waitFor()
    // The processor confirms: the screen hears of it (live) and shows it refunded.
    await steps(suite.app, 1, 6)
    await settle(suite.app)
    await page.getByText("€20.00 refunded").waitFor({ timeout: 20_000 })
    expect(await page.getByRole("button", { name: /Retry refund/ }).count()).toBe(0)
    expect(await processorRefunded(suite.app, before.payment_intent_id)).toBe(2000)
    expect((await org.call("GET", `/bookings/${failing.id}`)).body.refunded_at).not.toBeNull()

    await page.getByRole("link", { name: failing.reference }).click()
    await page.getByText("refund €20.00 refunded").waitFor()
    const history = page.getByRole("region", { name: "History" }).getByRole("listitem")
    await history.filter({ hasText: /\d\d:\d\d refunded( · .*)?$/ }).waitFor()
    const lines = (await history.allTextContents()).map((t) => t.replace(/^.*\d\d:\d\d\s*/, ""))
    expect(lines.map((t) => t.replace(/ · .*$/, ""))).toEqual([
      "held",
      "confirmed",
      "cancelled",
      "refund failed",
      "refunded"
    ])
    // Who did each: the integration's key took and cancelled it, the processor's answers are the system's.
    expect(lines[0]).toMatch(/^held · by (an|the) API key/)
    expect(lines[2]).toMatch(/^cancelled · by (an|the) API key/)
    expect(lines[3]).toBe("refund failed · automatically")
    await expectAccessible(page)
  })
})

describe("promo codes and gift cards", () => {
  it("a code gets a usage limit, a last day and offerings, and is deleted once asked; a card is adjusted and voided", async () => {
    const email = "codes@example.com"
    const org = await orgWith(suite.app, { [email]: "owner" })
    await org.call("POST", "/offerings", { kind: "class", name: "Yoga", capacity: 10, price_cents: 2000 })
    const card = (await org.call("POST", "/gift_cards", { amount_cents: 5000 })).body
    const spent = (await org.call("POST", "/gift_cards", { amount_cents: 2000 })).body
    const page = await newPage()
    await signIn(suite.app, page, email)
    await page.goto(`${suite.app.url}/dashboard/money`)
    await page.getByLabel("Code", { exact: true }).fill("SPRING10")
    await page.getByLabel("How much").fill("10")
    await page.getByLabel("Usage limit (optional)").fill("25")
    await page.getByLabel("Last day (optional)").fill("2027-04-30")
    await page.getByLabel("Yoga").check()
    await page.getByRole("button", { name: "Add code" }).click()
    await page.getByText("used 0 of 25 · until Fri 30 Apr 2027 · for Yoga").waitFor()
    const [code] = (await org.call("GET", "/promo_codes")).body.data
    expect([code.max_uses, code.ends_on, code.offering_ids.length]).toEqual([25, "2027-04-30", 1])
    await page.getByRole("button", { name: "Delete… SPRING10" }).click()
    await page.getByRole("heading", { name: "Delete the code SPRING10?" }).waitFor()
    expect((await org.call("GET", "/promo_codes")).body.data).toHaveLength(1)
    await page.getByRole("button", { name: "Delete SPRING10" }).click()
    await expect.poll(async () => (await org.call("GET", "/promo_codes")).body.data.length).toBe(0)
    // A gift card: adjusted by an amount with a note, then voided (its balance to zero) after asking.
    await page.getByRole("button", { name: `Adjust ••••${card.last4}` }).click()
    await page.getByLabel("Add or take off (EUR)").fill("-12.50")
    await page.getByLabel("Why").fill("Paid at the door")
    await page.getByRole("button", { name: "Adjust the balance" }).click()
    await page.getByText(`••••${card.last4} adjusted.`).waitFor()
    expect((await org.call("GET", `/gift_cards/${card.id}`)).body.balance_cents).toBe(3750)
    await page.getByText(`••••${card.last4}: €37.50 left of €50.00`).waitFor()
    await page.getByText(`••••${spent.last4}: €20.00 left of €20.00`).waitFor()
    // A card spent to nothing since the screen loaded: voiding it says so instead of sending a change of zero.
    expect((await org.call("POST", `/gift_cards/${spent.id}/adjust`, { cents: -2000, note: "Till" })).status).toBe(200)
    await page.getByRole("button", { name: `Void… ••••${spent.last4}` }).click()
    await page.getByRole("button", { name: "Void the card" }).click()
    await page.getByText(`Nothing is left to spend on ••••${spent.last4}: there is nothing to void.`).waitFor()
    // Spent elsewhere while the screen still shows €37.50: voiding takes what is left now.
    expect((await org.call("POST", `/gift_cards/${card.id}/adjust`, { cents: -500, note: "Till" })).status).toBe(200)
    await page.getByRole("button", { name: `Void… ••••${card.last4}` }).click()
    await page.getByRole("button", { name: "Void the card" }).click()
    await page.getByText(`••••${card.last4} voided.`).waitFor()
    expect((await org.call("GET", `/gift_cards/${card.id}`)).body.balance_cents).toBe(0)
    await page.getByText("Paid €0.00 · refunded €0.00 · kept €0.00").waitFor()
    await expectAccessible(page)
    await screenshots(page, "console-money")
  })
})
