import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, guest, ok, startPinned } from "../bookings/helpers.ts"

let app: TestApp
let org: BookingsOrg
let other: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
  other = await bookingsOrg(app)
})
afterAll(() => app.close())

interface Sse {
  id: number
  event: string
  data: { id: number; type: string; data: unknown }
}

/** An SSE client over fetch: collects events as they arrive. */
const open = async (key: string, query = "", headers: Record<string, string> = {}) => {
  const ac = new AbortController()
  const res = await fetch(`${app.url}/api/v1/events/stream${query}`, {
    headers: { authorization: `Bearer ${key}`, ...headers },
    signal: ac.signal
  })
  const events: Sse[] = []
  let buffer = ""
  const reading = (async () => {
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        buffer += decoder.decode(value, { stream: true })
        let cut: number
        while ((cut = buffer.indexOf("\n\n")) !== -1) {
          const block = buffer.slice(0, cut)
          buffer = buffer.slice(cut + 2)
          const field = (name: string) =>
            block
              .split("\n")
              .find((l) => l.startsWith(`${name}: `))
              ?.slice(name.length + 2)
          if (field("data") !== undefined)
            events.push({ id: Number(field("id")), event: field("event")!, data: JSON.parse(field("data")!) })
        }
      }
    } catch {
      /* aborted */
    }
  })()
  const until = async (n: number) => {
    for (let i = 0; i < 100 && events.length < n; i++) {
      await app.advance(1)
      await new Promise((r) => setTimeout(r, 50))
    }
    return events
  }
  return { res, events, until, close: async () => (ac.abort(), await reading) }
}

describe("GET /api/v1/events/stream (Server-Sent Events)", () => {
  it("streams the org's events as they settle, in id order, and resumes after Last-Event-ID without gaps or repeats", async () => {
    const start = ok(await org.call("GET", "/events?order=desc&limit=1")).data[0]?.id ?? 0
    const s = await open(org.key, `?after=${start}`)
    expect(s.res.status).toBe(200)
    expect(s.res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8")
    const { offering, session } = await org.classWithSession({ name: "Streamed", capacity: 5 })
    await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("sse1") })
    await other.classWithSession({ name: "Elsewhere" })
    const seen = await s.until(4)
    await s.close()
    expect(seen.map((e) => e.event)).toEqual(
      expect.arrayContaining(["offering.created", "session.created", "booking.confirmed"])
    )
    expect(seen.every((e) => e.id === e.data.id && e.event === e.data.type)).toBe(true)
    expect(seen.map((e) => e.id)).toEqual([...seen.map((e) => e.id)].sort((a, b) => a - b))
    const feed = ok(await org.call("GET", `/events?after=${start}`)).data.map((e: { id: number }) => e.id)
    expect(seen.map((e) => e.id)).toEqual(feed.slice(0, seen.length))
    expect(JSON.stringify(seen)).not.toContain("Elsewhere")

    const last = seen[seen.length - 1].id
    const resumed = await open(org.key, "", { "last-event-id": String(last) })
    await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("sse2") })
    const more = await resumed.until(1)
    await resumed.close()
    expect(more.length).toBeGreaterThanOrEqual(1)
    expect(more.every((e) => e.id > last)).toBe(true)
    expect(more.find((e) => e.event === "booking.confirmed")).toBeDefined()
  })

  it("filters by type like events.list", async () => {
    const start = ok(await org.call("GET", "/events?order=desc&limit=1")).data[0].id
    const s = await open(org.key, `?type=booking.confirmed&after=${start}`)
    const { offering, session } = await org.classWithSession({ name: "Filtered", capacity: 5 })
    await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("sse3") })
    const seen = await s.until(1)
    await s.close()
    expect(seen.map((e) => e.event)).toEqual(["booking.confirmed"])
  })

  it("refuses a missing or publishable key (401) and a bad type or Last-Event-ID (400)", async () => {
    expect((await fetch(`${app.url}/api/v1/events/stream`)).status).toBe(401)
    const pk = ok(await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "publishable" }), 201).key
    expect(
      (await fetch(`${app.url}/api/v1/events/stream`, { headers: { authorization: `Bearer ${pk}` } })).status
    ).toBe(401)
    const bad = await fetch(`${app.url}/api/v1/events/stream?type=nope`, {
      headers: { authorization: `Bearer ${org.key}` }
    })
    expect(bad.status).toBe(400)
    expect((await bad.json()).error.code).toBe("invalid_query")
    expect(
      (
        await fetch(`${app.url}/api/v1/events/stream`, {
          headers: { authorization: `Bearer ${org.key}`, "last-event-id": "x1" }
        })
      ).status
    ).toBe(400)
  })

  it("is in the OpenAPI document as events.stream: its parameters, its frames, and exactly the codes it answers", async () => {
    const doc = (await app.call(null, "GET", "/api/v1/openapi.json")).body
    const op = doc.paths["/api/v1/events/stream"].get
    expect(op.operationId).toBe("events.stream")
    expect(op["x-required-role"]).toBe("staff")
    expect(op.security).toEqual([{ bearer: [] }])
    expect(op.parameters.map((p: any) => `${p.in}:${p.name}`)).toEqual([
      "query:type",
      "query:after",
      "header:Last-Event-ID"
    ])
    expect(Object.keys(op.responses["200"].content)).toEqual(["text/event-stream"])
    expect(op.description).toMatch(/id: <event id>.*event: <type>.*data: /)
    expect(op["x-error-codes"]).toEqual({
      "400": ["invalid_query"],
      "401": ["unauthorized"],
      "403": ["forbidden"],
      "429": ["rate_limited", "too_many_streams"]
    })
    const answered = await Promise.all(
      [
        fetch(`${app.url}/api/v1/events/stream`),
        fetch(`${app.url}/api/v1/events/stream?after=x`, { headers: { authorization: `Bearer ${org.key}` } })
      ].map(async (r) => {
        const res = await r
        return [String(res.status), ((await res.json()) as { error: { code: string } }).error.code]
      })
    )
    for (const [status, code] of answered) expect(op["x-error-codes"][status]).toContain(code)
  })
})
