import { describe, expect, it } from "vitest"
import type { BusEvent } from "../../../engine/ports/Bus.ts"
import { mcpHandler } from "../../../transports/mcp/server.ts"

const ORG = "org-1"
const BOOKING = "11111111-1111-4111-8111-111111111111"

/** A handler over a fake REST (every booking is ORG's) and a fake bus. */
const setup = (
  options: { maxSessions?: number; maxSessionsPerOrg?: number; idleMs?: number; streamMs?: number } = {}
) => {
  const listeners = new Set<(e: BusEvent) => void>()
  const handle = mcpHandler(
    [],
    async (call) =>
      call.bearer === "key-1" && call.url === `/api/v1/bookings/${BOOKING}`
        ? { status: 200, body: JSON.stringify({ id: BOOKING }) }
        : { status: 404, body: JSON.stringify({ error: { code: "not_found", message: "no such booking" } }) },
    {
      events: (l) => (listeners.add(l), () => void listeners.delete(l)),
      orgOf: async (bearer) => (bearer === "key-1" ? ORG : bearer === "key-2" ? "org-2" : undefined),
      ...options
    }
  )
  const post = (body: unknown, session?: string, bearer = "key-1") =>
    handle(
      new Request("http://mcp.internal/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(session ? { "mcp-session-id": session } : {})
        },
        body: JSON.stringify(body)
      }),
      bearer,
      bearer === "key-1" ? ORG : "org-2"
    )
  const initialize = () =>
    post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }
    })
  return { handle, post, initialize, listeners }
}

