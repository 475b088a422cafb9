import { createServer } from "node:net"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { cspViolations, expectAccessible, launch } from "../../support/browser.ts"
import { advanceTo, type BookingsOrg, bookingsOrg, ok, PIN } from "../bookings/helpers.ts"

/** A visitor asks a question on the org's booking page (the widget on /book), as they would: clicking and typing. */
let app: TestApp
let org: BookingsOrg
let browser: Browser
let page: Page
let violations: Array<string>

beforeAll(async () => {
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port
      s.close(() => resolve(p))
    })
  })
  app = await startApp({ port, publicUrl: `http://127.0.0.1:${port}` })
  await advanceTo(app, PIN)
  org = await bookingsOrg(app, { timezone: "Europe/Amsterdam" })
  browser = await launch()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "en-GB" })
  violations = cspViolations(page)
})
afterAll(async () => {
  await browser?.close()
  await app?.close()
})

describe("a question before booking, in Chromium", () => {
  it("asks from the booking page without booking; the business finds it in a thread and answers by mail", async () => {
    const { offering } = await org.classWithSession({ name: "Harbour swim", capacity: 5 }, 50)
    await page.goto(`${app.url}/book?offering_id=${offering.id}`)
    const widget = page.locator("booking-widget")
    await widget.getByRole("heading", { name: "Harbour swim" }).waitFor()
    await widget.getByRole("button", { name: "Ask a question" }).click()
    await widget.getByRole("heading", { name: /Ask .* a question/ }).waitFor()
    await expectAccessible(page)
    // Sending it empty is stopped by the form itself; nothing reaches the service.
    await widget.getByRole("button", { name: "Send the question" }).click()
    expect(await widget.getByRole("heading", { name: "Question sent" }).count()).toBe(0)
    await widget.getByLabel("Name").fill("Sam Swimmer")
    await widget.getByLabel("Email").fill("sam@example.com")
    await widget.getByLabel("Your question").fill("Is the water heated in December?")
    await widget.getByRole("button", { name: "Send the question" }).click()
    await widget.getByRole("heading", { name: "Question sent" }).waitFor()
    expect(await widget.getByRole("status").textContent()).toContain("will answer by email at sam@example.com")
    await expectAccessible(page)

    const customer = ok(await org.call("GET", "/customers?q=sam@example.com")).data[0]
    const thread = ok(await org.call("GET", `/messages?customer_id=${customer.id}`)).data
    expect(thread.map((m: any) => [m.direction, m.channel, m.booking_id, m.body])).toEqual([
      ["inbound", "page", null, "Is the water heated in December?"]
    ])
    ok(await org.call("POST", "/messages", { customer_id: customer.id, body: "Yes, to 28 degrees." }), 201)
    const mail = ok(await app.admin("GET", "/mail?to=sam@example.com")).data
    expect(mail.some((m: any) => m.text.includes("Yes, to 28 degrees."))).toBe(true)

    // Back to booking, where the visitor left.
    await widget.getByRole("button", { name: "Back to booking" }).click()
    await widget.getByRole("button", { name: /5 left/ }).waitFor()
    expect(violations).toEqual([])
  })
})
