import { createServer } from "node:net"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { expectAccessible, launch, screenshots } from "../../support/browser.ts"
import { advanceTo, type BookingsOrg, bookingsOrg, hoursAhead, ok, PIN } from "../bookings/helpers.ts"
import { handleFromMail } from "../guest/helpers.ts"

let app: TestApp
let org: BookingsOrg
let browser: Browser
let page: Page
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port
      s.close(() => resolve(p))
    })
  })

beforeAll(async () => {
  // PUBLIC_URL is the app's own address, as in production: pages the engine serves call its API from that origin.
  const port = await freePort()
  app = await startApp({ port, publicUrl: `http://127.0.0.1:${port}` })
  await advanceTo(app, PIN)
  org = await bookingsOrg(app, { timezone: "Europe/Amsterdam" })
  browser = await launch()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "en-GB" })
})
afterAll(async () => {
  await browser?.close()
  await app?.close()
})

/** The guest's own links carry PUBLIC_URL (no port in tests): the same path on the running app. */
const open = (link: string) =>
  page.goto(`${app.url}${new URL(link, "http://x").pathname}${new URL(link, "http://x").search}`)

describe("a guest in Chromium", () => {
  it("opens their page from the email, moves to another time, writes a message, then cancels", async () => {
    const { offering, session } = await org.classWithSession(
      { name: "Harbour paddle", capacity: 8, location: "Pier 3", lat: 52.37, lon: 4.9 },
      96
    )
    const other = await org.session(offering.id, hoursAhead(await org.now(), 120))
    const email = `browser-${Date.now()}@example.com`
    const b = await org.booked({
      offering_id: offering.id,
      session_id: session.id,
      quantity: 2,
      customer: { email, name: "Robin" }
    })
    await open(`/b/${await handleFromMail(app, email)}`)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Harbour paddle")
    expect(await page.locator("dd").first().textContent()).toContain("(Europe/Amsterdam time)")
    await expectAccessible(page)
    await screenshots(page, "guest-page")

    await page.getByRole("link", { name: "Choose another time" }).click()
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Choose another time")
    await expectAccessible(page)
    await screenshots(page, "guest-move")
    await page.locator(`input[value="session:${other.id}"]`).check()
    await page.getByRole("button", { name: "Move my booking" }).click()
    expect(await page.getByRole("status").textContent()).toContain("Your booking has moved")
    expect(ok(await org.get(b.id)).session_id).toBe(other.id)

    await page.getByLabel(/Write to/).fill("We will be 5 minutes late.")
    await page.getByRole("button", { name: "Send message" }).click()
    expect(await page.locator("ol.thread li").last().textContent()).toContain("We will be 5 minutes late.")

    await page.getByRole("link", { name: "Cancel booking" }).click()
    await expectAccessible(page)
    await screenshots(page, "guest-cancel")
    await page.getByRole("button", { name: "Yes, cancel my booking" }).click()
    expect(await page.getByRole("status").textContent()).toContain("Your booking is cancelled")
    expect(await page.getByRole("link", { name: "Cancel booking" }).count()).toBe(0)
    expect(ok(await org.get(b.id)).status).toBe("cancelled")
  })

  it("moves a booking with the keyboard alone", async () => {
    const { offering, session } = await org.classWithSession({ name: "Keyboard class", capacity: 8 }, 150)
    const other = await org.session(offering.id, hoursAhead(await org.now(), 170))
    const email = `keys-${Date.now()}@example.com`
    const b = await org.booked({ offering_id: offering.id, session_id: session.id, customer: { email, name: "Kai" } })
    await open(`/b/${await handleFromMail(app, email)}/move`)
    // Tab from the top of the page to the first time, choose it, then Tab to the button and press Enter.
    await page.keyboard.press("Tab")
    for (
      let i = 0;
      i < 10 && !(await page.evaluate(() => document.activeElement?.getAttribute("type") === "radio"));
      i++
    )
      await page.keyboard.press("Tab")
    await page.keyboard.press("Space")
    expect(await page.locator(`input[value="session:${other.id}"]`).isChecked()).toBe(true)
    for (let i = 0; i < 10 && !(await page.evaluate(() => document.activeElement?.tagName === "BUTTON")); i++)
      await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await page.waitForURL(/done=moved/)
    expect(ok(await org.get(b.id)).session_id).toBe(other.id)
  })

  it("collects two waiver signatures on the waiver page", async () => {
    ok(await org.call("PUT", "/waiver", { text: "I take part at my own risk." }))
    const { offering, session } = await org.classWithSession({ name: "Surf", capacity: 8, waiver_required: true }, 200)
    const email = `waiver-${Date.now()}@example.com`
    await org.booked({
      offering_id: offering.id,
      session_id: session.id,
      quantity: 2,
      customer: { email, name: "Lee" }
    })
    const mail = (await app.admin("GET", `/mail?to=${encodeURIComponent(email)}`)).body.data[0]
    await open((mail.links as string[]).find((l) => l.includes("/w/"))!)
    await expectAccessible(page)
    await screenshots(page, "waiver-page")
    for (const name of ["Lee Park", "Sam Park"]) {
      await page.getByLabel("Full name of the person signing").fill(name)
      await page.getByLabel(/I have read the waiver/).check()
      await page.getByRole("button", { name: "Sign the waiver" }).click()
      expect(await page.getByRole("status").textContent()).toContain("your signature is in")
    }
    expect(await page.locator("main").textContent()).toContain("2 of 2 signed.")
    expect(await page.getByRole("button", { name: "Sign the waiver" }).count()).toBe(0)
  })

  it("pays a priced booking on the sandbox checkout and finds it confirmed on the guest page", async () => {
    const { offering, session } = await org.classWithSession(
      { name: "Paid lesson", capacity: 4, price_cents: 4500 },
      250
    )
    const email = `pay-${Date.now()}@example.com`
    const held = await org.booked({
      offering_id: offering.id,
      session_id: session.id,
      customer: { email, name: "Ari" }
    })
    await open(held.checkout_url)
    await expectAccessible(page)
    await screenshots(page, "sandbox-pay")
    await page.getByLabel("Card number").fill("4242 4242 4242 4242")
    await page.getByRole("button", { name: /Pay/ }).click()
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Paid")
    await open(`/b/${await handleFromMail(app, email)}`)
    expect(await page.locator(".badge").textContent()).toBe("Confirmed")
    expect(await page.locator("main").textContent()).toContain("€45.00")
    // The guest cancels and sees what comes back, then the refund land.
    await page.getByRole("link", { name: "Cancel booking" }).click()
    expect(await page.locator("main").textContent()).toContain("You get back €45.00 of what you paid online.")
    await page.getByRole("button", { name: "Yes, cancel my booking" }).click()
    expect(await page.locator("main").textContent()).toMatch(/Refund€45\.00 (on its way|refunded)/)
    await app.advance(1)
    await app.advance(6)
    await page.reload()
    expect(await page.locator("main").textContent()).toContain("Refund€45.00 refunded")
    expect(ok(await org.get(held.id)).refunded_at).not.toBeNull()
  })

  it("a place opens after a cancel: the waiting guest follows the email to the engine's booking page and books it", async () => {
    const { offering, session } = await org.classWithSession(
      { name: "Full yoga", capacity: 1, waitlist_enabled: true },
      300
    )
    const holder = await org.booked({
      offering_id: offering.id,
      session_id: session.id,
      customer: { email: `holder-${Date.now()}@example.com`, name: "Holder" }
    })
    const email = `waiting-${Date.now()}@example.com`
    ok(await org.call("POST", "/waitlist", { session_id: session.id, customer: { email, name: "Wai" } }), 201)
    ok(await org.call("POST", `/bookings/${holder.id}/cancel`, {}))
    let link: string | undefined
    for (let i = 0; i < 20 && link === undefined; i++) {
      await app.advance(2)
      const mail = (await app.admin("GET", `/mail?to=${encodeURIComponent(email)}`)).body.data.find(
        (m: { kind: string }) => m.kind === "waitlist.opened"
      )
      link = (mail?.links as string[] | undefined)?.find((l) => l.includes("/book?"))
    }
    await open(link!)
    const widget = page.locator("booking-widget")
    await widget.getByRole("button", { name: /1 left/ }).click()
    await widget.getByLabel("Name").fill("Wai")
    await widget.getByLabel("Email").fill(email)
    await widget.getByRole("button", { name: "Book", exact: true }).click()
    await widget.getByRole("heading", { name: "You are booked" }).waitFor()
    const booked = ok(await org.call("GET", `/bookings?session_id=${session.id}&status=confirmed`)).data
    expect(booked).toEqual([expect.objectContaining({ source: "widget" })])
    expect(ok(await org.call("GET", `/waitlist?session_id=${session.id}`)).data).toEqual([])
  })
})
