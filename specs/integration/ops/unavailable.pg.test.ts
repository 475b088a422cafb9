import { createConnection, createServer, type Server, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PostgresLive } from "../../../adapters/db/postgres.ts"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { freshPostgresDatabase } from "../../support/database.ts"
import { waitFor } from "../../support/receiver.ts"

/** A TCP proxy on loopback in front of Postgres that can cut every connection and refuse new ones, then come back. */
const startProxy = async (target: { host: string; port: number }) => {
  const sockets = new Set<Socket>()
  let down = false
  const server: Server = createServer((client) => {
    if (down) return client.destroy()
    const upstream = createConnection(target)
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on("close", () => sockets.delete(s))
      s.on("error", () => s.destroy())
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  return {
    port: (server.address() as { port: number }).port,
    cut: () => {
      down = true
      for (const s of sockets) s.destroy()
    },
    restore: () => {
      down = false
    },
    close: () => new Promise<void>((r) => server.close(() => r()))
  }
}

let app: TestApp
let proxy: Awaited<ReturnType<typeof startProxy>>
let db: Awaited<ReturnType<typeof freshPostgresDatabase>>
beforeAll(async () => {
  db = await freshPostgresDatabase()
  const target = new URL(db.url)
  proxy = await startProxy({ host: target.hostname, port: Number(target.port || 5432) })
  const through = new URL(db.url)
  through.port = String(proxy.port)
  app = await startApp({}, { databaseLayer: PostgresLive(through.toString(), 5) })
})
afterAll(async () => {
  await app?.close()
  await proxy?.close()
  await db?.drop()
})

const timed = (ms: number) => ({ signal: AbortSignal.timeout(ms) })

describe("the database unreachable", () => {
  it("answers 503 unavailable with Retry-After (never 500, never hanging), readyz 503, and recovers by itself; a retried booking is made once", async () => {
    const org = await app.newOrg()
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(`${app.url}/api/v1${path}`, {
        method,
        ...timed(30_000),
        headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json", ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    const offering = (await (
      await call("POST", "/offerings", { name: "Yoga", kind: "class", capacity: 5 })
    ).json()) as { id: string }
    const now = (await app.admin("GET", "/clock")).body.now as string
    const session = (await (
      await call("POST", "/sessions", {
        offering_id: offering.id,
        starts_at: new Date(Date.parse(now) + 3 * 86_400_000).toISOString()
      })
    ).json()) as { data: Array<{ id: string }> }
    const booking = {
      offering_id: offering.id,
      session_id: session.data[0].id,
      customer: { email: "ana@example.com", name: "Ana" }
    }

    proxy.cut()
    const statuses: Array<string> = []
    for (let i = 0; i < 4; i++) {
      const list = await call("GET", "/offerings")
      statuses.push(
        `${list.status} ${list.headers.get("retry-after")} ${((await list.json()) as { error?: { code: string } }).error?.code}`
      )
    }
    expect(new Set(statuses)).toEqual(new Set(["503 5 unavailable"]))
    // The guest's pages and the photo route answer the same way.
    for (const path of [`/b/${"h".repeat(24)}`, `/w/${"w".repeat(24)}`, `/photos/${offering.id}.jpg`]) {
      const page = await fetch(`${app.url}${path}`, timed(30_000))
      expect({ path, status: page.status, retry: page.headers.get("retry-after") }).toEqual({
        path,
        status: 503,
        retry: "5"
      })
    }
    const lost = await call("POST", "/bookings", booking, { "idempotency-key": "outage-1" })
    expect(lost.status).toBe(503)
    expect(lost.headers.get("retry-after")).toBe("5")
    const ready = await fetch(`${app.url}/readyz`, timed(30_000))
    expect(ready.status).toBe(503)

    proxy.restore()
    await waitFor(
      async () => (await fetch(`${app.url}/readyz`, timed(30_000))).status === 200,
      60_000,
      "readyz back to 200"
    )
    let made: Response | undefined
    await waitFor(
      async () => {
        made = await call("POST", "/bookings", booking, { "idempotency-key": "outage-1" })
        return made.status !== 503
      },
      60_000,
      "bookings back"
    )
    expect(made!.status).toBe(201)
    const first = (await made!.json()) as { id: string }
    const again = await call("POST", "/bookings", booking, { "idempotency-key": "outage-1" })
    expect(again.status).toBe(201)
    expect(((await again.json()) as { id: string }).id).toBe(first.id)
    const rows = await sql(
      app,
      (s) => s<{ n: number }>`select count(*)::int as n from bookings where offering_id = ${offering.id}`
    )
    expect(rows[0].n).toBe(1)
  })
})

describe("the database unreachable, on OCTO and OAuth", () => {
  it("answers 503 with Retry-After in each surface's own error shape (never 500), and recovers by itself", async () => {
    const org = await app.newOrg()
    const resellerKey = async () =>
      (await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "reseller" })).body.key as string
    const warm = await resellerKey()
    // Never used before the cut: finding it needs the database (the other may still be in the key cache).
    const cold = await resellerKey()
    const products = (key: string) =>
      fetch(`${app.url}/api/octo/products`, { headers: { authorization: `Bearer ${key}` }, ...timed(30_000) })
    expect((await products(warm)).status).toBe(200)
    const form = (path: string, fields: Record<string, string>) =>
      fetch(`${app.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
        ...timed(30_000)
      })
    const register = () =>
      fetch(`${app.url}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_name: "Outage", redirect_uris: ["http://127.0.0.1:9/cb"] }),
        ...timed(30_000)
      })
    const client = (await (await register()).json()) as { client_id: string }

    proxy.cut()
    try {
      const seen: Array<unknown> = []
      for (const key of [warm, cold]) {
        const res = await products(key)
        seen.push({ status: res.status, retry: res.headers.get("retry-after"), body: await res.json() })
      }
      for (const res of [
        await register(),
        await form("/oauth/token", {
          grant_type: "authorization_code",
          client_id: client.client_id,
          code: "mcp_ac_x",
          code_verifier: "v".repeat(43),
          redirect_uri: "http://127.0.0.1:9/cb"
        }),
        await form("/oauth/token", {
          grant_type: "refresh_token",
          client_id: client.client_id,
          refresh_token: "mcp_rt_x"
        }),
        await form("/oauth/revoke", { client_id: client.client_id, token: "mcp_at_x" })
      ])
        seen.push({ status: res.status, retry: res.headers.get("retry-after"), body: await res.json() })
      const octo = {
        status: 503,
        retry: "5",
        body: { error: "INTERNAL_SERVER_ERROR", errorMessage: expect.stringMatching(/database/) }
      }
      const oauth = {
        status: 503,
        retry: "5",
        body: { error: "temporarily_unavailable", error_description: expect.stringMatching(/database/) }
      }
      expect(seen).toEqual([octo, octo, oauth, oauth, oauth, oauth])
      const authorize = await fetch(
        `${app.url}/oauth/authorize?response_type=code&client_id=${client.client_id}`,
        timed(30_000)
      )
      expect([authorize.status, authorize.headers.get("retry-after"), authorize.headers.get("content-type")]).toEqual([
        503,
        "5",
        "text/html; charset=utf-8"
      ])
      expect(await authorize.text()).toContain("Try again")
    } finally {
      proxy.restore()
    }
    await waitFor(async () => (await products(cold)).status === 200, 60_000, "OCTO back")
    await waitFor(async () => (await register()).status === 201, 60_000, "OAuth back")
  })
})
