import { createServer, type Server } from "node:http"
import { type AddressInfo, createServer as createNetServer } from "node:net"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { expectAccessible, launch, screenshots } from "../../support/browser.ts"
import { advanceTo, type BookingsOrg, bookingsOrg, guest, ok, PIN } from "../bookings/helpers.ts"

let app: TestApp
let org: BookingsOrg
let browser: Browser
let page: Page
let shop: Server
let shopUrl: string
let pk: string

// A shop on another origin, whose own CSS tries to restyle every button and the text around the widget.
const shopPage = (offering?: string) =>
  `<!doctype html><html lang="en"><head><title>Our shop</title><style>button{display:none!important}body{font-size:40px;color:#f0f}</style></head>` +
  `<body><main><h1>Our shop</h1><script src="${app.url}/widget.js" data-key="${pk}"${offering ? ` data-offering="${offering}"` : ""}></script></main></body></html>`

beforeAll(async () => {
  // PUBLIC_URL is the app's own address, as in production: the checkout and guest pages it links to are that origin,
  // and their forms post to it (form-action 'self').
  const port = await new Promise<number>((resolve) => {
    const s = createNetServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as AddressInfo).port
      s.close(() => resolve(p))
    })
  })
  app = await startApp({ port, publicUrl: `http://127.0.0.1:${port}` })
  await advanceTo(app, PIN)
  org = await bookingsOrg(app, { timezone: "Europe/Amsterdam" })
  pk = ok(await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "publishable", name: "shop" }), 201).key
  shop = createServer((req, res) => {
    const offering = new URL(req.url ?? "/", "http://x").searchParams.get("offering") ?? undefined
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(shopPage(offering))
  })
  await new Promise<void>((r) => shop.listen(0, "127.0.0.1", r))
  // localhost, not 127.0.0.1: another origin than the engine's.
  shopUrl = `http://localhost:${(shop.address() as AddressInfo).port}`
  ok(await org.call("PATCH", "/org", { allowed_origins: [shopUrl] }))
  browser = await launch()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "en-GB" })
})
afterAll(async () => {
  await browser?.close()
  await new Promise((r) => shop?.close(r))
  await app?.close()
})

const widget = () => page.locator("booking-widget")

