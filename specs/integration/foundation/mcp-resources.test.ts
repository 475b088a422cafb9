import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { McpError, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js"
import { Ajv } from "ajv"
import addFormats from "ajv-formats"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EVENT_TYPES } from "../../../engine/schema/webhook.ts"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { type Json, mcpClient, UNKNOWN_ID } from "./fixtures.ts"

let app: TestApp
let doc: any
beforeAll(async () => {
  app = await startApp()
  doc = (await app.call(null, "GET", "/api/v1/openapi.json")).body
})
afterAll(() => app.close())

const ajv = new Ajv({ strict: false, allErrors: true })
;(addFormats as unknown as (a: Ajv) => void)(ajv)

/** Every `#/$defs/<name>` the schema refers to, transitively from outside `$defs`. */
/** A JSON Schema as far as its definitions go. */
type WithDefs = { readonly $defs?: Record<string, unknown> }

const reachableDefs = (schema: WithDefs): Set<string> => {
  const found = new Set<string>()
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk)
    else if (node !== null && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) {
        if (k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/")) {
          const name = v.slice("#/$defs/".length)
          if (!found.has(name)) found.add(name), walk(schema.$defs?.[name])
        } else if (k !== "$defs") walk(v)
      }
    }
  }
  walk(schema)
  return found
}

const operation = (name: string) => {
  for (const item of Object.values<any>(doc.paths)) {
    for (const op of Object.values<any>(item)) if (op.operationId.replace(".", "_") === name) return op
  }
  throw new Error(`no operation for ${name}`)
}
const component = (schema: any) => (schema?.$ref ? doc.components.schemas[schema.$ref.split("/").pop()] : schema)

const classWithSession = async (key: string) => {
  const { body: o } = await app.call(key, "POST", "/api/v1/offerings", { name: "Yoga", kind: "class", capacity: 5 })
  const now = new Date((await app.admin("GET", "/clock")).body.now)
  const startsAt = new Date(Math.ceil(now.getTime() / 3600000) * 3600000 + 48 * 3600000).toISOString()
  const { body: s } = await app.call(key, "POST", "/api/v1/sessions", { offering_id: o.id, starts_at: startsAt })
  return { offering: o, session: s.data[0] }
}
const book = async (key: string, offering: Json, session: Json, n = 1) => {
  const res = await app.call(key, "POST", "/api/v1/bookings", {
    offering_id: offering.id,
    session_id: session.id,
    quantity: 1,
    customer: { email: `g${n}@example.com`, name: `Guest ${n}` }
  })
  expect(res.status).toBe(201)
  return res.body
}

const textOf = (content: { text?: unknown } | object) => String((content as { text?: unknown }).text)

const mcpError = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (e) => e
  )
  expect(e).toBeInstanceOf(McpError)
  return e as McpError
}

