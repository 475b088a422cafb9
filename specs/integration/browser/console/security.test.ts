import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, type TestApp } from "../../../support/app.ts"
import { cspViolations, expectAccessible, launch, screenshots } from "../../../support/browser.ts"
import { browser as httpBrowser } from "../../auth/helpers.ts"
import { hoursAhead } from "../../bookings/helpers.ts"
import { clockNow, consoleApp, orgWith, settle, signIn } from "./helpers.ts"

let app: TestApp
let browser: Browser

beforeAll(async () => {
  app = await consoleApp()
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
  await app?.close()
})

const newPage = async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" })
  return ctx.newPage()
}

describe("the console's page", () => {
  it("is served with a CSP without inline script, never framed, and keeps no secret in the page or storage", async () => {
    const res = await fetch(`${app.url}/dashboard/bookings/anything`)
    expect(res.status).toBe(200)
    const csp = res.headers.get("content-security-policy") ?? ""
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain("unsafe-inline")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(res.headers.get("x-frame-options")).toBe("DENY")
    expect(res.headers.get("cache-control")).toBe("no-store")
    const html = await res.text()
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    // Its script and stylesheet are served compressed to a browser that takes it (brotli, else gzip).
    for (const asset of html.match(/\/dashboard\/assets\/[\w.-]+\.(js|css)/g) ?? []) {
      const br = await fetch(`${app.url}${asset}`, { headers: { "accept-encoding": "br, gzip" } })
      expect([br.status, br.headers.get("content-encoding"), br.headers.get("vary")]).toEqual([
        200,
        "br",
        "accept-encoding"
      ])
      const gz = await fetch(`${app.url}${asset}`, { headers: { "accept-encoding": "gzip" } })
      expect(gz.headers.get("content-encoding")).toBe("gzip")
      expect((await br.text()).length).toBeGreaterThan(0)
    }
    expect(html.match(/\/dashboard\/assets\/[\w.-]+\.js/)).not.toBeNull()
    await orgWith(app, { "keeper@example.com": "owner" })
    const page = await newPage()
    const violations = cspViolations(page)
    await signIn(app, page, "keeper@example.com")
    await page.getByRole("link", { name: "Developers" }).click()
    await page.getByRole("heading", { name: "API keys" }).waitFor()
    const stored = await page.evaluate(() => ({
      local: Object.keys(localStorage).length,
      session: Object.keys(sessionStorage).length,
      cookie: document.cookie
    }))
    // The session cookie is HttpOnly: the page's script cannot read it; nothing is kept in storage.
    expect(stored).toEqual({ local: 0, session: 0, cookie: "" })
    expect(await page.content()).not.toMatch(/sk_(live|test)_/)
    expect(violations).toEqual([])
    // Another site cannot frame it.
    const framed = await newPage()
    await framed.setContent(`<iframe src="${app.url}/dashboard" title="x"></iframe>`)
    await framed.waitForTimeout(0)
    const frame = framed.frames().find((f) => f.url().includes("/dashboard"))
    expect(
      await frame
        ?.locator("#app")
        .count()
        .catch(() => 0)
    ).not.toBe(1)
  })
})

/** Operations only owners may run (docs/auth.md): a staff session is refused each. */
const OWNER_OPERATIONS: ReadonlyArray<readonly [string, string, unknown]> = [
  ["POST", "/api_keys", { name: "mine" }],
  ["GET", "/api_keys", undefined],
  ["POST", "/widget_key", undefined],
  ["PATCH", "/org", { name: "Mine now" }],
  ["POST", "/team/invites", { email: "friend@example.com", role: "owner" }],
  ["POST", "/webhooks", { url: "https://example.com/h", events: ["booking.confirmed"] }],
  ["POST", "/promo_codes", { code: "FREE", percent_off: 100 }],
  ["POST", "/gift_cards", { amount_cents: 1000 }],
  ["POST", "/offerings", { kind: "class", name: "Mine" }],
  ["GET", "/oauth_apps", undefined],
  ["POST", "/closures", { starts_on: "2040-12-25", note: "Closed" }],
  ["GET", "/reports/revenue", undefined],
  ["GET", "/exports/bookings.csv", undefined]
]

describe("staff", () => {
  it("see no owner screen, are told so at an owner's address, and are refused the owner operations over HTTP", async () => {
    await orgWith(app, { "boss@example.com": "owner", "desk@example.com": "staff" })
    const page = await newPage()
    await signIn(app, page, "desk@example.com")
    const menu = await page.getByRole("navigation", { name: "Console" }).getByRole("link").allTextContents()
    expect(menu).toEqual(["Today", "Week", "Calendar", "Bookings", "Offerings", "Guests", "Messages"])
    for (const screen of ["money", "reports", "closures", "team", "settings", "developers", "offerings/new"]) {
      await page.goto(`${app.url}/dashboard/${screen}`)
      await page.getByRole("heading", { name: "Owners only" }).waitFor()
    }
    await expectAccessible(page)
    await screenshots(page, "console-staff")
    // The server refuses the operations themselves to a staff session.
    const staff = httpBrowser(app, app.url)
    await app.advance(1)
    await staff.signIn("desk@example.com")
    const refused: string[] = []
    for (const [method, path, body] of OWNER_OPERATIONS) {
      const r = await staff.api(method, path, body)
      refused.push(`${method} ${path} ${r.status} ${r.body?.error?.code ?? ""}`)
    }
    expect(refused).toEqual(OWNER_OPERATIONS.map(([method, path]) => `${method} ${path} 403 forbidden`))
    // What staff do, they can.
    expect((await staff.api("GET", "/bookings")).status).toBe(200)
  })
})

