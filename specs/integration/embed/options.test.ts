import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createEngine, type Engine } from "../../../index.ts"
import { waitFor } from "../../support/receiver.ts"
import { ACCOUNT_SID, AUTH_TOKEN, startTwilioServer } from "../texts/twilioServer.ts"

// createEngine configured as the server is: Twilio and tracing options reach the same adapters as TWILIO_* and
// OTEL_* do, against a local Twilio stand-in and a local OTLP/HTTP receiver.
const ADMIN = "embedded-admin-token-0123456789"
const PUBLIC_URL = "http://127.0.0.1/booking"
const spans: Array<{ name: string }> = []
const services = new Set<string>()
let collector: Server
let twilio: Awaited<ReturnType<typeof startTwilioServer>>
let engine: Engine
let host: Server
let base: string

beforeAll(async () => {
  twilio = await startTwilioServer()
  collector = createServer((req, res) => {
    let body = ""
    req.on("data", (c) => (body += c))
    req.on("end", () => {
      if (req.url === "/v1/traces") {
        for (const rs of JSON.parse(body).resourceSpans ?? []) {
          for (const a of rs.resource?.attributes ?? []) if (a.key === "service.name") services.add(a.value.stringValue)
          for (const ss of rs.scopeSpans ?? []) spans.push(...ss.spans)
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((r) => collector.listen(0, "127.0.0.1", r))
  engine = await createEngine({
    env: false,
    publicUrl: PUBLIC_URL,
    adminToken: ADMIN,
    clock: "test",
    logLevel: "none",
    rateLimit: 0,
    twilio: { accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, from: "+1 415 555 2671", apiUrl: twilio.url },
    tracing: { endpoint: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`, serviceName: "host-app" }
  })
  host = createServer((req, res) => engine.handler(req, res))
  await new Promise<void>((r) => host.listen(0, "127.0.0.1", r))
  base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`
}, 180_000)
afterAll(async () => {
  if (host) await new Promise((r) => host.close(r))
  await engine?.stop()
  await twilio?.close()
  if (collector) await new Promise((r) => collector.close(r))
})

/** A JSON call; T is the shape the caller reads of the answer (the contract's own tests hold the full shapes). */
const json = async <T = unknown>(method: string, path: string, token: string, body?: unknown) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: res.status, body: (await res.json()) as T }
}

describe("createEngine with every option", () => {
  it("texts a guest through Twilio and exports the request's spans over OTLP", async () => {
    const org = await json<{ api_key: { key: string } }>("POST", "/admin/v1/orgs", ADMIN, {
      name: "Texts",
      timezone: "UTC",
      currency: "EUR"
    })
    expect(org.status).toBe(201)
    const key = org.body.api_key.key
    const offering = await json<{ id: string }>("POST", "/api/v1/offerings", key, {
      name: "Surf",
      kind: "class",
      capacity: 4
    })
    const now = (await json<{ now: string }>("GET", "/admin/v1/clock", ADMIN)).body.now
    const startsAt = new Date(Date.parse(now) + 3 * 86_400_000).toISOString()
    const session = await json<{ data: Array<{ id: string }> }>("POST", "/api/v1/sessions", key, {
      offering_id: offering.body.id,
      starts_at: startsAt
    })
    const booking = await json<{ id: string }>("POST", "/api/v1/bookings", key, {
      offering_id: offering.body.id,
      session_id: session.body.data[0].id,
      customer: { email: "ana@example.com", name: "Ana", phone: "+31 6 2000 0101" }
    })
    expect(booking.status).toBe(201)
    const message = await json("POST", "/api/v1/messages", key, {
      booking_id: booking.body.id,
      body: "Waves are good today.",
      channel: "text"
    })
    expect(message.status).toBe(201)
    for (let i = 0; i < 30 && !twilio.calls.some((c) => c.form.To === "+31620000101"); i++)
      await json("POST", "/admin/v1/clock", ADMIN, { advance_seconds: 1 })
    const call = twilio.calls.find((c) => c.form.To === "+31620000101")
    expect(call?.path).toBe(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`)
    expect(call?.form).toMatchObject({ From: "+14155552671", Body: "Waves are good today." })
    expect(call?.form.StatusCallback).toBe(`${PUBLIC_URL}/texts/twilio/status`)
    // The request's server span, and the text's own delivery to the SDK, under the host's service name.
    await waitFor(() => spans.some((s) => s.name === "Texter.send"), 30_000, "the text's Texter.send span")
    expect(spans.some((s) => s.name === "messages.send")).toBe(true)
    expect(spans.some((s) => s.name === "bookings.create")).toBe(true)
    expect([...services]).toEqual(["host-app"])
  })
})

describe("createEngine refusals", () => {
  it("are the schema's one-line messages, naming the option given (or the variable read)", async () => {
    const refused = (options: Parameters<typeof createEngine>[0]) =>
      createEngine(options).then(
        () => "started",
        (e: Error) => e.message
      )
    const cases: Array<[Parameters<typeof createEngine>[0], string]> = [
      [{ env: false }, "createEngine: publicUrl is needed"],
      [{ env: false, publicUrl: "example.com" }, "createEngine: publicUrl must be an http(s) URL"],
      [
        { env: false, publicUrl: "http://x", maxInflight: 0 },
        "createEngine: maxInflight must be a number of requests from 1 to 100000"
      ],
      [
        { env: false, publicUrl: "http://x", twilio: { accountSid: "nope", authToken: "t", from: "+14155552671" } },
        "createEngine: twilio.accountSid must be the account's SID"
      ],
      [
        { env: false, publicUrl: "http://x", tracing: { endpoint: "collector:4318" } },
        "createEngine: tracing.endpoint must be an http(s) URL"
      ],
      [
        { env: { PUBLIC_URL: "http://x", DB_POOL_SIZE: "many" } },
        'createEngine: DB_POOL_SIZE must be a number of connections from 1 to 500, not "many"'
      ],
      [{ env: false, publicUrl: "http://x", prefix: "booking/" }, "createEngine: prefix must look like /booking"],
      [{ env: false, publicUrl: "http://x", maxInFlight: 8 } as never, "createEngine: maxInFlight is not an option"]
    ]
    for (const [options, says] of cases) {
      const message = await refused(options)
      expect({ options, message }).toEqual({ options, message: expect.stringContaining(says) })
      expect(message).not.toMatch(/\n|Invalid data/)
    }
  })
})
