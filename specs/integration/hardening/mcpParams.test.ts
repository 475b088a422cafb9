import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, type TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, ok, startPinned } from "../bookings/helpers.ts"

/** Params of the wrong type on /mcp and on the assistant channel: -32602 with a short message, as JSON-RPC has it. */
let app: TestApp
let org: BookingsOrg
const SLUG = "params-school"
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
  ok(await org.call("PATCH", "/org", { slug: SLUG }))
})
afterAll(() => app.close())

const rpc = async (path: string, text: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${app.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: text
  })
  return { status: res.status, headers: res.headers, body: await res.json() }
}
const mcp = (text: string, headers: Record<string, string> = {}) =>
  rpc("/mcp", text, { authorization: `Bearer ${org.key}`, ...headers })
const message = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method, params })

const WRONG: Array<[string, string, unknown, RegExp]> = [
  [
    "a tool name that is an array",
    "tools/call",
    { name: ["offerings_list"], arguments: {} },
    /^Invalid params: name: expected string/
  ],
  [
    "arguments that are a string",
    "tools/call",
    { name: "offerings_list", arguments: "kind=class" },
    /^Invalid params: arguments: /
  ],
  [
    "arguments that are an array",
    "tools/call",
    { name: "offerings_list", arguments: [1] },
    /^Invalid params: arguments: /
  ],
  [
    "a protocolVersion that is a number",
    "initialize",
    { protocolVersion: 20250618, capabilities: {}, clientInfo: { name: "t", version: "1" } },
    /^Invalid params: protocolVersion: expected string/
  ]
]

const expectInvalidParams = (body: any, id: number, why: RegExp) => {
  expect(body.id).toBe(id)
  expect(body.error.code).toBe(-32602)
  expect(body.error.message).toMatch(why)
  expect(body.error.message.length).toBeLessThanOrEqual(200)
  expect(body.error.message).not.toMatch(/[[{]|\n/)
}

describe("MCP params of the wrong type", () => {
  it("are -32602 Invalid params on /mcp, with or without a session, and never reach a handler", async () => {
    for (const [what, method, params, why] of [
      ...WRONG,
      [
        "a resource uri that is an array",
        "resources/read",
        { uri: ["booking-engine://events"] },
        /^Invalid params: uri: expected string/
      ]
    ] as const) {
      const res = await mcp(message(3, method, params))
      expect({ what, status: res.status }).toEqual({ what, status: 200 })
      expectInvalidParams(res.body, 3, why)
      expect(res.headers.get("mcp-session-id")).toBeNull()
    }
    // In a session, too.
    const opened = await mcp(
      message(1, "initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" }
      })
    )
    const session = opened.headers.get("mcp-session-id")!
    expect(session).not.toBeNull()
    const inSession = { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" }
    const res = await mcp(message(4, "tools/call", { name: 42, arguments: {} }), inSession)
    expectInvalidParams(res.body, 4, /^Invalid params: name: expected string/)
    expect((await mcp(message(5, "resources/subscribe", { uri: { href: "x" } }), inSession)).body.error.code).toBe(
      -32602
    )
    // The session still works.
    const after = (await mcp(message(6, "tools/call", { name: "org_get", arguments: {} }), inSession)).body
    expect(after.result.structuredContent.id).toBe(org.id)
  })

  it("are -32602 Invalid params on the assistant channel", async () => {
    for (const [what, method, params, why] of WRONG) {
      const res = await rpc(`/api/mcp/book/${SLUG}`, message(9, method, params))
      expect({ what, status: res.status }).toEqual({ what, status: 200 })
      expectInvalidParams(res.body, 9, why)
    }
  })
})

describe("__proto__ in MCP arguments", () => {
  const call = (path: string, name: string, argumentsJson: string, headers: Record<string, string> = {}) =>
    rpc(
      path,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${argumentsJson}}}`,
      headers
    )
  const toolError = (body: any) => {
    expect(body.result.isError).toBe(true)
    return JSON.parse(body.result.content[0].text).error as { code: string; message: string }
  }

  it("is unknown_field, as REST answers the same JSON, never dropped", async () => {
    const auth = { authorization: `Bearer ${org.key}` }
    const rest = await app.call(
      org.key,
      "POST",
      "/api/v1/offerings",
      `{"name":"Proto","kind":"class","__proto__":{"capacity":3}}`
    )
    expect([rest.status, rest.body.error.code]).toEqual([400, "unknown_field"])
    const made = toolError(
      (await call("/mcp", "offerings_create", `{"name":"Proto","kind":"class","__proto__":{"capacity":3}}`, auth)).body
    )
    expect(made).toEqual({ code: "unknown_field", message: "__proto__: unknown field", param: "__proto__" })
    const listed = toolError((await call("/mcp", "offerings_list", `{"__proto__":{"kind":"class"}}`, auth)).body)
    expect(listed.code).toBe("unknown_field")
    const held = toolError(
      (await call(`/api/mcp/book/${SLUG}`, "get_availability", `{"__proto__":{"offering_id":"${org.id}"}}`)).body
    )
    expect(held.code).toBe("invalid_arguments")
    expect(
      await sql(app, (s) => s<{ n: number }>`select count(*)::int as n from offerings where name = 'Proto'`)
    ).toEqual([{ n: 0 }])
  })
})
