import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshPostgresDatabase } from "../../support/database.ts"
import { type Balancer, startHaproxy } from "../../support/haproxy.ts"
import { freePort, until } from "../../support/ports.ts"
import { type Server, spawnServer } from "../../support/process.ts"

// Three engine processes over one Postgres database behind an HAProxy of our own: one killed with -9 under load,
// then all three restarted one after another (SIGTERM, start again) under load.
const ADMIN = "balancer-admin-token-0123456789"
let db: { url: string; drop: () => Promise<unknown> }
let balancer: Balancer
const ports: Array<number> = []
const children: Array<Server | undefined> = []

const start = async (i: number) => {
  const child = spawnServer(process.execPath, ["dist/server.mjs"], {
    env: {
      ...process.env,
      PORT: String(ports[i]),
      DATABASE_URL: db.url,
      NATS_URL: "",
      ADMIN_TOKEN: ADMIN,
      RATE_LIMIT: "0",
      RATE_LIMIT_ANONYMOUS: "0",
      TRUST_PROXY: "127.0.0.1",
      LOG_LEVEL: "warn",
      WEATHER_URL: "off",
      GAUGE_URL: "off",
      DB_POOL_SIZE: "8",
      SHUTDOWN_GRACE_MS: "5000"
    }
  })
  children[i] = child
  await until(
    async () => (await fetch(`http://127.0.0.1:${ports[i]}/readyz`)).status === 200,
    60_000,
    `instance ${i} ready`,
    100
  )
}

beforeAll(async () => {
  db = await freshPostgresDatabase()
  for (let i = 0; i < 3; i++) ports.push(await freePort())
  await Promise.all([0, 1, 2].map(start))
  balancer = await startHaproxy(ports)
}, 120_000)
afterAll(async () => {
  await Promise.all(children.map((c) => c?.stop()))
  await balancer?.dispose()
  await db?.drop()
})

/** What the test reads of the API's answers. */
interface Answer {
  readonly id: string
  readonly api_key: { readonly key: string }
  readonly data: Array<{ readonly id: string; readonly booked: number }>
  readonly next_after: string | null
  readonly error?: { readonly code: string }
}

const call = async (
  key: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
) => {
  const res = await fetch(`${balancer.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  return { status: res.status, body: (await res.json().catch(() => null)) as Answer }
}

describe("three instances behind HAProxy", () => {
  it("kill -9 of one loses no request, a rolling restart of all three answers no 5xx, every booking is there once", async () => {
    const org = (
      await call(ADMIN, "POST", "/admin/v1/orgs", { name: "LB", timezone: "UTC", currency: "EUR", plan: "scale" })
    ).body
    const key: string = org.api_key.key
    const offering = (await call(key, "POST", "/api/v1/offerings", { name: "Lane", kind: "class", capacity: 5000 }))
      .body
    const startsAt = `${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 13)}:00:00.000Z`
    const session = (await call(key, "POST", "/api/v1/sessions", { offering_id: offering.id, starts_at: startsAt }))
      .body.data[0]

    // Steady load through the balancer, each booking with its Idempotency-Key. The client retries only what the API
    // says to retry later: 409 idempotency_in_progress (HAProxy re-sent a request whose first try was still holding its
    // key on the instance just killed), with the same key, as a Stripe client does.
    const answers: Array<{ phase: string; status: number; id?: string }> = []
    let phase = "steady"
    let stop = false
    let n = 0
    const book = async (i: number, idempotencyKey: string) => {
      for (let attempt = 0; ; attempt++) {
        const res = await call(
          key,
          "POST",
          "/api/v1/bookings",
          {
            offering_id: offering.id,
            session_id: session.id,
            customer: { email: `b${i}@example.com`, name: `B ${i}` }
          },
          { "idempotency-key": idempotencyKey }
        ).catch(() => ({ status: 0, body: null as Answer | null }))
        if (res.status !== 409 || res.body?.error?.code !== "idempotency_in_progress" || attempt >= 20) return res
        await new Promise((r) => setTimeout(r, 250))
      }
    }
    const worker = async () => {
      while (!stop) {
        const i = n++
        const started = phase
        const res = await book(i, randomUUID())
        answers.push({ phase: started, status: res.status, id: res.status === 201 ? res.body?.id : undefined })
      }
    }
    const workers = Array.from({ length: 6 }, worker)
    await new Promise((r) => setTimeout(r, 1_500))

    phase = "kill"
    await children[0]!.stop("SIGKILL")
    await new Promise((r) => setTimeout(r, 2_000))
    await start(0)
    await new Promise((r) => setTimeout(r, 1_000))

    phase = "rolling"
    const rollStarted = Date.now()
    for (let i = 0; i < 3; i++) {
      await children[i]!.stop("SIGTERM")
      await start(i)
      // HAProxy takes it back after two passing checks.
      await new Promise((r) => setTimeout(r, 1_000))
    }
    const rollMs = Date.now() - rollStarted
    stop = true
    await Promise.all(workers)

    const by = (p: string) => answers.filter((a) => a.phase === p)
    const bad = (p: string) => by(p).filter((a) => a.status !== 201)
    console.log(
      `HAProxy: ${answers.length} bookings; kill -9: ${by("kill").length} requests, ${bad("kill").length} not 201; ` +
        `rolling restart (${rollMs} ms): ${by("rolling").length} requests, ${bad("rolling").length} not 201`
    )
    expect(bad("steady")).toEqual([])
    expect(bad("kill")).toEqual([])
    expect(bad("rolling")).toEqual([])

    // Every 201 is a booking, once; the places add up.
    const listed = new Set<string>()
    for (let after = ""; ; ) {
      const page = await call(key, "GET", `/api/v1/bookings?session_id=${session.id}&limit=500${after}`)
      for (const b of page.body.data) listed.add(b.id)
      if (page.body.next_after === null) break
      after = `&after=${page.body.next_after}`
    }
    const booked = answers.map((a) => a.id!)
    expect(new Set(booked).size).toBe(booked.length)
    expect(booked.filter((id) => !listed.has(id))).toEqual([])
    const sessions = (await call(key, "GET", `/api/v1/sessions?offering_id=${offering.id}`)).body.data
    expect(sessions[0].booked).toBe(listed.size)
  }, 120_000)
})
