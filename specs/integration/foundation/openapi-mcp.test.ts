import { readFile } from "node:fs/promises"
import { Validator } from "@seriousme/openapi-schema-validator"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { allEvents, type Json, mcpClient, offerings, UNKNOWN_ID } from "./fixtures.ts"

let app: TestApp
let doc: any
beforeAll(async () => {
  app = await startApp()
  doc = (await app.call(null, "GET", "/api/v1/openapi.json")).body
})
afterAll(() => app.close())

/** The foundation's operations; groups added later extend the contract and the MCP tools alike. */
const FOUNDATION = [
  "offerings.list",
  "offerings.create",
  "offerings.get",
  "offerings.update",
  "offerings.delete",
  "offerings.get_hours",
  "offerings.set_hours",
  "offerings.set_photo",
  "offerings.delete_photo",
  "events.list",
  "events.stream",
  "org.get",
  "org.update",
  "team.list",
  "team.invite",
  "team.revoke_invite",
  "team.update",
  "team.remove",
  "waiver.get",
  "waiver.set"
]
const FOUNDATION_GROUPS = new Set(["offerings", "events", "org", "team", "waiver"])

const operations = () => {
  const out: Array<{ id: string; method: string; path: string; op: any }> = []
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) out.push({ id: op.operationId, method, path, op })
  }
  return out
}

/** Every `$ref` inside a JSON Schema, with whether it resolves inside that schema. */
const refs = (schema: any): Array<[string, boolean]> => {
  const found: string[] = []
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk)
    else if (node !== null && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) {
        if (k === "$ref" && typeof v === "string") found.push(v)
        else walk(v)
      }
    }
  }
  walk(schema)
  return found.map((ref) => {
    const parts = ref.replace(/^#\//, "").split("/")
    let node: any = schema
    for (const p of parts) node = node?.[p.replace(/~1/g, "/").replace(/~0/g, "~")]
    return [ref, ref.startsWith("#/") && node !== undefined]
  })
}

describe("the OpenAPI document", () => {
  it("is served without a key at /api/v1/openapi.json as OpenAPI 3.1 version 1", async () => {
    const res = await app.call(null, "GET", "/api/v1/openapi.json")
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toMatch(/^application\/json/)
    expect(res.body.openapi).toMatch(/^3\.1\./)
    expect(res.body.info.version).toBe("1")
  })

  it("passes the OpenAPI schema validator", async () => {
    const result = await new Validator().validate(doc)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
  })

  it("has exactly the foundation's operations in the foundation groups", () => {
    const ids = operations().map((o) => o.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.filter((id) => FOUNDATION_GROUPS.has(id.split(".")[0])).sort()).toEqual([...FOUNDATION].sort())
    for (const id of ids) expect(id).toMatch(/^[a-z_]+\.[a-z_]+$/)
  })

  it("leaves the admin API out", () => {
    for (const o of operations()) {
      expect(o.path.startsWith("/api/v1/"), o.path).toBe(true)
      expect(o.id.startsWith("admin."), o.id).toBe(false)
    }
    expect(JSON.stringify(doc)).not.toContain("/admin/v1")
  })

  it("places the foundation operations on the spec's methods and paths", () => {
    const at = Object.fromEntries(operations().map((o) => [o.id, `${o.method.toUpperCase()} ${o.path}`]))
    expect(Object.fromEntries(FOUNDATION.map((id) => [id, at[id]]))).toEqual({
      "offerings.list": "GET /api/v1/offerings",
      "offerings.create": "POST /api/v1/offerings",
      "offerings.get": "GET /api/v1/offerings/{id}",
      "offerings.update": "PATCH /api/v1/offerings/{id}",
      "offerings.delete": "DELETE /api/v1/offerings/{id}",
      "offerings.get_hours": "GET /api/v1/offerings/{id}/hours",
      "offerings.set_hours": "PUT /api/v1/offerings/{id}/hours",
      "offerings.set_photo": "PUT /api/v1/offerings/{id}/photo",
      "offerings.delete_photo": "DELETE /api/v1/offerings/{id}/photo",
      "events.list": "GET /api/v1/events",
      "events.stream": "GET /api/v1/events/stream",
      "org.get": "GET /api/v1/org",
      "org.update": "PATCH /api/v1/org",
      "team.list": "GET /api/v1/team",
      "team.invite": "POST /api/v1/team/invites",
      "team.revoke_invite": "DELETE /api/v1/team/invites/{id}",
      "team.update": "PATCH /api/v1/team/{user_id}",
      "team.remove": "DELETE /api/v1/team/{user_id}",
      "waiver.get": "GET /api/v1/waiver",
      "waiver.set": "PUT /api/v1/waiver"
    })
  })

  it("requires the bearer key on every operation but the invitee's, the waiver signer's and the guest's (their token or handle is the credential) and documents Idempotency-Key on every POST that takes one", () => {
    expect(doc.components.securitySchemes.bearer).toEqual({ type: "http", scheme: "bearer" })
    for (const o of operations()) {
      const byToken = o.id.startsWith("invites.") || o.id.startsWith("waivers.") || o.id.startsWith("guest.")
      expect(o.op.security ?? [], o.id).toEqual(byToken ? [] : [{ bearer: [] }])
      // The guest page's actions are checked against the booking's state (a second cancel is 409), not keyed.
      if (o.method === "post" && !o.id.startsWith("guest.")) {
        expect(
          (o.op.parameters ?? []).map((p: Json) => `${p.in}:${String(p.name).toLowerCase()}`),
          o.id
        ).toContain("header:idempotency-key")
      }
    }
  })
})

