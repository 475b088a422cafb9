import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { waitFor } from "../../support/receiver.ts"

// An OTLP/HTTP collector stand-in: records the spans posted to /v1/traces (JSON).
interface Span {
  name: string
  traceId: string
  spanId: string
  parentSpanId?: string
  kind: number
}
const spans: Span[] = []
let collector: Server
let app: TestApp
beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = ""
    req.on("data", (c) => (body += c))
    req.on("end", () => {
      if (req.url === "/v1/traces") {
        const doc = JSON.parse(body)
        for (const rs of doc.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans.push(...ss.spans)
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((r) => collector.listen(0, "127.0.0.1", r))
  app = await startApp({ otelEndpoint: `http://127.0.0.1:${(collector.address() as AddressInfo).port}` })
})
afterAll(async () => {
  await app.close()
  await new Promise((r) => collector.close(r))
})

describe("OpenTelemetry traces over OTLP", () => {
  it("exports one server span per operation, with the service's span and its SQL beneath in the same trace", async () => {
    const org = await app.newOrg()
    expect((await app.call(org.key, "POST", "/api/v1/offerings", { name: "Traced", kind: "class" })).status).toBe(201)
    await waitFor(() => spans.some((s) => s.name === "offerings.create"), 30_000, "the offerings.create span")
    const root = spans.find((s) => s.name === "offerings.create")!
    expect(root.kind).toBe(2) // SERVER
    const inTrace = spans.filter((s) => s.traceId === root.traceId)
    expect(inTrace.some((s) => s.parentSpanId === root.spanId)).toBe(true)
    expect(inTrace.some((s) => /sql|execute/i.test(s.name))).toBe(true)
  })

  it("with the tracer on, a booking's own spans are made: the booking under its request, its mail's delivery and sending", async () => {
    const org = await app.newOrg()
    const { body: o } = await app.call(org.key, "POST", "/api/v1/offerings", { name: "Traced class", kind: "class" })
    const now = new Date((await app.admin("GET", "/clock")).body.now)
    const startsAt = new Date(Math.ceil(now.getTime() / 3600000) * 3600000 + 48 * 3600000).toISOString()
    const { body: s } = await app.call(org.key, "POST", "/api/v1/sessions", { offering_id: o.id, starts_at: startsAt })
    const booked = await app.call(org.key, "POST", "/api/v1/bookings", {
      offering_id: o.id,
      session_id: s.data[0].id,
      customer: { email: "traced@example.com", name: "T" }
    })
    expect(booked.status).toBe(201)
    await app.advance(1) // the test clock: the mail sender runs when time moves
    await waitFor(
      () => spans.some((x) => x.name === "Bookings.create") && spans.some((x) => x.name === "Mailer.send"),
      30_000,
      "the booking's and its mail's spans"
    )
    const own = spans.find((x) => x.name === "Bookings.create")!
    const parent = spans.find((x) => x.spanId === own.parentSpanId)
    expect(parent?.traceId).toBe(own.traceId)
    const send = spans.find((x) => x.name === "Mailer.send")!
    expect(spans.find((x) => x.spanId === send.parentSpanId)?.name).toBe("Mail.deliver")
  })
})
