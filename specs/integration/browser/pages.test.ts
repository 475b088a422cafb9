import { createServer } from "node:net"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { cspViolations, launch } from "../../support/browser.ts"
import { lastLink } from "../auth/helpers.ts"
import { advanceTo, type BookingsOrg, bookingsOrg, ok, PIN } from "../bookings/helpers.ts"
import { handleFromMail } from "../guest/helpers.ts"
import { pkce, REDIRECT } from "../oauth/helpers.ts"

/**
 * Every HTML page the engine serves, in Chromium under the headers it sends: a Content-Security-Policy (no inline
 * script but by hash, frame-ancestors 'none'), nosniff and a Referrer-Policy, and no violation of that policy while
 * the page does its work (the reference renders, the widget books, the forms post).
 */
let app: TestApp
let org: BookingsOrg
let browser: Browser
let page: Page
let violations: Array<string>
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port
      s.close(() => resolve(p))
    })
  })

beforeAll(async () => {
  const port = await freePort()
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

/** The headers of an HTML page, as every page of the engine has them. */
const expectPageHeaders = (headers: Record<string, string>, what: string) => {
  const csp = headers["content-security-policy"] ?? ""
  expect({ what, csp }).toEqual({ what, csp: expect.stringContaining("default-src 'none'") })
  expect(csp, what).toContain("frame-ancestors 'none'")
  expect(csp, what).not.toMatch(/script-src[^;]*'unsafe-inline'/)
  expect(csp, what).not.toMatch(/'unsafe-eval'/)
  expect(headers["x-content-type-options"], what).toBe("nosniff")
  expect(headers["referrer-policy"], what).toBe("no-referrer")
  expect(headers["x-frame-options"], what).toBe("DENY")
}

const visit = async (path: string) => {
  const res = await page.goto(`${app.url}${path}`)
  expect(res, path).not.toBeNull()
  expect(res!.headers()["content-type"], path).toBe("text/html; charset=utf-8")
  expectPageHeaders(res!.headers(), path)
  return res!
}

describe("the engine's pages under their own Content-Security-Policy", () => {
  it("the guest page, its steps and its forms; the waiver page; the checkout; the waitlist and error pages", async () => {
    ok(await org.call("PUT", "/waiver", { text: "At my own risk." }))
    const { offering, session } = await org.classWithSession(
      { name: "Policy class", capacity: 8, waiver_required: true },
      96
    )
    const email = `csp-${Date.now()}@example.com`
    const b = await org.booked({ offering_id: offering.id, session_id: session.id, customer: { email, name: "Robin" } })
    const handle = await handleFromMail(app, email)
    await visit(`/b/${handle}`)
    await page.getByLabel(/Write to/).fill("Hello")
    await page.getByRole("button", { name: "Send message" }).click()
    await page.getByRole("status").waitFor()
    await visit(`/b/${handle}/cancel`)
    await visit(`/b/${"z".repeat(24)}`)
    await visit(`/w/${b.waiver_token}`)
    await page.getByLabel(/Full name/).fill("Robin")
    await page.getByRole("checkbox").check()
    await page.getByRole("button", { name: "Sign the waiver" }).click()
    await page.getByRole("status").waitFor()

    const priced = await org.classWithSession({ name: "Priced class", price_cents: 2500 })
    const held = ok(await org.book({ offering_id: priced.offering.id, session_id: priced.session.id }), 201)
    await visit(new URL(held.checkout_url).pathname)
    await page.getByLabel("Card number").fill("4242 4242 4242 4242")
    await page.getByRole("button", { name: /^Pay/ }).click()
    await page.getByRole("heading", { name: "Paid" }).waitFor()
    await visit("/pay/done")
    await visit("/pay/cs_nothing")
    await visit(`/wl/${"t".repeat(24)}`)
    expect(violations).toEqual([])
  })

  it("the engine's booking page and the demo page run the widget: it lists, books and shows its styles", async () => {
    const pk = ok(await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "publishable", name: "book" }), 201).key
    const { offering } = await org.classWithSession({ name: "Widget class", capacity: 5 }, 50)
    await visit(`/book?offering_id=${offering.id}`)
    const widget = page.locator("booking-widget")
    await widget.getByRole("heading", { name: "Widget class" }).waitFor()
    expect(await widget.evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector("h2")!).fontSize)).toBe("20px")
    await widget.getByRole("button", { name: /5 left/ }).click()
    await widget.getByLabel("Name").fill("Noor")
    await widget.getByLabel("Email").fill("noor@example.com")
    await widget.getByRole("button", { name: "Book", exact: true }).click()
    await widget.getByRole("heading", { name: "You are booked" }).waitFor()

    await sql(
      app,
      (s) =>
        s`insert into demo_site (id, org_id, publishable_key) values (1, ${org.id}, ${pk}) on conflict (id) do update set publishable_key = excluded.publishable_key`
    )
    await visit("/demo")
    await page
      .locator("booking-widget")
      .getByRole("button", { name: /Widget class/ })
      .waitFor()
    expect(violations).toEqual([])
  })

  it("the OAuth consent page, and the API reference, which renders the document", async () => {
    const client = (await (
      await fetch(`${app.url}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_name: "Policy app", redirect_uris: [REDIRECT] })
      })
    ).json()) as { client_id: string }
    // Consent is a signed-in owner's (docs/auth.md): sign this browser in by a mailed link first.
    const owner = "policy-owner@example.com"
    expect((await app.admin("POST", `/orgs/${org.id}/members`, { email: owner, role: "owner" })).status).toBe(201)
    await visit("/demo")
    const asked = await page.evaluate(
      (email) =>
        fetch("/auth/v1/links", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email })
        }).then((r) => r.status),
      owner
    )
    expect(asked).toBe(202)
    await page.goto(`${app.url}${await lastLink(app, owner)}`)
    const { challenge } = pkce()
    await visit(
      `/oauth/authorize?response_type=code&client_id=${client.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&code_challenge=${challenge}&code_challenge_method=S256&state=s`
    )
    await page.getByRole("button", { name: "Approve" }).waitFor()

    await visit("/docs")
    await page.getByRole("heading", { name: "Booking engine API" }).first().waitFor({ timeout: 60_000 })
    expect(violations).toEqual([])
  })
})