describe("the MCP server", () => {
  it("explains the model in its instructions, naming only tools it has", async () => {
    const org = await app.newOrg()
    const mcp = await mcpClient(app, org.key)
    try {
      const text = mcp.client.getInstructions() ?? ""
      expect(text).toMatch(/minor units/)
      const names = new Set((await mcp.client.listTools()).tools.map((t) => t.name))
      const named = [...text.matchAll(/\b([a-z]+_[a-z_]+)\(?/g)]
        .map((m) => m[1])
        .filter((w) => /^(offerings|sessions|availability|bookings|org|events|customers|series)_/.test(w))
      expect(named.length).toBeGreaterThan(4)
      for (const n of named) expect(names.has(n), n).toBe(true)
    } finally {
      await mcp.close()
    }
  })

  it("lists one tool per operation, named with _ for ., photos and the event stream (a long poll) included", async () => {
    const org = await app.newOrg()
    const mcp = await mcpClient(app, org.key)
    try {
      const { tools } = await mcp.client.listTools()
      expect(operations().filter((o) => o.op["x-not-an-mcp-tool"] !== undefined)).toEqual([])
      expect(tools.map((t) => t.name).sort()).toEqual(
        operations()
          .map((o) => o.id.replace(".", "_"))
          .sort()
      )
      expect(tools.map((t) => t.name)).toContain("events_stream")
      for (const name of ["offerings_set_photo", "offerings_delete_photo"])
        expect(tools.map((t) => t.name)).toContain(name)
      for (const t of tools) {
        expect(t.inputSchema.type, t.name).toBe("object")
        for (const [ref, ok] of refs(t.inputSchema)) expect(ok, `${t.name}: ${ref}`).toBe(true)
        const op = operations().find((o) => o.id.replace(".", "_") === t.name)!
        expect("idempotency_key" in (t.inputSchema.properties ?? {}), t.name).toBe(op.method === "post")
        expect(t.annotations?.readOnlyHint, t.name).toBe(op.method === "get")
      }
    } finally {
      await mcp.close()
    }
  })

  it("runs the offerings tools end to end, with idempotency_key", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const mcp = await mcpClient(app, org.key)
    try {
      const args = { name: "Sup board", kind: "rental", price_cents: 3000, idempotency_key: "mcp-1" }
      const created = await mcp.call("offerings_create", args)
      expect(created.isError).toBe(false)
      expect(created.structured).toMatchObject({ name: "Sup board", kind: "rental", price_cents: 3000, org_id: org.id })
      expect(created.json).toEqual(created.structured)
      const replayed = await mcp.call("offerings_create", args)
      expect(replayed.isError).toBe(false)
      expect(replayed.structured).toEqual(created.structured)
      const reused = await mcp.call("offerings_create", { ...args, price_cents: 3100 })
      expect(reused.isError).toBe(true)
      expect(reused.json.error.code).toBe("idempotency_key_reused")
      expect((await api.list()).body.data).toEqual([created.structured])

      const id = created.structured.id
      const got = await mcp.call("offerings_get", { id })
      expect(got.structured).toEqual((await api.get(id)).body)
      const paused = await mcp.call("offerings_update", { id, active: false, capacity: 4 })
      expect(paused.structured).toMatchObject({ id, active: false, capacity: 4 })
      expect((await api.get(id)).body).toEqual(paused.structured)
      const hours = await mcp.call("offerings_set_hours", {
        id,
        hours: [{ weekday: 2, start_time: "08:00", end_time: "12:00" }]
      })
      expect(hours.structured).toEqual({ data: [{ weekday: 2, start_time: "08:00:00", end_time: "12:00:00" }] })
      expect((await mcp.call("offerings_get_hours", { id })).structured).toEqual(hours.structured)
      expect((await mcp.call("offerings_list", { kind: "rental" })).structured.data.map((o: Json) => o.id)).toEqual([
        id
      ])
      expect((await mcp.call("offerings_list", { kind: "class" })).structured.data).toEqual([])
      expect((await mcp.call("offerings_delete", { id })).structured).toEqual({
        cancelled: 0,
        refunded: 0,
        refunding: 0,
        refund_failed: 0
      })
      expect((await api.get(id)).status).toBe(404)

      await app.advance(3)
      const events = await mcp.call("events_list", { after: "0", limit: "50" })
      expect(events.structured.data.map((e: Json) => e.type)).toEqual([
        "offering.created",
        "offering.updated",
        "offering.hours_updated",
        "offering.deleted"
      ])
      expect(events.structured.data).toEqual(await allEvents(app, org.key))
    } finally {
      await mcp.close()
    }
  })

  it("runs the org, team and waiver tools", async () => {
    const org = await app.newOrg()
    const mcp = await mcpClient(app, org.key)
    try {
      expect((await mcp.call("org_get")).structured).toEqual((await app.call(org.key, "GET", "/api/v1/org")).body)
      expect((await mcp.call("org_update", { name: "Via MCP" })).structured.name).toBe("Via MCP")
      expect((await mcp.call("team_list")).structured).toEqual({ data: [], invites: [] })
      expect((await mcp.call("waiver_set", { text: "Sign here" })).structured).toEqual({
        text: "Sign here",
        version: 1
      })
      expect((await mcp.call("waiver_get")).structured).toEqual({ text: "Sign here", version: 1 })
    } finally {
      await mcp.close()
    }
  })

  it.each([
    [
      "offerings_create",
      { name: "Bad", kind: "class", capacity: 0 },
      "POST",
      "/api/v1/offerings",
      { name: "Bad", kind: "class", capacity: 0 }
    ],
    [
      "offerings_create",
      { name: "Bad", kind: "class", colour: "red" },
      "POST",
      "/api/v1/offerings",
      { name: "Bad", kind: "class", colour: "red" }
    ],
    [
      "offerings_create",
      { name: "Both", kind: "class", deposit_cents: 1, deposit_percent: 1 },
      "POST",
      "/api/v1/offerings",
      { name: "Both", kind: "class", deposit_cents: 1, deposit_percent: 1 }
    ],
    [
      "offerings_create",
      { name: "W", kind: "class", waiver_required: true },
      "POST",
      "/api/v1/offerings",
      { name: "W", kind: "class", waiver_required: true }
    ],
    ["offerings_get", { id: "not-a-uuid" }, "GET", "/api/v1/offerings/not-a-uuid", undefined],
    ["offerings_get", { id: UNKNOWN_ID }, "GET", `/api/v1/offerings/${UNKNOWN_ID}`, undefined],
    ["offerings_update", { id: UNKNOWN_ID, name: "" }, "PATCH", `/api/v1/offerings/${UNKNOWN_ID}`, { name: "" }],
    [
      "offerings_set_hours",
      { id: UNKNOWN_ID, hours: [{ weekday: 9, start_time: "09:00", end_time: "10:00" }] },
      "PUT",
      `/api/v1/offerings/${UNKNOWN_ID}/hours`,
      { hours: [{ weekday: 9, start_time: "09:00", end_time: "10:00" }] }
    ],
    ["events_list", { limit: "201" }, "GET", "/api/v1/events?limit=201", undefined]
  ])("answers a bad %s call with isError and the REST error body", async (tool, args, method, path, body) => {
    const org = await app.newOrg()
    const rest = await app.call(org.key, method, path, body)
    expect(rest.status).toBeGreaterThanOrEqual(400)
    const mcp = await mcpClient(app, org.key)
    try {
      const res = await mcp.call(tool, args)
      expect(res.isError).toBe(true)
      expect(res.json).toEqual(rest.body)
      expect(res.structured).toBeUndefined()
    } finally {
      await mcp.close()
    }
    expect((await offerings(app, org.key).list()).body.data).toEqual([])
  })

  it.each([
    ["offerings_get", { id: UNKNOWN_ID, verbose: true }, "unknown_field"],
    ["offerings_list", { kind: "class", page: 2 }, "unknown_field"],
    ["org_get", { org_id: UNKNOWN_ID }, "unknown_field"],
    ["offerings_delete", { id: UNKNOWN_ID, force: true }, "unknown_field"],
    ["offerings_get", {}, "invalid_id"],
    ["offerings_update", { name: "No id" }, "invalid_id"],
    ["offerings_get_hours", { id: null }, "invalid_id"]
  ])("answers %s with %j as isError %s, never a protocol error or another route", async (tool, args, code) => {
    const org = await app.newOrg()
    await offerings(app, org.key).create({ name: "Kept", kind: "rental" })
    const mcp = await mcpClient(app, org.key)
    try {
      const res = await mcp.call(tool, args)
      expect(res.isError).toBe(true)
      expect(res.json.error.code).toBe(code)
      expect(typeof res.json.error.message).toBe("string")
    } finally {
      await mcp.close()
    }
    expect((await offerings(app, org.key).list()).body.data.map((o: Json) => o.name)).toEqual(["Kept"])
  })

  it("answers an unknown tool with the JSON-RPC error -32602 (invalid params), not a result", async () => {
    const org = await app.newOrg()
    const mcp = await mcpClient(app, org.key)
    try {
      await expect(mcp.client.callTool({ name: "offerings_explode", arguments: {} })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining("unknown_tool")
      })
      const res = await fetch(`${app.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${org.key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream"
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: { name: "nope", arguments: {} }
        })
      })
      const text = await res.text()
      const message = JSON.parse(text.startsWith("{") ? text : text.slice(text.indexOf("{")))
      expect(message).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32602 } })
      expect(message.result).toBeUndefined()
    } finally {
      await mcp.close()
    }
  })

  it("gives every tool a title (its operation's summary) and reports the package's version", async () => {
    const org = await app.newOrg()
    const mcp = await mcpClient(app, org.key)
    try {
      const { tools } = await mcp.client.listTools()
      for (const t of tools) {
        expect(t.title, t.name).toMatch(/\w/)
        expect(t.annotations?.title, t.name).toBe(t.title)
      }
      const pkg = JSON.parse(await readFile(new URL("../../../package.json", import.meta.url), "utf8"))
      expect(mcp.client.getServerVersion()).toMatchObject({ name: "booking-engine", version: pkg.version })
    } finally {
      await mcp.close()
    }
  })

  it("events_stream: the events after a cursor at once, or waits (bounded) for the first; next_after carries on", async () => {
    const org = await app.newOrg()
    const mcp = await mcpClient(app, org.key)
    try {
      await app.advance(3)
      const start = (await mcp.call("events_list", { order: "desc", limit: 1 })).structured.next_after as number
      expect((await mcp.call("events_stream", { after: start, wait_seconds: 26 })).json.error.code).toBe(
        "invalid_wait_seconds"
      )
      expect((await mcp.call("events_stream", { after: start, nope: 1 })).json.error.code).toBe("unknown_field")
      const t0 = Date.now()
      const quiet = await mcp.call("events_stream", { after: start, wait_seconds: 1 })
      expect(quiet.isError).toBe(false)
      expect(quiet.structured).toEqual({ data: [], next_after: start })
      expect(Date.now() - t0).toBeGreaterThanOrEqual(900)
      // An event written while the call waits is answered when it is served (2 seconds old on the engine clock).
      const waiting = mcp.call("events_stream", { after: start, wait_seconds: 10 })
      await offerings(app, org.key).create({ name: "Kayak", kind: "rental" })
      await app.advance(3)
      const woke = await waiting
      expect(woke.structured.data.map((e: Json) => e.type)).toEqual(["offering.created"])
      expect(woke.structured.next_after).toBe(woke.structured.data[0].id)
      const after = await mcp.call("events_stream", { after: woke.structured.next_after, wait_seconds: 0 })
      expect(after.structured.data).toEqual([])
    } finally {
      await mcp.close()
    }
  })
})