describe("MCP tools carry the contract's descriptions and output schemas", () => {
  it("describes each tool as OpenAPI does (description, else summary) and keeps the input properties' descriptions", async () => {
    const org = await app.newOrg()
    const mcp = await mcpClient(app, org.key)
    try {
      const { tools } = await mcp.client.listTools()
      let compared = 0
      for (const t of tools) {
        const op = operation(t.name)
        // The event stream's tool is its long poll: the operation's description says so, the tool's says how.
        if (t.name === "events_stream") {
          expect(op.description).toContain("events_stream")
          expect(t.description).toMatch(/long poll/)
          continue
        }
        expect(t.description, t.name).toBe(op.description ?? op.summary)
        const props = t.inputSchema.properties as Record<string, any>
        for (const p of op.parameters ?? []) {
          if (p.in === "header" || p.description === undefined) continue
          expect(props[p.name]?.description, `${t.name}.${p.name}`).toBe(p.description)
          compared++
        }
        const body = component(op.requestBody?.content?.["application/json"]?.schema)
        for (const [name, s] of Object.entries<any>(body?.properties ?? {})) {
          if (s.description !== undefined)
            expect(props[name]?.description, `${t.name}.${name}`).toBe(s.description), compared++
        }
      }
      expect(compared).toBeGreaterThan(50)
    } finally {
      await mcp.close()
    }
  })

  it("gives every tool an object outputSchema that compiles, and no $defs that nothing refers to in any schema", async () => {
    const org = await app.newOrg()
    const mcp = await mcpClient(app, org.key)
    try {
      const { tools } = await mcp.client.listTools()
      expect(tools.length).toBeGreaterThan(50)
      for (const t of tools) {
        expect(t.outputSchema?.type, t.name).toBe("object")
        expect(() => ajv.compile(t.outputSchema!), t.name).not.toThrow()
        for (const schema of [t.inputSchema, t.outputSchema] as Array<WithDefs>) {
          const defs = Object.keys(schema.$defs ?? {})
          const used = reachableDefs(schema)
          expect(
            defs.filter((d) => !used.has(d)),
            t.name
          ).toEqual([])
          for (const d of used) expect(schema.$defs?.[d], `${t.name}: ${d}`).toBeDefined()
          if (schema.$defs !== undefined) expect(defs.length, t.name).toBeGreaterThan(0)
        }
      }
    } finally {
      await mcp.close()
    }
  })

  it("answers each call with structuredContent that validates against the tool's outputSchema, and the same JSON as text", async () => {
    const org = await app.newOrg()
    const mcp = await mcpClient(app, org.key)
    try {
      const schemas = new Map((await mcp.client.listTools()).tools.map((t) => [t.name, t.outputSchema!]))
      const check = async (name: string, args: Json = {}) => {
        const res = await mcp.call(name, args)
        expect(res.isError, `${name}: ${res.text}`).toBe(false)
        const validate = ajv.compile(schemas.get(name)!)
        expect(validate(res.structured), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true)
        expect(res.json).toEqual(res.structured)
        return res.structured
      }
      const offering = await check("offerings_create", {
        name: "Yoga",
        kind: "class",
        capacity: 4,
        price_cents: 1500,
        idempotency_key: "o1"
      })
      await check("offerings_get", { id: offering.id })
      await check("offerings_list")
      const now = new Date((await app.admin("GET", "/clock")).body.now)
      const startsAt = new Date(Math.ceil(now.getTime() / 3600000) * 3600000 + 48 * 3600000).toISOString()
      const sessions = await check("sessions_create", {
        offering_id: offering.id,
        starts_at: startsAt,
        idempotency_key: "s1"
      })
      const booking = await check("bookings_create", {
        offering_id: offering.id,
        session_id: sessions.data[0].id,
        quantity: 2,
        customer: { name: "Ann", email: "ann@example.com" },
        idempotency_key: "b1"
      })
      expect(booking.status).toBe("held")
      await check("bookings_get", { id: booking.id })
      await check("bookings_confirm", { id: booking.id, idempotency_key: "c1" })
      await check("bookings_list", { session_id: sessions.data[0].id })
      await check("availability_get", { id: offering.id })
      await check("sessions_list")
      await check("customers_list")
      await check("org_get")
      await check("team_list")
      await app.advance(3)
      await check("events_list")
      await check("bookings_cancel", { id: booking.id, idempotency_key: "x1" })
      await check("offerings_delete", { id: offering.id })
    } finally {
      await mcp.close()
    }
  })

  it("keeps errors as isError with the spec's error shape and no structuredContent", async () => {
    const org = await app.newOrg()
    const mcp = await mcpClient(app, org.key)
    try {
      const res = await mcp.call("bookings_get", { id: UNKNOWN_ID })
      expect(res.isError).toBe(true)
      expect(res.json.error.code).toBe("not_found")
      expect(res.structured).toBeUndefined()
    } finally {
      await mcp.close()
    }
  })
})

