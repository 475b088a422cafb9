import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { formatWhen } from "../../../engine/services/mail/render.ts"
import type { TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, expectError, guest, ok, startPinned } from "../bookings/helpers.ts"
import { guestApi, handleFromMail } from "../guest/helpers.ts"

let app: TestApp
let org: BookingsOrg
let other: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app, { timezone: "Europe/Amsterdam" })
  other = await bookingsOrg(app)
  ok(await org.call("PATCH", "/org", { slug: "surf-school" }))
  ok(await other.call("PATCH", "/org", { slug: "other-school" }))
})
afterAll(() => app.close())

/** An AI assistant: an SDK MCP client on the org's channel, with no key. */
const assistant = async (slug = "surf-school") => {
  const client = new Client({ name: "some-assistant", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp/book/${slug}`)))
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const res = await client.callTool({ name, arguments: args })
    return { isError: res.isError === true, json: JSON.parse((res.content as Array<{ text: string }>)[0].text) }
  }
  return { client, call }
}

describe("the assistant booking channel /api/mcp/book/{slug}", () => {
  it("lists the tools, the org's active offerings with public fields only, and their times", async () => {
    const { offering, session } = await org.classWithSession({
      name: "Assistant class",
      capacity: 4,
      metadata: { secret: "s3" }
    })
    await other.classWithSession({ name: "Other org class" })
    const a = await assistant()
    const tools = (await a.client.listTools()).tools.map((t) => t.name)
    expect(tools).toEqual(["org_info", "list_offerings", "get_availability", "hold_booking"])
    expect(a.client.getInstructions()).toMatch(/confirmed by the guest/)
    expect((await a.call("org_info")).json).toMatchObject({ timezone: "Europe/Amsterdam", currency: "EUR" })
    const listed = (await a.call("list_offerings")).json.data
    expect(listed.map((o: { name: string }) => o.name)).toContain("Assistant class")
    expect(listed.map((o: { name: string }) => o.name)).not.toContain("Other org class")
    expect(JSON.stringify(listed)).not.toContain("s3")
    const times = (await a.call("get_availability", { offering_id: offering.id })).json
    expect(times.data.map((s: { session_id: string }) => s.session_id)).toContain(session.id)
    const refused = await a.call("get_availability", { offering_id: "nope" })
    expect(refused.isError).toBe(true)
    expect(refused.json.error.code).toBe("invalid_arguments")
    // A tool it does not list is a protocol error (-32602), not a result; every tool has a title; the version is the package's.
    await expect(a.client.callTool({ name: "cancel_booking", arguments: {} })).rejects.toMatchObject({ code: -32602 })
    for (const t of (await a.client.listTools()).tools) expect(t.title, t.name).toMatch(/\w/)
    expect(a.client.getServerVersion()?.version).toMatch(/^\d+\.\d+\.\d+/)
    await a.client.close()
  })

  it("holds for a guest (source assistant), emails them, and the guest confirms it on their page; the assistant never sees the link", async () => {
    const { offering, session } = await org.classWithSession({ name: "Held class", capacity: 4 }, 60)
    const a = await assistant()
    const email = `assist-${Date.now()}@example.com`
    const held = await a.call("hold_booking", {
      offering_id: offering.id,
      session_id: session.id,
      quantity: 2,
      customer: { name: "Ana", email }
    })
    expect(held.isError).toBe(false)
    expect(held.json).toMatchObject({ status: "held", quantity: 2, starts_at: session.starts_at })
    expect(JSON.stringify(held.json)).not.toMatch(/\/b\/|handle|page_url/)
    const [b] = ok(await org.call("GET", `/bookings?session_id=${session.id}`)).data
    expect(b).toMatchObject({ source: "assistant", status: "held", quantity: 2 })
    const handle = await handleFromMail(app, email)
    const [mail] = ok(await app.admin("GET", `/mail?to=${encodeURIComponent(email)}`)).data
    const until = formatWhen(new Date(b.expires_at), "Europe/Amsterdam", "en")
    expect(new Date(b.expires_at).getTime() - new Date(b.created_at).getTime()).toBe(30 * 60_000)
    expect(mail.text).toContain(
      `Confirm it (or pay) on your booking page within 30 minutes, or the place is let go. Held until: ${until}`
    )
    const g = guestApi(app, handle)
    expect(ok(await g.get()).actions).toMatchObject({ can_confirm: true, pay_url: null })
    const page = await (await fetch(`${app.url}/b/${handle}`)).text()
    expect(page).toContain(`<form method="post" action="/b/${handle}/confirm">`)
    // The guest presses "Confirm my booking" on their page.
    const pressed = await fetch(`${app.url}/b/${handle}/confirm`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: ""
    })
    expect(pressed.status).toBe(303)
    expect(pressed.headers.get("location")).toBe(`/b/${handle}?done=confirmed`)
    expect(ok(await org.get(b.id)).status).toBe("confirmed")
    expectError(await app.call(null, "POST", `/api/v1/guest/${handle}/confirm`), 409, "guest_cannot_confirm")
    await a.client.close()
  })

  it("a hold nobody confirms lapses and frees its places", async () => {
    const { offering, session } = await org.classWithSession({ name: "Lapsing", capacity: 1 }, 70)
    const a = await assistant()
    expect(
      (await a.call("hold_booking", { offering_id: offering.id, session_id: session.id, customer: guest("lapse") }))
        .isError
    ).toBe(false)
    const full = await a.call("hold_booking", {
      offering_id: offering.id,
      session_id: session.id,
      customer: guest("late")
    })
    expect(full).toMatchObject({ isError: true, json: { error: { code: "sold_out" } } })
    await app.advance(31 * 60)
    expect(
      (await a.call("hold_booking", { offering_id: offering.id, session_id: session.id, customer: guest("late") }))
        .isError
    ).toBe(false)
    await a.client.close()
  })

  it("answers 429 with Retry-After past the holds one guest email may keep", async () => {
    const { offering, session } = await org.classWithSession({ name: "Busy", capacity: 20 }, 80)
    const a = await assistant()
    const customer = { name: "Max", email: `many-${Date.now()}@example.com` }
    for (let i = 0; i < 3; i++)
      expect(
        (await a.call("hold_booking", { offering_id: offering.id, session_id: session.id, customer })).isError
      ).toBe(false)
    const res = await fetch(`${app.url}/api/mcp/book/surf-school`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name: "hold_booking", arguments: { offering_id: offering.id, session_id: session.id, customer } }
      })
    })
    expect(res.status).toBe(429)
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0)
    expect((await res.json()).error.code).toBe("rate_limited")
    await a.client.close()
  })

  it("answers 429 with Retry-After past the holds one client address may make in an hour", async () => {
    ok(await other.call("PATCH", "/org", { slug: "busy-address" }))
    const { offering, session } = await other.classWithSession({ name: "Popular", capacity: 50 }, 90)
    const a = await assistant("busy-address")
    for (let i = 0; i < 10; i++)
      expect(
        (
          await a.call("hold_booking", {
            offering_id: offering.id,
            session_id: session.id,
            customer: guest(`addr${i}`)
          })
        ).isError
      ).toBe(false)
    const res = await fetch(`${app.url}/api/mcp/book/busy-address`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: {
          name: "hold_booking",
          arguments: { offering_id: offering.id, session_id: session.id, customer: guest("addr11") }
        }
      })
    })
    expect(res.status).toBe(429)
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0)
    await a.client.close()
  })

  it("counts every hold of a JSON-RPC batch against the limits: every call counts against the address's 10 an hour, 3 live per email", async () => {
    const third = await bookingsOrg(app)
    ok(await third.call("PATCH", "/org", { slug: "batch-school" }))
    const { offering, session } = await third.classWithSession({ name: "Forty places", capacity: 40 }, 100)
    const batch = async (customers: Array<{ name: string; email: string }>) => {
      const res = await fetch(`${app.url}/api/mcp/book/batch-school`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-03-26"
        },
        body: JSON.stringify(
          customers.map((customer, i) => ({
            jsonrpc: "2.0",
            id: i + 1,
            method: "tools/call",
            params: { name: "hold_booking", arguments: { offering_id: offering.id, session_id: session.id, customer } }
          }))
        )
      })
      const replies = (await res.json()) as Array<{ result: { isError?: boolean; content: Array<{ text: string }> } }>
      return replies.map((r) => (r.result.isError === true ? JSON.parse(r.result.content[0].text).error.code : "held"))
    }
    const sameGuest = await batch(
      Array.from({ length: 5 }, () => ({ name: "Ida", email: `same-${Date.now()}@example.com` }))
    )
    expect(sameGuest.filter((r) => r === "held")).toHaveLength(3)
    expect(sameGuest.filter((r) => r === "rate_limited")).toHaveLength(2)
    const many = await batch(Array.from({ length: 40 }, (_, i) => guest(`batch${i}`)))
    // The five calls above used five of the address's ten: 40 more in one POST hold five places, not 40.
    expect(many.filter((r) => r === "held")).toHaveLength(5)
    expect(many.filter((r) => r === "rate_limited")).toHaveLength(35)
    const held = ok(await third.call("GET", `/bookings?session_id=${session.id}&limit=100`)).data
    expect(held).toHaveLength(8)
  })

  it("is 404 for a slug no org has, and a slug is unique, validated and can be cleared", async () => {
    const res = await fetch(`${app.url}/api/mcp/book/no-such-org`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
    })
    expect(res.status).toBe(404)
    expectError(await other.call("PATCH", "/org", { slug: "surf-school" }), 409, "slug_taken")
    expectError(await other.call("PATCH", "/org", { slug: "Bad Slug" }), 400, "invalid_slug")
    expect(ok(await other.call("PATCH", "/org", { slug: null })).slug).toBeNull()
  })
})
