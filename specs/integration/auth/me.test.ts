import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { browser, teamOrg } from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

describe("a name for yourself (PATCH /auth/v1/me)", () => {
  it("the signed-in person sets their name: in the session, on every team they are on, with member.updated", async () => {
    const org = await teamOrg(app, "named")
    const other = await app.newOrg({ timezone: "UTC", plan: "scale" })
    expect((await app.admin("POST", `/orgs/${other.id}/members`, { email: org.staff, role: "owner" })).status).toBe(201)
    const b = browser(app)
    await b.signIn(org.staff)
    const named = await b.request("PATCH", "/auth/v1/me", { name: "  Ada   Lovelace " })
    expect(named.status).toBe(200)
    expect(named.body.user).toMatchObject({ email: org.staff, name: "Ada Lovelace" })
    expect((await b.session()).body.user.name).toBe("Ada Lovelace")
    // The owner's Team list and the other org's both show it; each org is told, as the person.
    const team = await app.call(org.key, "GET", "/api/v1/team")
    expect(team.body.data.find((m: any) => m.email === org.staff).name).toBe("Ada Lovelace")
    expect((await app.call(other.key, "GET", "/api/v1/team")).body.data[0].name).toBe("Ada Lovelace")
    await app.advance(3)
    const events = (await app.call(org.key, "GET", "/api/v1/events?type=member.updated")).body.data
    expect(events.map((e: any) => [e.data.email, e.data.name, e.actor?.type])).toEqual([
      [org.staff, "Ada Lovelace", "person"]
    ])
    // The same name again changes nothing and tells no one.
    expect((await b.request("PATCH", "/auth/v1/me", { name: "Ada Lovelace" })).status).toBe(200)
    await app.advance(3)
    expect((await app.call(org.key, "GET", "/api/v1/events?type=member.updated")).body.data).toHaveLength(1)
  })

  it("refuses a name that is empty, too long or not text, without changing it; needs a session and its CSRF token", async () => {
    const org = await teamOrg(app, "refused")
    const b = browser(app)
    await b.signIn(org.owner)
    expect((await b.request("PATCH", "/auth/v1/me", { name: "Grace" })).status).toBe(200)
    for (const name of ["", "   ", "x".repeat(81), 42, null]) {
      const r = await b.request("PATCH", "/auth/v1/me", { name })
      expect([r.status, r.body.error.code]).toEqual([400, "invalid_name"])
    }
    expect((await b.request("PATCH", "/auth/v1/me", { name: "é".repeat(80) })).status).toBe(200)
    expect((await b.request("PATCH", "/auth/v1/me", "name=x")).status).toBe(400)
    expect((await b.session()).body.user.name).toBe("é".repeat(80))
    b.setCsrf("wrong")
    expect((await b.request("PATCH", "/auth/v1/me", { name: "Mallory" })).status).toBe(403)
    expect((await browser(app).request("PATCH", "/auth/v1/me", { name: "Mallory" })).status).toBe(401)
    b.setCsrf(undefined)
    expect((await b.session()).body.user.name).toBe("é".repeat(80))
  })
})
