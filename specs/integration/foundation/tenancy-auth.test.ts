import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { allEvents, expectError, mcpClient, offerings, UNKNOWN_ID } from "./fixtures.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

const ID = UNKNOWN_ID
/** Every public operation, with a body that would pass validation. */
const OPERATIONS: ReadonlyArray<[string, string, string, unknown?]> = [
  ["offerings.list", "GET", "/api/v1/offerings"],
  ["offerings.create", "POST", "/api/v1/offerings", { name: "X", kind: "class" }],
  ["offerings.get", "GET", `/api/v1/offerings/${ID}`],
  ["offerings.update", "PATCH", `/api/v1/offerings/${ID}`, { name: "X" }],
  ["offerings.delete", "DELETE", `/api/v1/offerings/${ID}`],
  ["offerings.get_hours", "GET", `/api/v1/offerings/${ID}/hours`],
  ["offerings.set_hours", "PUT", `/api/v1/offerings/${ID}/hours`, { hours: [] }],
  ["events.list", "GET", "/api/v1/events"],
  ["org.get", "GET", "/api/v1/org"],
  ["org.update", "PATCH", "/api/v1/org", { name: "X" }],
  ["team.list", "GET", "/api/v1/team"],
  ["waiver.get", "GET", "/api/v1/waiver"],
  ["waiver.set", "PUT", "/api/v1/waiver", { text: "X" }]
]

describe("authentication", () => {
  it.each(OPERATIONS)("%s refuses a call without a key with 401 unauthorized", async (_, method, path, body) => {
    expectError(await app.call(null, method, path, body), 401, "unauthorized")
    expectError(await app.call("bk_live_not_a_real_key", method, path, body), 401, "unauthorized")
  })

  it.each([
    ["an empty bearer", "Bearer "],
    ["an unknown key", "Bearer bk_live_0000000000000000000000000000000"],
    ["the key with another scheme", "Basic :key"],
    ["the bare key", ":key"],
    ["the key with a suffix", "Bearer :keyx"],
    ["the admin token", "Bearer test-admin-token-0123456789"],
    ["another 7-character scheme", "Token: :key"],
    ["Basic and two spaces", "Basic  :key"]
  ])("refuses %s with 401 unauthorized and creates nothing", async (_, header) => {
    const org = await app.newOrg()
    const authorization = header.replace(":key", org.key)
    expectError(
      await app.call(null, "POST", "/api/v1/offerings", { name: "X", kind: "class" }, { authorization }),
      401,
      "unauthorized"
    )
    expectError(await app.call(null, "GET", "/api/v1/offerings", undefined, { authorization }), 401, "unauthorized")
    expect((await offerings(app, org.key).list()).body.data).toEqual([])
  })

  it("accepts the Bearer scheme in any case", async () => {
    const org = await app.newOrg()
    for (const scheme of ["Bearer", "bearer", "BEARER"]) {
      const res = await app.call(null, "GET", "/api/v1/org", undefined, { authorization: `${scheme} ${org.key}` })
      expect(res.status, scheme).toBe(200)
    }
  })

  it("stops a revoked key at once and keeps the org's other keys working", async () => {
    const org = await app.newOrg()
    const second = await app.admin("POST", `/orgs/${org.id}/api_keys`)
    expect(second.status).toBe(201)
    expect((await app.call(org.key, "GET", "/api/v1/org")).body.id).toBe(org.id)
    const revoked = await app.admin("DELETE", `/api_keys/${org.keyId}`)
    expect(revoked.status).toBe(200)
    expect(revoked.body).toEqual({ id: org.keyId, revoked_at: expect.any(String) })
    expectError(await app.call(org.key, "GET", "/api/v1/org"), 401, "unauthorized")
    expectError(await app.call(org.key, "POST", "/api/v1/offerings", { name: "X", kind: "class" }), 401, "unauthorized")
    expectError(
      await app.call(
        org.key,
        "POST",
        "/api/v1/offerings",
        { name: "X", kind: "class" },
        { "idempotency-key": "after-revoke" }
      ),
      401,
      "unauthorized"
    )
    expect((await app.call(second.body.key, "GET", "/api/v1/org")).body.id).toBe(org.id)
    expect((await app.call(second.body.key, "GET", "/api/v1/offerings")).body.data).toEqual([])
  })

  it("revoking one org's key leaves other orgs alone", async () => {
    const a = await app.newOrg()
    const b = await app.newOrg()
    await app.admin("DELETE", `/api_keys/${a.keyId}`)
    expect((await app.call(b.key, "GET", "/api/v1/org")).status).toBe(200)
  })

  it("refuses /mcp without a key, with an unknown key and with a revoked key (401)", async () => {
    const org = await app.newOrg()
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } }
    }
    const headers = { accept: "application/json, text/event-stream" }
    expectError(await app.call(null, "POST", "/mcp", init, headers), 401, "unauthorized")
    expectError(await app.call("bk_live_nope", "POST", "/mcp", init, headers), 401, "unauthorized")
    const ok = await app.call(org.key, "POST", "/mcp", init, headers)
    expect(ok.status).toBe(200)
    await app.admin("DELETE", `/api_keys/${org.keyId}`)
    expectError(await app.call(org.key, "POST", "/mcp", init, headers), 401, "unauthorized")
    await expect(mcpClient(app, org.key)).rejects.toThrow()
  })
})