describe("MCP resources", () => {
  it("lists the templates and the catalogue with the org's own offerings", async () => {
    const a = await app.newOrg()
    const b = await app.newOrg()
    const mine = (await app.call(a.key, "POST", "/api/v1/offerings", { name: "Mine", kind: "rental" })).body
    await app.call(b.key, "POST", "/api/v1/offerings", { name: "Theirs", kind: "rental" })
    const mcp = await mcpClient(app, a.key)
    try {
      const { resourceTemplates } = await mcp.client.listResourceTemplates()
      expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
        "booking-engine://bookings/{id}",
        "booking-engine://offerings/{id}"
      ])
      const { resources } = await mcp.client.listResources()
      expect(resources.map((r) => r.uri)).toEqual(["booking-engine://events", `booking-engine://offerings/${mine.id}`])
      expect(resources[1].name).toBe("Mine")
    } finally {
      await mcp.close()
    }
  })

  it("reads an offering and a booking as REST answers them, for the caller's org only", async () => {
    const a = await app.newOrg()
    const b = await app.newOrg()
    const { offering, session } = await classWithSession(a.key)
    const booking = await book(a.key, offering, session)
    const mcp = await mcpClient(app, a.key)
    const other = await mcpClient(app, b.key)
    try {
      const read = async (client: Client, uri: string) => {
        const { contents } = await client.readResource({ uri })
        expect(contents).toHaveLength(1)
        expect(contents[0]).toMatchObject({ uri, mimeType: "application/json" })
        return JSON.parse(textOf(contents[0]))
      }
      expect(await read(mcp.client, `booking-engine://offerings/${offering.id}`)).toEqual(
        (await app.call(a.key, "GET", `/api/v1/offerings/${offering.id}`)).body
      )
      expect(await read(mcp.client, `booking-engine://bookings/${booking.id}`)).toEqual(
        (await app.call(a.key, "GET", `/api/v1/bookings/${booking.id}`)).body
      )
      // Another org's ids are not found, never data; nor are unknown ids and addresses.
      for (const uri of [`booking-engine://offerings/${offering.id}`, `booking-engine://bookings/${booking.id}`]) {
        const e = await mcpError(other.client.readResource({ uri }))
        expect(e.code, uri).toBe(-32002)
        expect(JSON.stringify(e)).not.toContain("Guest 1")
      }
      expect((await mcpError(mcp.client.readResource({ uri: `booking-engine://bookings/${UNKNOWN_ID}` }))).code).toBe(
        -32002
      )
      expect((await mcpError(mcp.client.readResource({ uri: "booking-engine://customers/x" }))).code).toBe(-32002)
      expect(
        (await mcpError(mcp.client.readResource({ uri: "booking-engine://bookings/not-a-uuid" }))).code
      ).toBeLessThan(0)
    } finally {
      await mcp.close()
      await other.close()
    }
  })

  it("reads the event catalogue: every event type with when it is written and what its data is", async () => {
    const org = await app.newOrg()
    const mcp = await mcpClient(app, org.key)
    try {
      const { contents } = await mcp.client.readResource({ uri: "booking-engine://events" })
      const catalogue = JSON.parse(textOf(contents[0]))
      expect(catalogue.types.map((t: Json) => t.type)).toEqual([...EVENT_TYPES])
      for (const t of catalogue.types) {
        expect(typeof t.when, t.type).toBe("string")
        expect(t.data.length, t.type).toBeGreaterThan(3)
      }
      expect(Object.keys(catalogue.envelope).sort()).toEqual(["created_at", "data", "id", "type"])
    } finally {
      await mcp.close()
    }
  })
})

describe("MCP prompts", () => {
  it("lists book_for_guest and cancel_session_and_tell_guests, whose messages name only tools the server has", async () => {
    const org = await app.newOrg()
    const mcp = await mcpClient(app, org.key)
    try {
      const { prompts } = await mcp.client.listPrompts()
      expect(prompts.map((p) => p.name).sort()).toEqual(["book_for_guest", "cancel_session_and_tell_guests"])
      const names = new Set((await mcp.client.listTools()).tools.map((t) => t.name))
      const booking = await mcp.client.getPrompt({
        name: "book_for_guest",
        arguments: {
          offering: "Yoga",
          guest_name: "Ann",
          guest_email: "ann@example.com",
          party: "2",
          when: "next Saturday morning"
        }
      })
      const cancel = await mcp.client.getPrompt({
        name: "cancel_session_and_tell_guests",
        arguments: { session_id: UNKNOWN_ID, reason: "The teacher is ill" }
      })
      for (const [res, must] of [
        [booking, ["offerings_list", "availability_get", "bookings_create"]],
        [cancel, ["bookings_list", "sessions_cancel", "events_list"]]
      ] as const) {
        const text = res.messages.map((m) => (m.content as { text: string }).text).join("\n")
        for (const tool of must) expect(text).toContain(tool)
        for (const m of text.matchAll(
          /\b((?:offerings|availability|bookings|sessions|events|org|messages|customers)_[a-z_]+)/g
        ))
          expect(names.has(m[1]), m[1]).toBe(true)
      }
      const text = (booking.messages[0].content as { text: string }).text
      expect(text).toContain("ann@example.com")
      expect(text).toContain("quantity 2")
      expect((cancel.messages[0].content as { text: string }).text).toContain("The teacher is ill")
      await mcpError(mcp.client.getPrompt({ name: "book_for_guest", arguments: { offering: "Yoga" } }))
      await mcpError(mcp.client.getPrompt({ name: "no_such_prompt", arguments: {} }))
    } finally {
      await mcp.close()
    }
  })
})

