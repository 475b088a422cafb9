import { describe, expect, it } from "vitest"
import { sql } from "../../../support/app.ts"
import { expectAccessible, screenshots } from "../../../support/browser.ts"
import { hoursAhead } from "../../bookings/helpers.ts"
import { clockNow, consoleSuite, settle } from "./helpers.ts"

const suite = consoleSuite()

describe("a guest's page", () => {
  it("shows their bookings, payments, answers, notes and messages; the guests list, the inbox and the roster lead there", async () => {
    const { org, page } = await suite.owner("guestpage@example.com")
    const offering = (
      await org.call("POST", "/offerings", {
        kind: "class",
        name: "Reformer",
        capacity: 6,
        price_cents: 3000,
        questions: [{ id: "inj", label: "Any injuries?", type: "text", required: false }]
      })
    ).body
    const at = hoursAhead(await clockNow(suite.app), 24)
    const session = (await org.call("POST", "/sessions", { offering_id: offering.id, starts_at: at.toISOString() }))
      .body.data[0]
    const booking = (
      await org.call("POST", "/bookings", {
        offering_id: offering.id,
        session_id: session.id,
        customer: { name: "Ada Lovelace", email: "ada@example.com", phone: "+31 6 1234 5678" },
        notes: "Prefers the front row",
        answers: { inj: "Left knee" },
        payment: "unpaid"
      })
    ).body
    expect(booking.status).toBe("confirmed")
    const [{ handle }] = await sql(
      suite.app,
      (s) => s<{ handle: string }>`select handle from bookings where id = ${booking.id}`
    )
    expect(
      (await suite.app.call(null, "POST", `/api/v1/guest/${handle}/messages`, { body: "Can I bring a towel?" })).status
    ).toBe(201)
    await settle(suite.app)

    // From the guests list, by name.
    await page.getByRole("link", { name: "Guests" }).click()
    await page.getByRole("link", { name: "Ada Lovelace" }).click()
    await page.getByRole("heading", { name: "Ada Lovelace", level: 1 }).waitFor()
    await page.getByText("+31612345678").waitFor()
    await page.getByText("€0.00 paid · €30.00 not paid yet · €0.00 refunded").waitFor()
    await page.getByRole("cell", { name: "€30.00 · not paid" }).waitFor()
    await page.getByText("Left knee").waitFor()
    await page.getByText("Prefers the front row").waitFor()
    await page.getByText("Can I bring a towel?").waitFor()
    await expectAccessible(page)
    await screenshots(page, "console-guest")

    // The inbox names the guest and the offering, and links to the booking and the guest's page.
    await page.getByRole("link", { name: /^Messages/ }).click()
    await page.getByText(/Ada Lovelace · Reformer/).waitFor()
    await page.getByRole("link", { name: booking.reference }).waitFor()
    await page.getByRole("link", { name: "guest's page" }).click()
    await page.getByRole("heading", { name: "Ada Lovelace", level: 1 }).waitFor()

    // The roster's name is a link to the same page.
    await page.goto(`${suite.app.url}/dashboard/times/${session.id}?offering=${offering.id}&at=${session.starts_at}`)
    await page.getByRole("link", { name: "Ada Lovelace" }).click()
    await page.getByRole("heading", { name: "Ada Lovelace", level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/dashboard/guests/${booking.customer_id}`)
  })
})