describe("tenancy", () => {
  const setup = async () => {
    const a = await app.newOrg()
    const b = await app.newOrg()
    const mine = await offerings(app, a.key).create({ name: "A's kayak", kind: "rental", metadata: { secret: "a" } })
    await offerings(app, a.key).setHours(mine.id, { hours: [{ weekday: 1, start_time: "09:00", end_time: "10:00" }] })
    return { a, b, mine: (await offerings(app, a.key).get(mine.id)).body }
  }

  it.each([
    ["get", "GET", "", undefined],
    ["update", "PATCH", "", { name: "Stolen" }],
    ["delete", "DELETE", "", undefined],
    ["delete with cancel_bookings", "DELETE", "?cancel_bookings=true", undefined],
    ["get_hours", "GET", "/hours", undefined],
    ["set_hours", "PUT", "/hours", { hours: [] }]
  ])("org B's %s of A's offering is a 404 exactly like an unknown id", async (_, method, suffix, body) => {
    const { a, b, mine } = await setup()
    const theirs = await app.call(b.key, method, `/api/v1/offerings/${mine.id}${suffix}`, body)
    const unknown = await app.call(b.key, method, `/api/v1/offerings/${UNKNOWN_ID}${suffix}`, body)
    expectError(theirs, 404, "not_found")
    expect(theirs.body).toEqual(unknown.body)
    expect((await offerings(app, a.key).get(mine.id)).body).toEqual(mine)
    expect((await offerings(app, a.key).getHours(mine.id)).body.data).toHaveLength(1)
  })

  it("org B lists none of A's offerings and sees none of A's events", async () => {
    const { a, b, mine } = await setup()
    expect((await offerings(app, b.key).list()).body.data).toEqual([])
    expect((await offerings(app, b.key).list("?kind=rental")).body.data).toEqual([])
    expect((await allEvents(app, b.key)).length).toBe(0)
    expect((await allEvents(app, a.key)).map((e) => e.data.id)).toContain(mine.id)
  })

  it("each org sees only its own org, team and waiver", async () => {
    const { a, b } = await setup()
    await app.call(a.key, "PUT", "/api/v1/waiver", { text: "A's waiver" })
    await app.admin("POST", `/orgs/${a.id}/members`, { email: "owner@a.test", role: "owner" })
    expect((await app.call(b.key, "GET", "/api/v1/org")).body.id).toBe(b.id)
    expect((await app.call(b.key, "GET", "/api/v1/waiver")).body).toEqual({ text: null, version: 0 })
    expect((await app.call(b.key, "GET", "/api/v1/team")).body).toEqual({ data: [], invites: [] })
    expect((await app.call(b.key, "PATCH", "/api/v1/org", { name: "B renamed" })).body.id).toBe(b.id)
    expect((await app.call(a.key, "GET", "/api/v1/org")).body.name).not.toBe("B renamed")
  })

  it("holds through MCP: org B's tools answer A's offering as not found", async () => {
    const { a, b, mine } = await setup()
    const mcp = await mcpClient(app, b.key)
    try {
      for (const [tool, args] of [
        ["offerings_get", {}],
        ["offerings_update", { name: "Stolen" }],
        ["offerings_delete", {}],
        ["offerings_get_hours", {}],
        ["offerings_set_hours", { hours: [] }]
      ] as const) {
        const theirs = await mcp.call(tool, { id: mine.id, ...args })
        const unknown = await mcp.call(tool, { id: UNKNOWN_ID, ...args })
        expect(theirs.isError, tool).toBe(true)
        expect(theirs.json.error.code, tool).toBe("not_found")
        expect(theirs.json, tool).toEqual(unknown.json)
      }
      const listed = await mcp.call("offerings_list")
      expect(listed.structured).toEqual({ data: [] })
    } finally {
      await mcp.close()
    }
    expect((await offerings(app, a.key).get(mine.id)).body).toEqual(mine)
  })
})
