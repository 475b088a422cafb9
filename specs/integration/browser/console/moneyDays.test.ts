import { describe, expect, it } from "vitest"
import { expectAccessible } from "../../../support/browser.ts"
import { clockNow, consoleSuite } from "./helpers.ts"

// Money's totals follow the days picked (in the org's zone): only bookings starting between them are listed and summed.

const suite = consoleSuite()
const { owner } = suite

const dayOf = (at: Date) => at.toLocaleDateString("en-CA", { timeZone: "Europe/Amsterdam" })

describe("Money for a range of days", () => {
  it("sums what was paid for the bookings starting between the days picked, and lists only those", async () => {
    const { org, page } = await owner("days@example.com")
    const offering = (
      await org.call("POST", "/offerings", { kind: "class", name: "Yoga", capacity: 10, price_cents: 2000 })
    ).body
    const now = (await clockNow(suite.app)).getTime()
    const soon = new Date(now + 2 * 86_400_000)
    const later = new Date(now + 10 * 86_400_000)
    for (const [at, name] of [
      [soon, "Ada Lovelace"],
      [later, "Grace Hopper"]
    ] as const) {
      const session = (await org.call("POST", "/sessions", { offering_id: offering.id, starts_at: at.toISOString() }))
        .body.data[0]
      const b = await org.call("POST", "/bookings", {
        offering_id: offering.id,
        session_id: session.id,
        payment: "paid",
        customer: { name, email: `${name.split(" ")[0].toLowerCase()}@example.com` }
      })
      expect(b.status).toBe(201)
    }
    await page.goto(`${suite.app.url}/dashboard/money`)
    await page.getByText("Paid €40.00 · refunded €0.00 · kept €40.00").waitFor()
    await page.getByLabel("Bookings from").fill(dayOf(new Date(now + 5 * 86_400_000)))
    await page.getByText("Paid €20.00 · refunded €0.00 · kept €20.00").waitFor()
    await page.getByText("Grace Hopper").waitFor()
    expect(await page.getByText("Ada Lovelace").count()).toBe(0)
    await page.getByLabel("Bookings from").fill(dayOf(soon))
    await page.getByLabel("To", { exact: true }).fill(dayOf(soon))
    await page.getByText("Ada Lovelace").waitFor()
    await page.getByText("Paid €20.00 · refunded €0.00 · kept €20.00").waitFor()
    expect(await page.getByText("Grace Hopper").count()).toBe(0)
    await expectAccessible(page)
  })
})
