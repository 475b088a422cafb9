import { describe, expect, it } from "vitest"
import { sql } from "../../../support/app.ts"
import { expectAccessible, screenshots } from "../../../support/browser.ts"
import { CARD, payWith } from "../../payments/helpers.ts"
import { clockNow, consoleSuite, orgWith, settle, signIn } from "./helpers.ts"

const suite = consoleSuite()
const { newPage } = suite

/** An org with an owner signed in on Today, and a class with one time three hours from now (today in Amsterdam). */
const studio = async (email: string, price = 0) => {
  const org = await orgWith(suite.app, { [email]: "owner" })
  const offering = (
    await org.call("POST", "/offerings", { kind: "class", name: "Pilates", capacity: 10, price_cents: price })
  ).body
  const at = new Date((await clockNow(suite.app)).getTime() + 3 * 3600_000)
  const session = (await org.call("POST", "/sessions", { offering_id: offering.id, starts_at: at.toISOString() })).body
    .data[0]
  const page = await newPage()
  await signIn(suite.app, page, email)
  return { org, offering, session, page }
}

const guestBooks = async (pk: string, offeringId: string, sessionId: string, n: number) => {
  const r = await suite.app.call(pk, "POST", "/api/v1/public/bookings", {
    offering_id: offeringId,
    session_id: sessionId,
    customer: { name: `Guest ${n}`, email: `guest${n}@example.com` }
  })
  expect(r.status).toBe(201)
  return r.body
}

describe("live", () => {
  it("a guest's booking on the public surface (what the widget calls) appears on Today without a reload", async () => {
    const { org, offering, session, page } = await studio("live@example.com")
    const pk = (await suite.app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "publishable", name: "site" })).body
      .key
    await page.getByText("0 taken, 10 left").waitFor()
    const marker = await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42))
    await guestBooks(pk, offering.id, session.id, 1)
    await settle(suite.app)
    await page.getByText("1 taken, 9 left").waitFor({ timeout: 20_000 })
    // The same document: no reload happened.
    expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(marker)
  })
})

describe("cancelling a time", () => {
  it("shows each guest's refund first, takes partial refunds, and cancels the bookings and the time", async () => {
    const { org, offering, session, page } = await studio("refunds@example.com", 2000)
    const paid: Array<{ id: string }> = []
    for (const n of [1, 2]) {
      const b = (
        await org.call("POST", "/bookings", {
          offering_id: offering.id,
          session_id: session.id,
          customer: { name: `Payer ${n}`, email: `payer${n}@example.com` }
        })
      ).body
      expect((await payWith(suite.app, b.checkout_url, CARD.pays)).status).toBe(200)
      paid.push(b)
    }
    await page.goto(`${suite.app.url}/dashboard/times/${session.id}?offering=${offering.id}&at=${session.starts_at}`)
    await page.getByRole("button", { name: "Cancel this time…" }).click()
    // Before anything happens: what each paid, the refunds proposed, the total.
    await page.getByText("2 bookings cancelled, €40.00 refunded in all.").waitFor()
    await page.getByLabel("Refund for Payer 2").fill("5.00")
    await page.getByText("2 bookings cancelled, €25.00 refunded in all.").waitFor()
    await page.getByLabel("Refund for Payer 1").fill("25.00")
    await page.getByText("More than was paid online.").waitFor()
    expect(await page.getByRole("button", { name: "Cancel the time" }).isDisabled()).toBe(true)
    await page.getByLabel("Refund for Payer 1").fill("20")
    await expectAccessible(page)
    await screenshots(page, "console-cancel-time")
    await page.getByRole("button", { name: "Cancel the time" }).click()
    await page.getByText("The time is cancelled and the guests are told.").waitFor()
    const after = await Promise.all(paid.map(async (b) => (await org.call("GET", `/bookings/${b.id}`)).body))
    expect(after.map((b) => [b.customer.name, b.status, b.refund_cents])).toEqual([
      ["Payer 1", "cancelled", 2000],
      ["Payer 2", "cancelled", 500]
    ])
    const times = (await org.call("GET", `/sessions?offering_id=${offering.id}`)).body.data
    expect(times.map((t: { status: string }) => t.status)).toEqual(["cancelled"])
    // The roster says who was cancelled and what each got back, not that no one was booked.
    const cancelled = page.getByRole("heading", { name: "Cancelled" }).locator("xpath=following-sibling::ul[1]")
    await cancelled.getByText("Payer 1: refund €20.00").waitFor()
    await cancelled.getByText("Payer 2: refund €5.00").waitFor()
    expect(await page.getByText("No one is booked yet.").count()).toBe(0)
  })
})