describe("CSRF and session fixation", () => {
  it("a request without the token or from another origin is refused; a planted cookie never becomes a session", async () => {
    const org = await orgWith(app, { "guard@example.com": "owner" })
    const b = httpBrowser(app, app.url)
    await b.signIn("guard@example.com")
    expect((await b.api("PATCH", "/org", { name: "Fine" })).status).toBe(200)
    b.forgetCsrf()
    expect((await b.api("PATCH", "/org", { name: "No token" })).body.error.code).toBe("csrf_failed")
    const s = await b.session()
    expect((await b.api("PATCH", "/org", { name: "Elsewhere" }, { origin: "https://evil.example" })).status).toBe(403)
    expect(s.status).toBe(200)
    expect((await org.call("GET", "/org")).body.name).toBe("Fine")
    // A page of another origin posting with the person's cookie (a form, no token) is refused too.
    const evil = await newPage()
    const page = await evil.context().newPage()
    await signIn(app, page, "guard@example.com")
    await evil.goto(`${app.url.replace("127.0.0.1", "localhost")}/healthz`)
    // The simple request a form or a no-cors fetch can send (no token, text/plain), and a JSON one (needs CORS).
    const tried = await evil.evaluate(async (url) => {
      const simple = await fetch(`${url}/api/v1/promo_codes`, {
        method: "POST",
        credentials: "include",
        mode: "no-cors",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify({ code: "PWNED", percent_off: 100 })
      }).then((r) => r.type)
      const json = await fetch(`${url}/api/v1/promo_codes`, {
        method: "POST",
        credentials: "include",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code: "PWNED2", percent_off: 100 })
      }).then(
        (r) => r.status,
        () => "blocked"
      )
      return { simple, json }
    }, app.url)
    expect(tried).toEqual({ simple: "opaque", json: "blocked" })
    expect((await org.call("GET", "/promo_codes")).body.data).toEqual([])
    expect((await org.call("GET", "/org")).body.name).toBe("Fine")
    // Fixation: a session cookie planted before sign-in is replaced at sign-in and is no credential.
    const ctx = await browser.newContext()
    await ctx.addCookies([{ name: "session", value: "planted-by-attacker-0123456789", url: app.url }])
    const fresh = await ctx.newPage()
    await signIn(app, fresh, "guard@example.com")
    const cookie = (await ctx.cookies(app.url)).find((c) => c.name === "session")
    expect(cookie?.value).not.toBe("planted-by-attacker-0123456789")
    expect(cookie?.httpOnly).toBe(true)
    const planted = await fetch(`${app.url}/auth/v1/session`, {
      headers: { cookie: "session=planted-by-attacker-0123456789" }
    })
    expect(planted.status).toBe(401)
  })
})

describe("free text from guests and staff", () => {
  it("is shown as text everywhere, never run: names, notes, answers, messages, offering names", async () => {
    const XSS = `<img src=x onerror="window.__xss=1">`
    const org = await orgWith(app, { "safe@example.com": "owner" })
    const offering = (
      await org.call("POST", "/offerings", {
        kind: "class",
        name: `Yoga <svg onload="window.__xss=2">`,
        capacity: 5,
        questions: [{ id: "q1", label: `Injuries? <script>window.__xss=3</script>`, type: "text", required: false }]
      })
    ).body
    const at = hoursAhead(await clockNow(app), 24)
    const session = (await org.call("POST", "/sessions", { offering_id: offering.id, starts_at: at.toISOString() }))
      .body.data[0]
    const booking = (
      await org.call("POST", "/bookings", {
        offering_id: offering.id,
        session_id: session.id,
        customer: { name: `Eve ${XSS}`, email: "eve@example.com" },
        notes: `Note <iframe src="javascript:window.__xss=4"></iframe>`,
        answers: { q1: `Knee ${XSS}` }
      })
    ).body
    expect(booking.status).toBe("confirmed")
    const [{ handle }] = await sql(
      app,
      (s) => s<{ handle: string }>`select handle from bookings where id = ${booking.id}`
    )
    const wrote = await app.call(null, "POST", `/api/v1/guest/${handle}/messages`, { body: `Hello ${XSS}` })
    expect(wrote.status).toBe(201)
    await settle(app)
    const page = await newPage()
    const violations = cspViolations(page)
    await signIn(app, page, "safe@example.com")
    await page.goto(`${app.url}/dashboard/bookings/${booking.id}`)
    await page.getByRole("heading", { name: /Eve/ }).waitFor()
    await page.getByText(`Hello ${XSS}`).waitFor()
    for (const text of [
      `Eve ${XSS}`,
      `Knee ${XSS}`,
      "Injuries? <script>window.__xss=3</script>",
      `Yoga <svg onload="window.__xss=2">`
    ])
      expect(await page.getByText(text, { exact: false }).count()).toBeGreaterThan(0)
    for (const path of [
      "/bookings",
      "/messages",
      "/week",
      `/times/${session.id}?offering=${offering.id}&at=${session.starts_at}`
    ]) {
      await page.goto(`${app.url}/dashboard${path}`)
      await page.getByRole("heading", { level: 1 }).waitFor()
      await page.waitForLoadState("networkidle")
    }
    await page.getByText(`Eve ${XSS}`).first().waitFor()
    const injected = await page.evaluate(() => ({
      ran: (window as unknown as { __xss?: number }).__xss,
      elements: document.querySelectorAll("main img, main svg, main iframe, main script").length
    }))
    expect(injected).toEqual({ ran: undefined, elements: 0 })
    expect(violations).toEqual([])
  })
})
