import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startExpress } from "../../../examples/express.ts"
import { startNodeHttp } from "../../../examples/node-http.ts"
import { createEngine } from "../../../index.ts"

const ADMIN = "embedded-admin-token-0123456789"

/** What a platform team does first through the mounted engine: an org, an offering, the MCP tool list. */
const exercise = async (base: string) => {
  const health = await fetch(`${base}/booking/healthz`)
  expect(health.status).toBe(200)
  const created = await fetch(`${base}/booking/admin/v1/orgs`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Embedded", timezone: "Europe/Amsterdam", currency: "EUR" })
  })
  expect(created.status).toBe(201)
  const { api_key } = (await created.json()) as { api_key: { key: string } }
  const headers = { authorization: `Bearer ${api_key.key}`, "content-type": "application/json" }
  const offering = await fetch(`${base}/booking/api/v1/offerings`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: "Pottery", kind: "class" })
  })
  expect(offering.status).toBe(201)
  const listed = (await (await fetch(`${base}/booking/api/v1/offerings`, { headers })).json()) as {
    data: Array<{ name: string }>
  }
  expect(listed.data.map((o) => o.name)).toEqual(["Pottery"])
  const tools = await fetch(`${base}/booking/mcp`, {
    method: "POST",
    headers: { ...headers, accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
  })
  expect(tools.status).toBe(200)
  expect(await tools.text()).toContain("offerings_create")
  const unknown = await fetch(`${base}/booking/api/v1/nothing-here`, { headers })
  expect(unknown.status).toBe(404)
  expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("not_found")
}

describe("createEngine mounted in a host app (examples/)", () => {
  let express: Awaited<ReturnType<typeof startExpress>>
  let plain: Awaited<ReturnType<typeof startNodeHttp>>
  beforeAll(async () => {
    // The test run's own DATABASE_URL is not theirs: PGlite in memory.
    express = await startExpress({ port: 0, adminToken: ADMIN, env: false })
    plain = await startNodeHttp({ port: 0, adminToken: ADMIN, env: false })
  }, 180_000)
  afterAll(async () => {
    await express?.stop()
    await plain?.stop()
  })

  it("inside Express under /booking: the engine's routes work and the host's own routes stay the host's", async () => {
    await exercise(express.url)
    expect(await (await fetch(`${express.url}/`)).text()).toBe("the host app's own page")
  })

  it("inside a plain node:http server with prefix /booking: other paths go to the host's next()", async () => {
    await exercise(plain.url)
    const host = await fetch(`${plain.url}/elsewhere`)
    expect(await host.text()).toBe("the host's own answer")
    // /bookings is not under /booking.
    expect(await (await fetch(`${plain.url}/bookings`)).text()).toBe("the host's own answer")
  })

  it("serves /docs under the prefix: the page's bundle and document resolve to the prefix's, not the host's root", async () => {
    const page = `${plain.url}/booking/docs`
    const html = await (await fetch(page)).text()
    const script = /<script src="([^"]+)"><\/script>/.exec(html)?.[1]
    const document = /url: "([^"]+)"/.exec(html)?.[1]
    expect(script).toBeDefined()
    expect(document).toBeDefined()
    const bundle = await fetch(new URL(script!, page))
    expect(new URL(script!, page).pathname).toBe("/booking/docs/scalar.js")
    expect(bundle.status).toBe(200)
    expect(await bundle.text()).toContain("createApiReference")
    expect(new URL(document!, page).pathname).toBe("/booking/api/v1/openapi.json")
    const openapi = await fetch(new URL(document!, page))
    expect(openapi.status).toBe(200)
    expect(((await openapi.json()) as { openapi: string }).openapi).toMatch(/^3\.1/)
  })
})

describe("createEngine options", () => {
  it("refuses what a person could get wrong, each with one clear message", async () => {
    await expect(createEngine({ env: false, publicUrl: "example.com" })).rejects.toThrow(/publicUrl must be/)
    await expect(createEngine({ env: false, publicUrl: "http://x", databaseUrl: "mysql://x" })).rejects.toThrow(
      /databaseUrl must be a postgres/
    )
    await expect(createEngine({ env: false, publicUrl: "http://x", adminToken: "short" })).rejects.toThrow(
      /adminToken must be at least 24/
    )
    await expect(
      createEngine({ env: false, publicUrl: "http://x", adminToken: "change-me-to-a-long-random-token" })
    ).rejects.toThrow(/adminToken is a placeholder from the documentation/)
    await expect(createEngine({ env: false, publicUrl: "http://x", prefix: "booking/" })).rejects.toThrow(
      /prefix must look like/
    )
  })

  it("sends guest mail through a sender of your own, and stops cleanly", async () => {
    const sent: Array<{ to: string; subject: string }> = []
    const engine = await createEngine({
      env: false,
      publicUrl: "http://127.0.0.1/booking",
      adminToken: ADMIN,
      clock: "test",
      logLevel: "none",
      sendMail: async (m) => void sent.push({ to: m.to, subject: m.subject })
    })
    const { createServer } = await import("node:http")
    const server = createServer((req, res) => engine.handler(req, res))
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
    try {
      const admin = (method: string, path: string, body?: unknown) =>
        fetch(`${base}/admin/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
          ...(body ? { body: JSON.stringify(body) } : {})
        })
      const { api_key } = (await (
        await admin("POST", "/orgs", { name: "Mail", timezone: "UTC", currency: "EUR" })
      ).json()) as { api_key: { key: string } }
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${base}/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${api_key.key}`, "content-type": "application/json" },
          ...(body ? { body: JSON.stringify(body) } : {})
        })
      const offering = (await (
        await call("POST", "/offerings", { name: "Yoga", kind: "class", capacity: 5 })
      ).json()) as { id: string }
      const now = ((await (await admin("GET", "/clock")).json()) as { now: string }).now
      const startsAt = new Date(Date.parse(now) + 3 * 86_400_000).toISOString()
      const session = (await (
        await call("POST", "/sessions", { offering_id: offering.id, starts_at: startsAt })
      ).json()) as { data: Array<{ id: string }> }
      expect(
        (
          await call("POST", "/bookings", {
            offering_id: offering.id,
            session_id: session.data[0].id,
            customer: { email: "ana@example.com", name: "Ana" }
          })
        ).status
      ).toBe(201)
      for (let i = 0; i < 30 && sent.length === 0; i++) await admin("POST", "/clock", { advance_seconds: 1 })
      expect(sent.map((m) => m.to)).toEqual(["ana@example.com"])
    } finally {
      await new Promise((r) => server.close(r))
      await engine.stop()
    }
  })
})