describe("MCP sessions and booking subscriptions", () => {
  const connect = async (key: string) => {
    const client = new Client({ name: "subscriber", version: "1.0.0" })
    const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } }
    })
    await client.connect(transport)
    const updates: string[] = []
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri))
    return { client, transport, updates }
  }
  const waitFor = async (check: () => boolean, ms = 10_000) => {
    const until = Date.now() + ms
    while (!check()) {
      if (Date.now() > until) return false
      await new Promise((r) => setTimeout(r, 50))
    }
    return true
  }
  const waitForAsync = async (check: () => Promise<boolean>, ms = 10_000) => {
    const until = Date.now() + ms
    while (!(await check())) {
      if (Date.now() > until) return false
      await new Promise((r) => setTimeout(r, 50))
    }
    return true
  }

  it("tells a subscribed session when its booking changes (cancelled over REST), and only then", async () => {
    const org = await app.newOrg()
    const { offering, session } = await classWithSession(org.key)
    const watched = await book(org.key, offering, session, 1)
    const other = await book(org.key, offering, session, 2)
    const { client, transport, updates } = await connect(org.key)
    try {
      expect(transport.sessionId).toMatch(/^[0-9a-f]{8}-/)
      expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true)
      await client.subscribeResource({ uri: `booking-engine://bookings/${watched.id}` })
      // Whether or not the client's GET stream is open yet, the change is told on it.
      await app.call(org.key, "POST", `/api/v1/bookings/${other.id}/cancel`, {})
      expect((await app.call(org.key, "POST", `/api/v1/bookings/${watched.id}/cancel`, {})).status).toBe(200)
      expect(await waitFor(() => updates.length > 0)).toBe(true)
      expect(updates).toContain(`booking-engine://bookings/${watched.id}`)
      expect(updates).not.toContain(`booking-engine://bookings/${other.id}`)
      const { contents } = await client.readResource({ uri: `booking-engine://bookings/${watched.id}` })
      expect(JSON.parse(textOf(contents[0])).status).toBe("cancelled")

      // Unsubscribed: told no more.
      await client.unsubscribeResource({ uri: `booking-engine://bookings/${watched.id}` })
      const seen = updates.length
      await app.call(org.key, "POST", `/api/v1/bookings/${watched.id}/resend`, {})
      await new Promise((r) => setTimeout(r, 500))
      expect(updates.length).toBe(seen)
    } finally {
      await client.close()
    }
  })

  it("closes a session whose key is revoked instead of telling it more", async () => {
    const org = await app.newOrg()
    const { offering, session } = await classWithSession(org.key)
    const booking = await book(org.key, offering, session)
    const made = await app.call(org.key, "POST", "/api/v1/api_keys", { name: "agent" })
    expect(made.status).toBe(201)
    const { client, transport, updates } = await connect(made.body.key)
    try {
      await client.subscribeResource({ uri: `booking-engine://bookings/${booking.id}` })
      // The booking's own events (made before the subscription) may still be on their way and told while the key
      // acts: let them go out first, so only what follows the revocation is counted.
      expect(
        await waitForAsync(
          async () =>
            (
              await sql(
                app,
                (q) => q<{ n: number }>`
        select count(*)::int as n from relay_queue q join events e on e.id = q.event_id where e.org_id = ${org.id}`
              )
            )[0].n === 0
        )
      ).toBe(true)
      await new Promise((r) => setTimeout(r, 300))
      const before = updates.length
      expect((await app.call(org.key, "DELETE", `/api/v1/api_keys/${made.body.id}`)).status).toBe(200)
      await app.call(org.key, "POST", `/api/v1/bookings/${booking.id}/cancel`, {})
      expect(await waitFor(() => updates.length > before, 1_500)).toBe(false)
      const res = await fetch(`${app.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${org.key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": transport.sessionId!
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
      })
      expect(res.status).toBe(404)
    } finally {
      await client.close().catch(() => undefined)
    }
  })

  it("refuses a subscription to another org's booking as not found, and keeps sessions to their org", async () => {
    const a = await app.newOrg()
    const b = await app.newOrg()
    const { offering, session } = await classWithSession(a.key)
    const booking = await book(a.key, offering, session)
    const { client, transport } = await connect(b.key)
    try {
      expect((await mcpError(client.subscribeResource({ uri: `booking-engine://bookings/${booking.id}` }))).code).toBe(
        -32002
      )
      // A's key on B's session: no such session for A.
      const res = await fetch(`${app.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${a.key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": transport.sessionId!
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
      })
      expect(res.status).toBe(404)
    } finally {
      await client.close()
    }
  })

  it("serves requests without Mcp-Session-Id statelessly as before, where subscribing is refused with a reason", async () => {
    const org = await app.newOrg()
    const post = (body: Json, sessionId?: string) =>
      fetch(`${app.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${org.key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(sessionId ? { "mcp-session-id": sessionId } : {})
        },
        body: JSON.stringify(body)
      })
    const listed = await post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
    expect(listed.status).toBe(200)
    expect(listed.headers.get("mcp-session-id")).toBeNull()
    expect((await listed.json()).result.tools.length).toBeGreaterThan(50)
    const subscribed = await (
      await post({
        jsonrpc: "2.0",
        id: 2,
        method: "resources/subscribe",
        params: { uri: `booking-engine://bookings/${UNKNOWN_ID}` }
      })
    ).json()
    expect(subscribed.error.message).toMatch(/session/)
    // A closed session of this instance is 404, so the client starts again.
    const { client, transport } = await connect(org.key)
    const id = transport.sessionId!
    await transport.terminateSession()
    await client.close()
    expect((await post({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} }, id)).status).toBe(404)
  })
})

