import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { browser, teamOrg } from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

const ZERO = "00000000-0000-4000-8000-000000000000"

/** Every operation of the served contract that a team member's credential reaches, with the role it declares. */
const operations = async () => {
  const doc = (await app.call(null, "GET", "/api/v1/openapi.json")).body
  const out: Array<{ id: string; method: string; path: string; role: string }> = []
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      // The event stream's answer never ends (it is open to staff: specs/integration/events/stream.test.ts).
      if (op["x-required-role"] === undefined || op.responses["200"]?.content?.["text/event-stream"]) continue
      out.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path: path.replace(/\{[^}]+\}/g, ZERO),
        role: op["x-required-role"]
      })
    }
  }
  return out
}

describe("roles per operation", () => {
  it("the contract declares a role on every org operation, owners' exactly where the brief says", async () => {
    const ops = await operations()
    expect(ops.length).toBeGreaterThan(60)
    const owner = ops.filter((o) => o.role === "owner").map((o) => o.id)
    for (const id of [
      "keys.create",
      "keys.widget_key",
      "webhooks.create",
      "oauth_apps.revoke",
      "promo_codes.create",
      "gift_cards.issue",
      "bookings.retry_refund"
    ])
      expect(owner).toContain(id)
    for (const id of [
      "offerings.create",
      "offerings.update",
      "offerings.delete",
      "offerings.set_photo",
      "offerings.delete_photo",
      "org.update",
      "team.invite",
      "team.remove"
    ])
      expect(owner).toContain(id)
    for (const id of [
      "bookings.create",
      "bookings.list",
      "sessions.create",
      "customers.create",
      "messages.send",
      "offerings.list",
      "waitlist.list"
    ])
      expect(ops.find((o) => o.id === id)?.role).toBe("staff")
    const doc = (await app.call(null, "GET", "/api/v1/openapi.json")).body
    expect(doc.paths["/api/v1/api_keys"].post["x-error-codes"]["403"]).toContain("forbidden")
  })

  it("a staff key and a staff session are refused exactly on the owner operations; an owner's key never", async () => {
    const org = await teamOrg(app, "roles")
    const team = (await app.call(org.key, "GET", "/api/v1/team")).body.data as Array<{ user_id: string; email: string }>
    const staffId = team.find((m) => m.email === org.staff)!.user_id
    const staffKey = (await app.call(org.key, "POST", "/api/v1/api_keys", { user_id: staffId })).body.key as string
    const staff = browser(app)
    await staff.signIn(org.staff)
    const refused = (r: { status: number; body: any }) => r.status === 403 && r.body?.error?.code === "forbidden"
    const results: Array<string> = []
    for (const op of await operations()) {
      const body = ["POST", "PUT", "PATCH"].includes(op.method) ? {} : undefined
      const byKey = await app.call(staffKey, op.method, op.path, body)
      const bySession = await staff.request(op.method, op.path, body)
      const byOwner = await app.call(org.key, op.method, op.path, body)
      const expected = op.role === "owner"
      if (refused(byKey) !== expected) results.push(`${op.id} staff key: ${byKey.status} ${JSON.stringify(byKey.body)}`)
      if (refused(bySession) !== expected)
        results.push(`${op.id} staff session: ${bySession.status} ${JSON.stringify(bySession.body)}`)
      if (refused(byOwner)) results.push(`${op.id} owner key refused`)
      if (bySession.status === 401 || bySession.body?.error?.code === "csrf_failed")
        results.push(`${op.id} staff session not accepted: ${JSON.stringify(bySession.body)}`)
    }
    expect(results).toEqual([])
  })

  it("a role change takes effect at the member's next request, and removal ends their reach", async () => {
    const org = await teamOrg(app, "change")
    const b = browser(app)
    await b.signIn(org.staff)
    expect((await b.api("POST", "/promo_codes", { code: "SPRING", percent_off: 10 })).status).toBe(403)
    const team = (await app.call(org.key, "GET", "/api/v1/team")).body.data as Array<{ user_id: string; email: string }>
    const staffId = team.find((m) => m.email === org.staff)!.user_id
    expect((await app.call(org.key, "PATCH", `/api/v1/team/${staffId}`, { role: "owner" })).status).toBe(200)
    expect((await b.api("POST", "/promo_codes", { code: "SPRING", percent_off: 10 })).status).toBe(201)
    expect((await b.session()).body.role).toBe("owner")
    expect((await app.call(org.key, "DELETE", `/api/v1/team/${staffId}`)).status).toBe(200)
    const after = await b.api("GET", "/bookings")
    expect([after.status, after.body.error.code]).toEqual([403, "forbidden"])
    const s = await b.session()
    expect(s.body).toMatchObject({ org: null, role: null, memberships: [] })
  })
})