describe("the roster", () => {
  it("shows paid or not, the phone, notes and answers; a party of two checks in as two", async () => {
    const { org, offering, session, page } = await studio("roster@example.com", 1500)
    await org.call("PATCH", `/offerings/${offering.id}`, {
      max_per_booking: 4,
      questions: [{ id: "lvl", label: "Level?", type: "text" }]
    })
    const pair = (
      await org.call("POST", "/bookings", {
        offering_id: offering.id,
        session_id: session.id,
        quantity: 2,
        customer: { name: "Two Friends", email: "pair@example.com", phone: "+31612345670" },
        notes: "Mats needed",
        answers: { lvl: "Beginner" },
        payment: "unpaid"
      })
    ).body
    expect(pair.status).toBe("confirmed")
    await page.goto(`${suite.app.url}/dashboard/times/${session.id}?offering=${offering.id}&at=${session.starts_at}`)
    const row = page.locator("ul.roster li", { hasText: "Two Friends" })
    await row.getByText("€30.00 · not paid").waitFor()
    await row.getByText("+31612345670 · Note: Mats needed · Level? Beginner").waitFor()
    await page.getByText("0 of 2 people checked in.").waitFor()
    await row.getByRole("button", { name: "Check in all 2 Two Friends" }).click()
    await page.getByText("2 of 2 people checked in.").waitFor()
    await expectAccessible(page)
    await screenshots(page, "console-roster")
  })
})

describe("messages", () => {
  it("a guest's message waits in the inbox, unanswered first, and the reply reaches the guest's conversation", async () => {
    const { org, offering, session, page } = await studio("inbox@example.com")
    const b = (
      await org.call("POST", "/bookings", {
        offering_id: offering.id,
        session_id: session.id,
        customer: { name: "Writer", email: "writer@example.com" }
      })
    ).body
    const [{ handle }] = await sql(
      suite.app,
      (s) => s<{ handle: string }>`select handle from bookings where id = ${b.id}`
    )
    expect(
      (await suite.app.call(null, "POST", `/api/v1/guest/${handle}/messages`, { body: "Can I bring a friend?" })).status
    ).toBe(201)
    await settle(suite.app)
    // The menu counts the conversations waiting for an answer.
    await page.getByRole("link", { name: "Bookings" }).click()
    await page.getByRole("link", { name: "Messages 1 unanswered" }).click()
    await page.getByText(/Writer · Pilates/).waitFor()
    await page.getByRole("button", { name: /Unanswered: Can I bring a friend\?/ }).click()
    await page.getByLabel("Reply").fill("Yes, book a second place.")
    await expectAccessible(page)
    await screenshots(page, "console-messages")
    await page.getByRole("button", { name: "Send", exact: true }).click()
    await page.getByText("Sent.").waitFor()
    await settle(suite.app)
    await page.getByRole("link", { name: "Bookings" }).click()
    await expect.poll(() => page.getByRole("link", { name: /unanswered/ }).count()).toBe(0)
    const thread = (await org.call("GET", `/messages?booking_id=${b.id}`)).body.data
    expect(thread.map((m: { direction: string; body: string }) => [m.direction, m.body])).toEqual([
      ["inbound", "Can I bring a friend?"],
      ["outbound", "Yes, book a second place."]
    ])
    // The guest sees it on their page.
    const mine = (await suite.app.call(null, "GET", `/api/v1/guest/${handle}/messages`)).body.data
    expect(mine.map((m: { from: string; body: string }) => [m.from, m.body])).toContainEqual([
      "business",
      "Yes, book a second place."
    ])
  })
})
