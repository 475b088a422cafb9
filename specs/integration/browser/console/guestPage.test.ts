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
    // The page's title names the screen and the org.
    expect(await page.title()).toMatch(/^Ada Lovelace · .+ · Console$/)
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

describe("a booking's history", () => {
  it("names who did each thing: the API key, the person at the desk, the guest on their page", async () => {
    const { org, page } = await suite.owner("history@example.com")
    const offering = (
      await org.call("POST", "/offerings", { kind: "class", name: "Spin", capacity: 6, price_cents: 1200 })
    ).body
    const at = hoursAhead(await clockNow(suite.app), 24)
    const session = (await org.call("POST", "/sessions", { offering_id: offering.id, starts_at: at.toISOString() }))
      .body.data[0]
    const booking = (
      await org.call("POST", "/bookings", {
        offering_id: offering.id,
        session_id: session.id,
        customer: { name: "Grace Hopper", email: "grace@example.com" },
        payment: "unpaid"
      })
    ).body
    const [{ handle }] = await sql(
      suite.app,
      (s) => s<{ handle: string }>`select handle from bookings where id = ${booking.id}`
    )
    expect(
      (await suite.app.call(null, "POST", `/api/v1/guest/${handle}/messages`, { body: "Running late" })).status
    ).toBe(201)
    await page.goto(`${suite.app.url}/dashboard/bookings/${booking.id}`)
    await page.getByRole("button", { name: "Mark paid" }).click()
    await page.getByText("Marked paid.").waitFor()
    await settle(suite.app)
    await page.reload()
    const history = page.getByRole("region", { name: "History" })
    await history.getByText(/confirmed · by (the|an) API key/).waitFor()
    await history.getByText("paid · by history@example.com").waitFor()
    await history.getByText("message received · by Grace Hopper, on their booking page").waitFor()
    await expectAccessible(page)
    await screenshots(page, "console-history")
  })
})

describe("passkeys at an IP address", () => {
  it("say the real cause: passkeys need a host name such as localhost", async () => {
    const { page } = await suite.owner("ip@example.com")
    await page.goto(`${suite.app.url}/dashboard/account`)
    await page.getByRole("button", { name: "Add a passkey" }).click()
    await page
      .getByText(
        "Passkeys need a host name, not an IP address (127.0.0.1): open the console at a name such as localhost."
      )
      .waitFor()
    expect(await page.getByText("Could not reach the server").count()).toBe(0)
  })
})
