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