describe("the booking widget, embedded in a page of another origin", () => {
  it("books a free class: offering, day and time in the org's zone, details, confirmation, then the guest page", async () => {
    const { offering, session } = await org.classWithSession({ name: "Morning class", capacity: 5 }, 50)
    await page.goto(shopUrl)
    await widget()
      .getByRole("button", { name: /Morning class/ })
      .click()
    expect(await widget().getByText("Times are in Europe/Amsterdam time.").count()).toBe(1)
    // The host page hides every button of its own; the widget's stay visible.
    await widget()
      .getByRole("button", { name: /5 left/ })
      .waitFor({ state: "visible" })
    expect(await widget().evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector("h2")!).fontSize)).toBe("20px")
    await expectAccessible(page)
    await screenshots(page, "widget-times")
    await widget()
      .getByRole("button", { name: /5 left/ })
      .click()
    await widget().getByLabel("Name").fill("Noor")
    await widget().getByLabel("Email").fill("noor@example.com")
    expect(await widget().locator(".price").textContent()).toContain("Free")
    await expectAccessible(page)
    await screenshots(page, "widget-details")
    await widget().getByRole("button", { name: "Book", exact: true }).click()
    await widget().getByRole("heading", { name: "You are booked" }).waitFor()
    await screenshots(page, "widget-booked")
    const bookings = ok(await org.call("GET", `/bookings?session_id=${session.id}`)).data
    expect(bookings).toEqual([
      expect.objectContaining({ source: "widget", status: "confirmed", offering_id: offering.id, quantity: 1 })
    ])
    // The page's link went to the guest's email only: the widget says where, and has no link to it.
    await widget().getByText("We mailed your booking page to n…@example.com").waitFor()
    expect(await widget().locator('a[href*="/b/"]').count()).toBe(0)
    const [mail] = await sql(
      app,
      (s) =>
        s<{
          body: string
        }>`select body from mail_outbox where to_address = 'noor@example.com' and kind = 'booking.confirmed'`
    )
    await page.goto(/(http\S+\/b\/[^\s/]+)/.exec(mail.body)![1])
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Morning class")
  })

  it("with a deposit, says what booking takes now and what is due at the start", async () => {
    const o = await org.hoursAppointment({ name: "Deposit lesson", price_cents: 4000, deposit_cents: 1000 })
    await page.goto(`${shopUrl}/?offering=${o.id}`)
    await widget().getByRole("heading", { name: "Deposit lesson" }).waitFor()
    await widget()
      .getByRole("group", { name: /Times on/ })
      .getByRole("button")
      .first()
      .click()
    await widget().getByRole("button", { name: "Book and pay €10.00 now" }).waitFor()
    const price = (await widget().locator(".price").textContent()) ?? ""
    expect(price).toMatch(/To pay now\s*€10\.00/)
    expect(price).toMatch(/Due at the start\s*€30\.00/)
  })

  it("books a paid appointment for two with a promo code, pays on the sandbox checkout and is confirmed", async () => {
    const o = await org.hoursAppointment({
      name: "Private lesson",
      price_cents: 4000,
      guest_price_cents: 2000,
      max_per_booking: 3,
      questions: [{ label: "Level", type: "choice", options: ["Beginner", "Advanced"], required: true }]
    })
    ok(await org.call("POST", "/promo_codes", { code: "TEN", percent_off: 10 }), 201)
    await page.goto(`${shopUrl}/?offering=${o.id}`)
    await widget().getByRole("heading", { name: "Private lesson" }).waitFor()
    await widget()
      .getByRole("group", { name: /Times on/ })
      .getByRole("button")
      .first()
      .click()
    await widget().getByLabel("People").fill("2")
    await widget().getByLabel("Name").fill("Ravi")
    await widget().getByLabel("Email").fill("ravi@example.com")
    await widget().getByLabel(/Level/).selectOption("Advanced")
    await widget()
      .getByLabel(/Promo code/)
      .fill("TEN")
    await widget()
      .getByLabel(/Promo code/)
      .blur()
    // 4000 + 2000 for the second person, 10% off: €54.00.
    await widget()
      .getByRole("button", { name: /Book and pay €54\.00/ })
      .waitFor()
    await widget()
      .getByRole("button", { name: /Book and pay/ })
      .click()
    await page.waitForURL(/\/pay\/cs_sandbox_/)
    await page.getByLabel("Card number").fill("4242 4242 4242 4242")
    await page.getByRole("button", { name: /Pay/ }).click()
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Paid")
    const [b] = ok(await org.call("GET", `/bookings?offering_id=${o.id}`)).data
    expect(b).toMatchObject({
      status: "confirmed",
      quantity: 2,
      total_cents: 5400,
      discount_cents: 600,
      paid_cents: 5400,
      source: "widget"
    })
    expect(Object.values(b.answers)).toEqual(["Advanced"])
  })

  it("offers the waitlist on a full time and puts the guest on it", async () => {
    const { offering, session } = await org.classWithSession(
      { name: "Tiny class", capacity: 1, waitlist_enabled: true },
      60
    )
    await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("taken") })
    await page.goto(`${shopUrl}/?offering=${offering.id}`)
    await widget()
      .getByRole("button", { name: /full: join the waitlist/ })
      .click()
    await widget().getByLabel("Name").fill("Mo")
    await widget().getByLabel("Email").fill("mo@example.com")
    await widget().getByRole("button", { name: "Join the waitlist" }).click()
    await widget().getByRole("heading", { name: "You are on the waitlist" }).waitFor()
    expect(ok(await org.call("GET", `/waitlist?session_id=${session.id}`)).data).toEqual([
      expect.objectContaining({ customer: expect.objectContaining({ email: "mo@example.com" }) })
    ])
  })

  it("books with the keyboard alone", async () => {
    const { session } = await org.classWithSession({ name: "Keyboard yoga", capacity: 4 }, 70)
    await page.goto(shopUrl)
    const focused = () =>
      page.evaluate(() => {
        let el: Element | null = document.activeElement
        while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
        return `${el?.tagName} ${el?.textContent ?? ""} ${el?.getAttribute("aria-label") ?? ""}`
      })
    const tabTo = async (pattern: RegExp) => {
      for (let i = 0; i < 60; i++) {
        if (pattern.test(await focused())) return
        await page.keyboard.press("Tab")
      }
      throw new Error(`Tab never reached ${pattern}; last ${await focused()}`)
    }
    /** Each step moves focus to its heading once rendered: wait for that before tabbing on. */
    const focusOn = async (pattern: RegExp) => {
      for (let i = 0; i < 100 && !pattern.test(await focused()); i++) await new Promise((r) => setTimeout(r, 50))
      expect(await focused()).toMatch(pattern)
    }
    await widget()
      .getByRole("button", { name: /Keyboard yoga/ })
      .waitFor()
    await tabTo(/Keyboard yoga/)
    await page.keyboard.press("Enter")
    await focusOn(/^H2 Keyboard yoga/)
    await widget()
      .getByRole("button", { name: /4 left/ })
      .waitFor()
    await tabTo(/4 left/)
    await page.keyboard.press("Enter")
    await focusOn(/^H2 Your details/)
    await page.keyboard.press("Tab")
    await focusOn(/^INPUT/)
    await page.keyboard.press("Tab")
    await page.keyboard.type("Kim")
    await page.keyboard.press("Tab")
    await page.keyboard.type("kim@example.com")
    expect(await widget().getByLabel("Name").inputValue()).toBe("Kim")
    await page.keyboard.press("Enter")
    await widget().getByRole("heading", { name: "You are booked" }).waitFor()
    expect(ok(await org.call("GET", `/bookings?session_id=${session.id}`)).data).toEqual([
      expect.objectContaining({ status: "confirmed" })
    ])
  })

  it("is refused on an origin the org has not allowed", async () => {
    ok(await org.call("PATCH", "/org", { allowed_origins: [] }))
    try {
      await page.goto(shopUrl)
      await widget().getByRole("alert").waitFor()
      expect(await widget().getByRole("alert").textContent()).toMatch(
        /not among the org's allowed_origins|could not be reached/
      )
    } finally {
      ok(await org.call("PATCH", "/org", { allowed_origins: [shopUrl] }))
    }
  })

  it("runs on /demo with the demo org's publishable key, served from the engine's own origin", async () => {
    expect((await fetch(`${app.url}/demo`)).status).toBe(404)
    await sql(app, (s) => s`insert into demo_site (org_id, publishable_key) values (${org.id}, ${pk})`)
    await org.classWithSession({ name: "Demo class", capacity: 3 }, 80)
    await page.goto(`${app.url}/demo`)
    await widget()
      .getByRole("button", { name: /Demo class/ })
      .click()
    await widget()
      .getByRole("button", { name: /3 left/ })
      .waitFor()
    await expectAccessible(page)
    await screenshots(page, "demo")
    const js = await fetch(`${app.url}/widget.js`)
    expect(js.headers.get("cache-control")).toBe("public, max-age=300")
    const again = await fetch(`${app.url}/widget.js`, { headers: { "if-none-match": js.headers.get("etag")! } })
    expect(again.status).toBe(304)
  })
})
