/**
 * The owner's CSV exports over a busy year: 100,000 bookings on 10 classes' 7,300 times (one guest each of 10,000),
 * their online payments (60,000, a sixth refunded), one org (Europe/Amsterdam). The real app (AppLive over a fresh
 * Postgres database) serves GET /api/v1/exports/*.csv over loopback; each file is downloaded whole BENCH_ROUNDS
 * times, counting its rows as they come (nothing kept), timed end to end, with the process's resident size sampled
 * every 20 ms: its peak growth over the size before the download says whether the file was held in memory.
 *
 * `npx tsx bench/exports.ts` (or `npm run bench -- exports`) prints JSON and writes bench/results/exports.json.
 * Env: DATABASE_URL (server; default postgres://postgres@127.0.0.1:5432/test), BENCH_ROUNDS (default 3),
 * BENCH_KEEP_DB=1 (keep the database).
 */
import { randomBytes } from "node:crypto"
import { mkdir, writeFile } from "node:fs/promises"
import os from "node:os"
import { HttpServer } from "@effect/platform"
import { Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import pg from "pg"
import { PostgresLive } from "../adapters/db/postgres.ts"
import { AppLive, NodeServerLive } from "../app/layers.ts"
import { ADMIN_TOKEN, testConfig } from "../specs/support/config.ts"
import { jsonClient, type NewOrg } from "./client.ts"

const BOOKINGS = 100_000
const GUESTS = 10_000
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const serverUrl = () => process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test"
const withDb = (name: string) => Object.assign(new URL(serverUrl()), { pathname: `/${name}` }).toString()
const onDb = async <A>(db: string | undefined, f: (c: pg.Client) => Promise<A>) => {
  const c = new pg.Client({ connectionString: db === undefined ? serverUrl() : withDb(db) })
  await c.connect()
  try {
    return await f(c)
  } finally {
    await c.end()
  }
}

const seed = async (c: pg.Client, org: string, offerings: ReadonlyArray<string>, start: Date) => {
  const values: Record<string, string> = {
    $1: c.escapeLiteral(org),
    $2: c.escapeLiteral(`{${offerings.join(",")}}`),
    $3: c.escapeLiteral(start.toISOString())
  }
  const statements = `
    insert into customers (id, org_id, email, name, phone, created_at)
      select gen_random_uuid(), $1, 'guest' || n || '@example.com', 'Gäst ' || n || ', "Nr"', '+31 6 ' || (10000000 + n),
        $3::timestamptz + n * interval '50 minutes'
      from generate_series(1, ${GUESTS}) as n;
    insert into sessions (id, org_id, offering_id, starts_at, ends_at, state, created_at, cap, booked)
      select gen_random_uuid(), $1, o.id, $3::timestamptz + d * interval '1 day' + h * interval '1 hour',
        $3::timestamptz + d * interval '1 day' + (h + 1) * interval '1 hour', 'scheduled', $3, 20, 0
      from unnest($2::uuid[]) as o(id), generate_series(0, 364) as d, unnest(array[8, 18]) as h;
    alter table bookings disable trigger user;
    insert into bookings (id, org_id, offering_id, customer_id, session_id, starts_at, ends_at, quantity, places, state,
        machine, status, keeps_place, total_cents, paid_cents, charged_cents, refund_cents, refunded_at, reference, handle,
        source, confirmed_at, cancelled_at, created_at, notes)
      select gen_random_uuid(), $1, s.offering_id, g.id, s.id, s.starts_at, s.ends_at, 1, 1,
        case when r < 0.85 then 'confirmed.plain' else 'cancelled' end, '{}'::jsonb,
        case when r < 0.85 then 'confirmed' else 'cancelled' end, r < 0.85, 2500,
        case when r < 0.6 then 2500 end, case when r < 0.6 then 2500 end,
        case when r >= 0.5 and r < 0.6 then 2500 end, case when r >= 0.5 and r < 0.6 then s.starts_at end,
        'R' || n, gen_random_uuid()::text, 'api', s.starts_at - interval '3 days',
        case when r >= 0.85 then s.starts_at end, s.starts_at - (r * 20 + 1) * interval '1 day', 'Fensterplatz, bitte'
      from (select n, random() as r, (random() * 7299)::int as k, (random() * ${GUESTS - 1})::int as gk
        from generate_series(1, ${BOOKINGS}) as n) as x
      join (select id, offering_id, starts_at, ends_at, row_number() over (order by id) - 1 as k from sessions) as s
        on s.k = x.k
      join (select id, row_number() over (order by id) - 1 as k from customers where org_id = $1) as g on g.k = x.gk;
    alter table bookings enable trigger user;
    insert into payments (id, org_id, booking_id, checkout_id, payment_intent_id, amount_cents, currency, created_at,
        refund_cents, refund_state, refunded_at)
      select gen_random_uuid(), $1, b.id, 'co_' || b.id, 'pi_' || b.id, 2500, 'eur', b.created_at,
        coalesce(b.refund_cents, 0), case when b.refunded_at is not null then 'refunded' end, b.refunded_at
      from bookings b where b.org_id = $1 and b.charged_cents is not null;
    `.split(";\n")
  for (const q of statements.filter((q) => q.trim() !== "")) await c.query(q.replace(/\$[1-3]/g, (p) => values[p]))
}

/** Downloads a file, counting its lines as they come: time, rows, bytes and the peak growth of resident size. */
const download = async (url: string, key: string) => {
  global.gc?.()
  const before = process.memoryUsage()
  let peakRss = before.rss
  let peakHeap = before.heapUsed
  const sampler = setInterval(() => {
    const m = process.memoryUsage()
    peakRss = Math.max(peakRss, m.rss)
    peakHeap = Math.max(peakHeap, m.heapUsed)
  }, 20)
  const started = performance.now()
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } })
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`)
  const firstByte = performance.now() - started
  let bytes = 0
  let lines = 0
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++
  }
  const ms = performance.now() - started
  clearInterval(sampler)
  const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10
  return {
    rows: lines - 1,
    mb: mb(bytes),
    first_byte_ms: Math.round(firstByte),
    seconds: Math.round(ms / 100) / 10,
    rss_growth_mb: mb(peakRss - before.rss),
    heap_growth_mb: mb(peakHeap - before.heapUsed)
  }
}

export const run = async () => {
  const name = `be_bench_exports_${randomBytes(5).toString("hex")}`
  await onDb(undefined, (c) => c.query(`create database ${name}`))
  const layer = AppLive(testConfig(), PostgresLive(withDb(name), 10)).pipe(
    Layer.provideMerge(NodeServerLive({ port: 0, host: "127.0.0.1" })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Error))
  )
  const runtime = ManagedRuntime.make(layer as Layer.Layer<HttpServer.HttpServer>)
  try {
    const server = await runtime.runPromise(HttpServer.HttpServer)
    const url = `http://127.0.0.1:${server.address._tag === "TcpAddress" ? server.address.port : 0}`
    const call = jsonClient(url)
    const created = await call<NewOrg>(ADMIN_TOKEN, "POST", "/admin/v1/orgs", {
      name: "Bench",
      timezone: "Europe/Amsterdam",
      currency: "EUR"
    })
    const key = created.api_key.key
    const offerings: Array<string> = []
    for (let i = 0; i < 10; i++)
      offerings.push(
        (
          await call<{ id: string }>(key, "POST", "/api/v1/offerings", {
            name: `Class ${i}`,
            kind: "class",
            capacity: 20
          })
        ).id
      )
    const loadStarted = Date.now()
    await onDb(name, async (c) => {
      await seed(c, created.org.id, offerings, new Date("2025-01-01T00:00:00Z"))
      await c.query("vacuum analyze")
    })
    const loadSeconds = Math.round((Date.now() - loadStarted) / 100) / 10
    const files = {
      "bookings, the year": "/api/v1/exports/bookings.csv?from=2025-01-01T00:00:00Z&to=2026-01-01T00:00:00Z",
      "payments and refunds, the year": "/api/v1/exports/payments.csv?from=2025-01-01&to=2025-12-31",
      guests: "/api/v1/exports/guests.csv"
    }
    const results: Record<string, Array<Awaited<ReturnType<typeof download>>>> = {}
    for (const [label, path] of Object.entries(files)) {
      results[label] = []
      for (let i = 0; i < ROUNDS; i++) results[label].push(await download(`${url}${path}`, key))
    }
    const out = {
      bookings: BOOKINGS,
      guests: GUESTS,
      rounds: ROUNDS,
      load_seconds: loadSeconds,
      loadavg: os.loadavg().map((n) => Math.round(n * 100) / 100),
      cpus: os.cpus().length,
      results
    }
    await mkdir(new URL("./results/", import.meta.url), { recursive: true })
    await writeFile(new URL("./results/exports.json", import.meta.url), `${JSON.stringify(out, null, 2)}\n`)
    return out
  } finally {
    await runtime.dispose()
    if (process.env.BENCH_KEEP_DB !== "1")
      await onDb(undefined, (c) => c.query(`drop database if exists ${name} with (force)`))
  }
}

if (import.meta.url === `file://${process.argv[1]}`) run().then((r) => console.log(JSON.stringify(r, null, 2)))