describe("MCP sessions", () => {
  it("opens a session on initialize, up to the bound; past it an initialize is served without one", async () => {
    const { initialize, post } = setup({ maxSessions: 1 })
    const first = await initialize()
    const id = first.headers.get("mcp-session-id")
    expect(id).toMatch(/^[0-9a-f]{8}-/)
    expect((await first.json()).result.capabilities.resources.subscribe).toBe(true)
    const second = await initialize()
    expect(second.status).toBe(200)
    expect(second.headers.get("mcp-session-id")).toBeNull()
    expect((await second.json()).result.capabilities.resources.subscribe).toBe(false)
    // The session answers its org only.
    expect((await post({ jsonrpc: "2.0", id: 1, method: "tools/list" }, id!)).status).toBe(200)
    expect((await post({ jsonrpc: "2.0", id: 1, method: "tools/list" }, id!, "key-2")).status).toBe(404)
  })

  it("closes a session idle past idleMs: its id is then 404, and a new initialize opens another", async () => {
    const { initialize, post, listeners } = setup({ maxSessions: 1, idleMs: 100 })
    const id = (await initialize()).headers.get("mcp-session-id")!
    expect(listeners.size).toBe(1)
    await new Promise((r) => setTimeout(r, 1_300))
    expect((await post({ jsonrpc: "2.0", id: 1, method: "tools/list" }, id)).status).toBe(404)
    // No session left: the bus is no longer listened to.
    expect(listeners.size).toBe(0)
    expect((await initialize()).headers.get("mcp-session-id")).not.toBeNull()
  })

  it("holds at most maxSessionsPerOrg sessions of one org", async () => {
    const { initialize, post } = setup({ maxSessionsPerOrg: 1 })
    expect((await initialize()).headers.get("mcp-session-id")).not.toBeNull()
    expect((await initialize()).headers.get("mcp-session-id")).toBeNull()
    const other = await post(
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }
      },
      undefined,
      "key-2"
    )
    expect(other.headers.get("mcp-session-id")).not.toBeNull()
  })

  it("serves another instance's session id statelessly, and a subscription needs a session of this one", async () => {
    const { handle, post } = setup()
    const res = await post(
      { jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri: `booking-engine://bookings/${BOOKING}` } },
      "ffffffff-elsewhere"
    )
    expect(res.status).toBe(200)
    expect((await res.json()).error.message).toMatch(/session/)
    const stream = await handle(
      new Request("http://mcp.internal/mcp", {
        headers: { accept: "text/event-stream", "mcp-session-id": "ffffffff-elsewhere" }
      }),
      "key-1",
      ORG
    )
    expect(stream.status).toBe(405)
  })

  it("tells the subscribed session of its org's booking events on the GET stream", async () => {
    const { handle, initialize, post, listeners } = setup()
    const id = (await initialize()).headers.get("mcp-session-id")!
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, id)
    const sub = await post(
      { jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri: `booking-engine://bookings/${BOOKING}` } },
      id
    )
    expect((await sub.json()).result).toEqual({})
    const notFound = await post(
      {
        jsonrpc: "2.0",
        id: 2,
        method: "resources/subscribe",
        params: { uri: "booking-engine://bookings/22222222-2222-4222-8222-222222222222" }
      },
      id
    )
    expect((await notFound.json()).error.code).toBe(-32002)
    const stream = await handle(
      new Request("http://mcp.internal/mcp", { headers: { accept: "text/event-stream", "mcp-session-id": id } }),
      "key-1",
      ORG
    )
    expect(stream.headers.get("content-type")).toBe("text/event-stream")
    const reader = stream.body!.getReader()
    const event = (org: string, type: string, data: unknown): BusEvent => ({
      id: 1,
      deployment: "d",
      org_id: org,
      type,
      data,
      created_at: ""
    })
    for (const l of listeners) {
      l(event("org-2", "booking.cancelled", { id: BOOKING }))
      l(event(ORG, "booking.cancelled", { id: BOOKING }))
    }
    let text = ""
    while (!text.includes("\n\n")) text += new TextDecoder().decode((await reader.read()).value)
    const message = JSON.parse(text.split("data: ")[1])
    expect(message).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { uri: `booking-engine://bookings/${BOOKING}` }
    })
    // Once: the other org's event of the same id told nobody.
    const more = await Promise.race([
      reader.read().then((r) => new TextDecoder().decode(r.value)),
      new Promise<string>((r) => setTimeout(() => r(""), 300))
    ])
    expect(
      text.split("notifications/resources/updated").length -
        1 +
        more.split("notifications/resources/updated").length -
        1
    ).toBe(1)
    await reader.cancel()
  })

  it("keeps a change made while no GET stream is open, and tells it once the stream opens", async () => {
    const { handle, initialize, post, listeners } = setup()
    const id = (await initialize()).headers.get("mcp-session-id")!
    await post(
      { jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri: `booking-engine://bookings/${BOOKING}` } },
      id
    )
    const confirmed = {
      id: 7,
      deployment: "d",
      org_id: ORG,
      type: "booking.confirmed",
      data: { id: BOOKING },
      created_at: ""
    }
    for (const l of listeners) l(confirmed)
    await new Promise((r) => setTimeout(r, 20))
    const stream = await handle(
      new Request("http://mcp.internal/mcp", { headers: { accept: "text/event-stream", "mcp-session-id": id } }),
      "key-1",
      ORG
    )
    const reader = stream.body!.getReader()
    let text = ""
    while (!text.includes("\n\n")) text += new TextDecoder().decode((await reader.read()).value)
    expect(text).toContain(`"uri":"booking-engine://bookings/${BOOKING}"`)
    await reader.cancel()
  })

  it("ends a GET stream after streamMs, and the session takes a new one", async () => {
    const { handle, initialize } = setup({ streamMs: 150 })
    const id = (await initialize()).headers.get("mcp-session-id")!
    const open = () =>
      handle(
        new Request("http://mcp.internal/mcp", { headers: { accept: "text/event-stream", "mcp-session-id": id } }),
        "key-1",
        ORG
      )
    const first = await open()
    expect(first.status).toBe(200)
    const reader = first.body!.getReader()
    while (!(await reader.read()).done) {
      /* until it ends */
    }
    const second = await open()
    expect(second.status).toBe(200)
    await second.body!.cancel()
  })
})
