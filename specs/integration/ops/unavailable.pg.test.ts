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
        method, ...timed(30_000),
        headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json", ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    const offering = await (await call("POST", "/offerings", { name: "Yoga", kind: "class", capacity: 5 })).json() as { id: string }
    const now = (await app.admin("GET", "/clock")).body.now as string
    const session = await (await call("POST", "/sessions", { offering_id: offering.id, starts_at: new Date(Date.parse(now) + 3 * 86_400_000).toISOString() })).json() as { data: Array<{ id: string }> }
    const booking = { offering_id: offering.id, session_id: session.data[0].id, customer: { email: "ana@example.com", name: "Ana" } }

    proxy.cut()
    const statuses: Array<string> = []
    for (let i = 0; i < 4; i++) {
      const list = await call("GET", "/offerings")
      statuses.push(`${list.status} ${list.headers.get("retry-after")} ${((await list.json()) as { error?: { code: string } }).error?.code}`)
    }
    expect(new Set(statuses)).toEqual(new Set(["503 5 unavailable"]))
    // The guest's pages and the photo route answer the same way.
    for (const path of [`/b/${"h".repeat(24)}`, `/w/${"w".repeat(24)}`, `/photos/${offering.id}.jpg`]) {
      const page = await fetch(`${app.url}${path}`, timed(30_000))
      expect({ path, status: page.status, retry: page.headers.get("retry-after") }).toEqual({ path, status: 503, retry: "5" })
    }
    const lost = await call("POST", "/bookings", booking, { "idempotency-key": "outage-1" })
    expect(lost.status).toBe(503)
    expect(lost.headers.get("retry-after")).toBe("5")
    const ready = await fetch(`${app.url}/readyz`, timed(30_000))
    expect(ready.status).toBe(503)

    proxy.restore()
    await waitFor(async () => (await fetch(`${app.url}/readyz`, timed(30_000))).status === 200, 60_000, "readyz back to 200")
    let made: Response | undefined
    await waitFor(async () => {
      made = await call("POST", "/bookings", booking, { "idempotency-key": "outage-1" })
      return made.status !== 503
    }, 60_000, "bookings back")
    expect(made!.status).toBe(201)
    const first = (await made!.json()) as { id: string }
    const again = await call("POST", "/bookings", booking, { "idempotency-key": "outage-1" })
    expect(again.status).toBe(201)
    expect(((await again.json()) as { id: string }).id).toBe(first.id)
    const rows = await sql(app, (s) => s<{ n: number }>`select count(*)::int as n from bookings where offering_id = ${offering.id}`)
    expect(rows[0].n).toBe(1)
  })
})