describe("toolsets", () => {
  it("?toolsets= lists and runs only those groups' tools, a smaller tools/list for a small context; an unknown toolset is 400 naming them all", async () => {
    const org = await app.newOrg()
    const connect = async (query: string) => {
      const client = new Client({ name: "toolsets-test", version: "1.0.0" })
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${app.url}/mcp${query}`), {
          requestInit: { headers: { Authorization: `Bearer ${org.key}` } }
        })
      )
      return client
    }
    const all = await connect("")
    const every = (await all.listTools()).tools
    await all.close()
    const some = await connect("?toolsets=bookings,availability")
    const listed = (await some.listTools()).tools
    expect(listed.length).toBeGreaterThan(5)
    expect(listed.every((t) => t.name.startsWith("bookings_") || t.name.startsWith("availability_"))).toBe(true)
    expect(listed.map((t) => t.name).sort()).toEqual(
      every
        .filter((t) => /^(bookings|availability)_/.test(t.name))
        .map((t) => t.name)
        .sort()
    )
    expect(JSON.stringify(listed).length).toBeLessThan(JSON.stringify(every).length / 3)
    await expect(some.callTool({ name: "offerings_list", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("unknown_tool")
    })
    const allowed = await some.callTool({ name: "bookings_list", arguments: {} })
    expect(allowed.isError).not.toBe(true)
    await some.close()
    const bad = await fetch(`${app.url}/mcp?toolsets=bookings,nope`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${org.key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream"
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
    })
    expect(bad.status).toBe(400)
    const body = (await bad.json()) as { error: { message: string } }
    expect(body.error.message).toContain("unknown toolset nope")
    expect(body.error.message).toContain("bookings")
  })
})
