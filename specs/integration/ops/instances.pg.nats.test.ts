import { type ChildProcess, spawn } from "node:child_process"
import { randomInt, randomUUID } from "node:crypto"
import { createServer } from "node:net"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshPostgresDatabase } from "../../support/database.ts"
import { natsUrl, readStream } from "../../support/nats.ts"
import { type Receiver, startReceiver, waitFor } from "../../support/receiver.ts"

// Three engine processes over one Postgres database and one NATS, requests spread across them, one killed with -9.
const ADMIN = "instances-admin-token-0123456789"
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port
      s.close(() => resolve(p))
    })
  })

interface Instance { readonly url: string; readonly child: ChildProcess; log: string }
let db: { url: string; drop: () => Promise<unknown> }
const instances: Instance[] = []
let receiver: Receiver

const start = async (): Promise<Instance> => {
  const port = await freePort()
  const child = spawn(process.execPath, ["--import", "tsx", "main.ts"], {
    env: {
      ...process.env, PORT: String(port), DATABASE_URL: db.url, NATS_URL: natsUrl, ADMIN_TOKEN: ADMIN, RATE_LIMIT: "0", RATE_LIMIT_ANONYMOUS: "0",
      WEBHOOK_ALLOW_INSECURE: "1", LOG_LEVEL: "warn", WEATHER_URL: "off", GAUGE_URL: "off", DB_POOL_SIZE: "10"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const inst: Instance = { url: `http://127.0.0.1:${port}`, child, log: "" }
  child.stdout!.on("data", (d) => (inst.log += d))
  child.stderr!.on("data", (d) => (inst.log += d))
  await waitFor(async () => (await fetch(`${inst.url}/readyz`).catch(() => undefined))?.status === 200, 120_000, `instance on ${port} ready: ${inst.log.slice(-500)}`)
  instances.push(inst)
  return inst
}

const call = async (inst: Instance, key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${inst.url}${path}`, {
    method, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers }, body: body === undefined ? undefined : JSON.stringify(body)
  })
  return { status: res.status, body: await res.json().catch(() => null) as any }
}

beforeAll(async () => {
  db = await freshPostgresDatabase()
  // Every test database counts event ids from 1, and the shared EVENTS stream dedupes on the id: start high.
  const c = new pg.Client({ connectionString: db.url })
  await c.connect()
  await c.query(`select setval('events_id_seq', ${randomInt(2 ** 40) * 1000})`)
  await c.end()
  receiver = await startReceiver()
  // The first instance migrates nothing (the template is migrated); all three start together.
  await Promise.all([start(), start(), start()])
}, 300_000)
afterAll(async () => {
  for (const i of instances) i.child.kill("SIGKILL")
  await receiver?.close()
  await db?.drop()
})

describe("three instances over one Postgres and one NATS", () => {
  it("never oversell, create each idempotent request once, deliver every event once in the feed, on JetStream and to webhooks, and survive kill -9 of one", async () => {
    const [a, b, c] = instances
    const org = (await call(a, ADMIN, "POST", "/admin/v1/orgs", { name: "Many", timezone: "UTC", currency: "EUR", plan: "scale" })).body
    const key: string = org.api_key.key
    const hook = await call(b, key, "POST", "/api/v1/webhooks", { url: receiver.url, events: ["booking.confirmed"] })
    expect(hook.status).toBe(201)
    const hot = (await call(c, key, "POST", "/api/v1/offerings", { name: "Hot", kind: "class", capacity: 25 })).body
    const startsAt = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 13) + ":00:00.000Z"
    const hotSession = (await call(a, key, "POST", "/api/v1/sessions", { offering_id: hot.id, starts_at: startsAt })).body.data[0]

    // Hot: 120 guests for 25 seats, spread over the three instances at once.
    const wave = await Promise.all(Array.from({ length: 120 }, (_, i) =>
      call(instances[i % 3], key, "POST", "/api/v1/bookings", { offering_id: hot.id, session_id: hotSession.id, customer: { email: `hot${i}@example.com`, name: `Hot ${i}` } })))
    const statuses = wave.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(25)
    expect(statuses.filter((s) => s !== 201 && s !== 409)).toEqual([])
    expect(wave.filter((r) => r.status === 409).every((r) => r.body.error.code === "sold_out")).toBe(true)

    // The same Idempotency-Key on two instances at once: one booking.
    const spread = (await call(b, key, "POST", "/api/v1/offerings", { name: "Spread", kind: "class", capacity: 1000 })).body
    const spreadSession = (await call(b, key, "POST", "/api/v1/sessions", { offering_id: spread.id, starts_at: startsAt })).body.data[0]
    const body = { offering_id: spread.id, session_id: spreadSession.id, customer: { email: "twice@example.com", name: "Twice" } }
    const twice = await Promise.all([a, b, c].map((i) => call(i, key, "POST", "/api/v1/bookings", body, { "idempotency-key": "same-key-1" })))
    expect(new Set(twice.filter((r) => r.status === 201).map((r) => r.body.id)).size).toBe(1)

    // kill -9 of one instance while requests run; those that got no answer are retried on another with their key.
    const keys = Array.from({ length: 60 }, () => randomUUID())
    const book = (i: Instance, n: number) =>
      call(i, key, "POST", "/api/v1/bookings", { offering_id: spread.id, session_id: spreadSession.id, customer: { email: `k${n}@example.com`, name: `K ${n}` } }, { "idempotency-key": keys[n] })
    const running = keys.map((_, n) => book(instances[n % 3], n).catch(() => undefined))
    await new Promise((r) => setTimeout(r, 50))
    a.child.kill("SIGKILL")
    const first = await Promise.all(running)
    console.log(`kill -9 left ${first.filter((r) => r === undefined).length} of 20 requests to the killed instance unanswered`)
    const retried = await Promise.all(first.map((r, n) => (r === undefined || r.status >= 500 ? book(n % 2 === 0 ? b : c, n) : Promise.resolve(r))))
    expect(retried.map((r) => r.status).filter((s) => s !== 201 && s !== 200)).toEqual([])

    // Every 2xx booking is there, once; places add up.
    const list = async (sessionId: string) => (await call(c, key, "GET", `/api/v1/bookings?session_id=${sessionId}&limit=500`)).body.data as Array<{ id: string; status: string }>
    const hotBooked = await list(hotSession.id)
    expect(hotBooked.map((x) => x.id).sort()).toEqual(wave.filter((r) => r.status === 201).map((r) => r.body.id).sort())
    const spreadBooked = await list(spreadSession.id)
    expect(spreadBooked).toHaveLength(61)
    expect(new Set(spreadBooked.map((x) => x.id))).toEqual(new Set([...twice.filter((r) => r.status === 201).map((r) => r.body.id), ...retried.map((r) => r.body.id)]))
    const sessions = (await call(b, key, "GET", `/api/v1/sessions?offering_id=${spread.id}`)).body.data
    expect(sessions[0].booked).toBe(61)

    // Every event once in the feed, in order; every booking's confirmation there once.
    const feed: Array<{ id: number; type: string; data: { id?: string } }> = []
    await waitFor(async () => {
      feed.length = 0
      let after = 0
      for (;;) {
        const page = (await call(b, key, "GET", `/api/v1/events?after=${after}&limit=200`)).body
        feed.push(...page.data)
        if (page.data.length < 200) break
        after = page.next_after
      }
      return feed.filter((e) => e.type === "booking.confirmed").length === 86
    }, 60_000, "every confirmation in the feed")
    expect(new Set(feed.map((e) => e.id)).size).toBe(feed.length)
    expect(feed.map((e) => e.id)).toEqual([...feed.map((e) => e.id)].sort((x, y) => x - y))

    // ... on JetStream, once each, and at each webhook endpoint at least once (the relay and dispatcher of the killed
    // instance, if it led them, are taken over).
    await waitFor(async () => {
      const stored = await readStream(natsUrl, `events.${org.org.id}.>`)
      return feed.every((e) => stored.some((s) => s.event.id === e.id))
    }, 90_000, "every event on JetStream")
    const stored = await readStream(natsUrl, `events.${org.org.id}.>`)
    expect(new Set(stored.map((s) => s.event.id)).size).toBe(stored.length)
    const confirmations = feed.filter((e) => e.type === "booking.confirmed").map((e) => e.id)
    await waitFor(() => confirmations.every((id) => receiver.ids().includes(id)), 90_000, "every confirmation at the webhook endpoint")
  }, 600_000)
})
