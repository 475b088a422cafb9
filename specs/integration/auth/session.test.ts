import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { browser, lastLink, mailsTo, teamOrg } from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

describe("sign in by mailed link", () => {
  it("a member asks for a link, follows it in the same browser, and has a session for their org and role", async () => {
    const org = await teamOrg(app, "happy")
    const b = browser(app)
    const asked = await b.request("POST", "/auth/v1/links", { email: ` ${org.owner.toUpperCase()} ` })
    expect(asked.status).toBe(202)
    expect(asked.body).toEqual({})
    expect(asked.cookies[0]).toMatch(/^signin=[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=900$/)
    const followed = await b.request("GET", await lastLink(app, org.owner))
    expect(followed.status).toBe(303)
    expect(followed.headers.get("location")).toBe("/dashboard")
    const cookie = followed.cookies.find((c) => c.startsWith("session="))!
    expect(cookie).toMatch(/^session=[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=1209600$/)
    expect(cookie).not.toContain("Secure")
    const s = await b.session()
    expect(s.status).toBe(200)
    expect(s.body).toMatchObject({
      user: { email: org.owner, name: null },
      org: { id: org.id, timezone: "UTC", currency: "EUR" },
      role: "owner",
      memberships: [{ org_id: org.id, role: "owner" }]
    })
    expect(s.body.csrf_token).toMatch(/^[A-Za-z0-9_-]{40,}$/)
    // The session is a credential of /api/v1 for that org.
    const me = await b.api("GET", "/org")
    expect(me.status).toBe(200)
    expect(me.body.id).toBe(org.id)
  })
})

describe("no account enumeration", () => {
  it("an unknown email gets the same answer and cookie, and no mail", async () => {
    const org = await teamOrg(app, "enum")
    const known = await browser(app).request("POST", "/auth/v1/links", { email: org.staff })
    const unknown = await browser(app).request("POST", "/auth/v1/links", { email: "nobody-here@example.com" })
    expect([unknown.status, unknown.body]).toEqual([known.status, known.body])
    expect(unknown.cookies.map((c) => c.replace(/=[^;]+/, "="))).toEqual(
      known.cookies.map((c) => c.replace(/=[^;]+/, "="))
    )
    expect(await mailsTo(app, "nobody-here@example.com")).toEqual([])
    expect(await mailsTo(app, org.staff)).toHaveLength(1)
  })
})

describe("links that do not work", () => {
  it("a link works once, only in the browser that asked, and only for 15 minutes", async () => {
    const org = await teamOrg(app, "links")
    const b = browser(app)
    await b.request("POST", "/auth/v1/links", { email: org.staff })
    const link = await lastLink(app, org.staff)
    // Another browser (no nonce, or its own nonce) is refused, and the link is not used up by it.
    const thief = browser(app)
    await thief.request("POST", "/auth/v1/links", { email: "thief@example.com" })
    for (const other of [browser(app), thief]) {
      const r = await other.request("GET", link)
      expect(r.status).toBe(400)
      expect(r.headers.get("content-type")).toContain("text/html")
      expect(r.text).toContain('href="/dashboard"')
      expect(r.cookies.some((c) => c.startsWith("session="))).toBe(false)
    }
    expect((await b.request("GET", link)).status).toBe(303)
    const reused = await b.request("GET", link)
    expect(reused.status).toBe(400)
    expect(reused.text).toContain("used already")

    const late = browser(app)
    await late.request("POST", "/auth/v1/links", { email: org.staff })
    const old = await lastLink(app, org.staff)
    await app.advance(15 * 60 + 1)
    expect((await late.request("GET", old)).status).toBe(400)
    expect((await late.request("GET", "/auth/v1/links/not-a-real-token-at-all")).status).toBe(400)
  })

  it("an answer to a malformed email is 400 invalid_email; a cross-site request is refused", async () => {
    const b = browser(app)
    const bad = await b.request("POST", "/auth/v1/links", { email: "not an email" })
    expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_email"])
    const cross = await b.request(
      "POST",
      "/auth/v1/links",
      { email: "a@example.com" },
      { origin: "https://evil.example" }
    )
    expect([cross.status, cross.body.error.code]).toEqual([403, "csrf_failed"])
  })
})

describe("sessions", () => {
  it("ends after 12 idle hours, and after 14 days however active", async () => {
    const org = await teamOrg(app, "idle")
    const idle = browser(app)
    await idle.signIn(org.staff)
    await app.advance(11 * 3600)
    expect((await idle.session()).status).toBe(200)
    await app.advance(11 * 3600)
    expect((await idle.session()).status).toBe(200) // seen 11 h ago, not 22
    await app.advance(12 * 3600 + 1)
    expect((await idle.session()).status).toBe(401)
    expect((await idle.api("GET", "/bookings")).status).toBe(401)

    const busy = browser(app)
    await busy.signIn(org.owner)
    // A request every 11 hours keeps it alive until 14 days (336 h) after sign-in, not one request longer.
    for (let hours = 11; hours <= 330; hours += 11) {
      await app.advance(11 * 3600)
      expect((await busy.session()).status).toBe(200)
    }
    await app.advance(11 * 3600)
    expect((await busy.session()).status).toBe(401)
  })

  it("signs out, lists sessions, signs out everywhere else and one by one", async () => {
    const org = await teamOrg(app, "out")
    const [a, b, c] = [browser(app), browser(app), browser(app)]
    for (const x of [a, b, c]) await x.signIn(org.owner)
    const list = await a.request("GET", "/auth/v1/sessions")
    expect(list.body.data).toHaveLength(3)
    expect(list.body.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1)
    const bId = (await b.request("GET", "/auth/v1/sessions")).body.data.find((s: { current: boolean }) => s.current).id
    expect((await a.request("DELETE", `/auth/v1/sessions/${bId}`)).status).toBe(204)
    expect((await b.session()).status).toBe(401)
    expect((await a.request("DELETE", "/auth/v1/sessions")).status).toBe(204)
    expect((await c.session()).status).toBe(401)
    expect((await a.session()).status).toBe(200)
    const out = await a.request("DELETE", "/auth/v1/session")
    expect(out.status).toBe(204)
    expect(out.cookies[0]).toMatch(/^session=; .*Max-Age=0/)
    expect((await a.session()).status).toBe(401)
  })

  it("a cookie held before sign-in is never accepted after it (session fixation)", async () => {
    const org = await teamOrg(app, "fix")
    const attacker = browser(app)
    await attacker.signIn(org.staff)
    const planted = attacker.jar.get("session")!
    const victim = browser(app)
    victim.jar.set("session", planted)
    victim.jar.set("signin", "x".repeat(43))
    await victim.signIn(org.owner)
    expect(victim.jar.get("session")).not.toBe(planted)
    expect((await victim.session()).body.user.email).toBe(org.owner)
    expect((await attacker.session()).status).toBe(401)
    // A made-up cookie is no session either.
    const madeUp = browser(app)
    madeUp.jar.set("session", "A".repeat(43))
    expect((await madeUp.session()).status).toBe(401)
  })

  it("CSRF: a state-changing /api/v1 request of a session needs this Origin (or same-origin fetch) and the token", async () => {
    const org = await teamOrg(app, "csrf")
    const b = browser(app)
    await b.signIn(org.owner)
    const body = { email: "guest@example.com", name: "Guest" }
    const refused = async (headers: Record<string, string>) => {
      const r = await b.api("POST", "/customers", body, headers)
      return [r.status, r.body?.error?.code]
    }
    expect(await refused({ "x-csrf-token": "" })).toEqual([403, "csrf_failed"])
    expect(await refused({ "x-csrf-token": "wrong" })).toEqual([403, "csrf_failed"])
    expect(await refused({ origin: "https://evil.example" })).toEqual([403, "csrf_failed"])
    expect(await refused({ origin: "", "sec-fetch-site": "cross-site" })).toEqual([403, "csrf_failed"])
    expect(await refused({ "sec-fetch-site": "same-site" })).toEqual([403, "csrf_failed"])
    expect(await refused({ origin: "" })).toEqual([403, "csrf_failed"])
    // An opaque origin (a sandboxed frame, a form under no-referrer) counts only when the browser says same-origin.
    expect(await refused({ origin: "null" })).toEqual([403, "csrf_failed"])
    expect(await refused({ origin: "null", "sec-fetch-site": "cross-site" })).toEqual([403, "csrf_failed"])
    expect(await refused({ origin: "null", "sec-fetch-site": "same-site" })).toEqual([403, "csrf_failed"])
    expect(
      (
        await b.api(
          "POST",
          "/customers",
          { ...body, email: "n@example.com" },
          { origin: "null", "sec-fetch-site": "same-origin" }
        )
      ).status
    ).toBe(201)
    expect((await b.api("POST", "/customers", body, { origin: "", "sec-fetch-site": "same-origin" })).status).toBe(201)
    expect((await b.api("GET", "/customers", undefined, { "x-csrf-token": "" })).status).toBe(200)
    // A key is unaffected by any of it.
    expect((await app.call(org.key, "POST", "/api/v1/customers", { email: "k@example.com", name: "K" })).status).toBe(
      201
    )
  })

  it("switches org among the person's memberships; another org is 403", async () => {
    // A fresh app: the sign-ins above (asked and followed) spent this address's sign-in budget for the window.
    await app.close()
    app = await startApp()
    const first = await teamOrg(app, "sw1")
    const second = await app.newOrg({ timezone: "Asia/Tokyo", currency: "JPY" })
    await app.admin("POST", `/orgs/${second.id}/members`, { email: first.owner, role: "staff" })
    const stranger = await app.newOrg()
    const b = browser(app)
    const s = await b.signIn(first.owner)
    expect(s.memberships.map((m: { org_id: string }) => m.org_id).sort()).toEqual([first.id, second.id].sort())
    const moved = await b.request("POST", "/auth/v1/session/org", { org_id: second.id })
    expect(moved.status).toBe(200)
    expect(moved.body).toMatchObject({ org: { id: second.id, timezone: "Asia/Tokyo", currency: "JPY" }, role: "staff" })
    expect((await b.api("GET", "/org")).body.id).toBe(second.id)
    // member_id is the person's row on the current team (what a time's teacher names), not their user id.
    const row = (await b.api("GET", "/team")).body.data.find((m: { email: string }) => m.email === first.owner)
    expect(moved.body.member_id).toBe(row.user_id)
    expect(moved.body.member_id).not.toBe(moved.body.user.id)
    const no = await b.request("POST", "/auth/v1/session/org", { org_id: stranger.id })
    expect([no.status, no.body.error.code]).toEqual([403, "forbidden"])
  })

  it("a session reaches neither MCP nor the admin API", async () => {
    const org = await teamOrg(app, "reach")
    const b = browser(app)
    await b.signIn(org.owner)
    expect((await b.request("GET", "/admin/v1/orgs")).status).toBe(401)
    const mcp = await b.request("POST", "/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" })
    expect(mcp.status).toBe(401)
  })
})
