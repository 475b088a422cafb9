import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { waitFor } from "../../support/receiver.ts"

// An OTLP/HTTP collector stand-in: records the spans posted to /v1/traces (JSON).
interface Span { name: string; traceId: string; spanId: string; parentSpanId?: string; kind: number }
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
})
