/**
 * The owner's reports over a busy year: 100,000 bookings on 10 classes' 7,300 times, 5,000 waitlist entries, one
 * org (Europe/Amsterdam). The real app (AppLive over a fresh Postgres database) serves GET /api/v1/reports/* over
 * loopback; each report, for the whole year, is called BENCH_CALLS times (after a warm-up) and timed end to end.
 * Seeded in SQL (the bookings' triggers off: the seed needs no room checks), then VACUUM ANALYZE (autovacuum may be
 * off). Target: p50 under 100 ms for each.
 *
 * `npx tsx bench/reports.ts` (or `npm run bench -- reports`) prints JSON and writes bench/results/reports.json.
 * Env: DATABASE_URL (server; default postgres://postgres@127.0.0.1:5432/test), BENCH_CALLS (default 30),
 * BENCH_KEEP_DB=1 (keep the database).
 */
import { randomBytes, randomUUID } from "node:crypto"
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
const CALLS = Number(process.env.BENCH_CALLS ?? 30)
const TARGET_P50_MS = 100
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

const seed = async (c: pg.Client, org: string, offerings: ReadonlyArray<string>, customer: string, start: Date) => {
  const values: Record<string, string> = {
    $1: c.escapeLiteral(org),
    $2: c.escapeLiteral(`{${offerings.join(",")}}`),
    $3: c.escapeLiteral(start.toISOString()),
    $4: c.escapeLiteral(customer)
  }
  const statements = `
    insert into sessions (id, org_id, offering_id, starts_at, ends_at, state, created_at, cap, booked)
      select gen_random_uuid(), $1, o.id, $3::timestamptz + d * interval '1 day' + h * interval '1 hour',
        $3::timestamptz + d * interval '1 day' + (h + 1) * interval '1 hour', 'scheduled', $3, 20, 0
      from unnest($2::uuid[]) as o(id), generate_series(0, 364) as d, unnest(array[8, 18]) as h;
    alter table bookings disable trigger user;
    insert into bookings (id, org_id, offering_id, customer_id, session_id, starts_at, ends_at, quantity, places, state,
        machine, status, keeps_place, total_cents, paid_cents, charged_cents, refund_cents, refunded_at, gift_cents,
        discount_cents, reference, handle, source, confirmed_at, cancelled_at, no_show_at, checked_in_at, created_at)
      select gen_random_uuid(), $1, s.offering_id, $4, s.id, s.starts_at, s.ends_at, 1, 1,
        case when r < 0.85 then 'confirmed.plain' when r < 0.95 then 'cancelled' else 'held.lapsed' end, '{}'::jsonb,
        case when r < 0.85 then 'confirmed' when r < 0.95 then 'cancelled' else 'held' end, r < 0.85, 2500,
        case when r < 0.5 then 2500 when r < 0.6 then 1000 end, case when r < 0.6 then 2500 end,
        case when r >= 0.85 and r < 0.95 then 2500 end, case when r >= 0.85 and r < 0.95 then s.starts_at end,
        case when r < 0.05 then 500 else 0 end, case when r > 0.7 and r < 0.8 then 250 else 0 end,
        'R' || n, gen_random_uuid()::text, 'api', case when r < 0.95 then s.starts_at - interval '3 days' end,
        case when r >= 0.85 and r < 0.95 then s.starts_at end, case when r < 0.03 then s.starts_at end,
        case when r >= 0.03 and r < 0.6 then s.starts_at end, s.starts_at - (r * 20 + 1) * interval '1 day'
      from (select n, random() as r, (random() * 7299)::int as k from generate_series(1, ${BOOKINGS}) as n) as x
      join (select id, offering_id, starts_at, ends_at, row_number() over (order by id) - 1 as k from sessions) as s
        on s.k = x.k;
    alter table bookings enable trigger user;
    update sessions s set booked = b.n from (select session_id, count(*)::int as n from bookings
      where keeps_place group by session_id) b where b.session_id = s.id;
    insert into waitlist_entries (id, org_id, offering_id, session_id, customer_id, places, created_at, ended_at, end_reason)
      select gen_random_uuid(), $1, s.offering_id, s.id, $4, 1, s.starts_at - interval '2 days', s.starts_at,
        case when random() < 0.4 then 'booked' else 'left' end
      from sessions s order by random() limit 5000;
    `.split(";\n")
  for (const q of statements.filter((q) => q.trim() !== "")) await c.query(q.replace(/\$[1-4]/g, (p) => values[p]))
}

export const run = async () => {
  const name = `be_bench_reports_${randomBytes(5).toString("hex")}`
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
    const customer = randomUUID()
    const start = new Date("2025-01-01T00:00:00Z")
    const loadStarted = Date.now()
    await onDb(name, async (c) => {
      await c.query("insert into customers (id, org_id, email, name, created_at) values ($1, $2, $3, 'Guest', $4)", [
        customer,
        created.org.id,
        "guest@example.com",
        start
      ])
      await seed(c, created.org.id, offerings, customer, start)
      await c.query("vacuum analyze")
    })
    const loadSeconds = Math.round((Date.now() - loadStarted) / 100) / 10
    const range = "from=2025-01-01&to=2025-12-31"
    const paths = {
      "revenue by day": `/api/v1/reports/revenue?${range}`,
      "revenue by week": `/api/v1/reports/revenue?${range}&by=week`,
      "revenue by month": `/api/v1/reports/revenue?${range}&by=month`,
      "revenue by offering": `/api/v1/reports/revenue?${range}&by=offering`,
      occupancy: `/api/v1/reports/occupancy?${range}`,
      attendance: `/api/v1/reports/attendance?${range}`,
      waitlist: `/api/v1/reports/waitlist?${range}`
    }
    const results: Record<string, { p50_ms: number; p99_ms: number; rows: number }> = {}
    for (const [label, path] of Object.entries(paths)) {
      const rows = (await call<{ data: ReadonlyArray<unknown> }>(key, "GET", path)).data.length
      for (let i = 0; i < 3; i++) await call(key, "GET", path)
      const samples: Array<number> = []
      for (let i = 0; i < CALLS; i++) {
        const t = performance.now()
        await call(key, "GET", path)
        samples.push(performance.now() - t)
      }
      samples.sort((a, b) => a - b)
      const at = (q: number) =>
        Math.round(samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)] * 10) / 10
      results[label] = { p50_ms: at(0.5), p99_ms: at(0.99), rows }
    }
    const out = {
      bookings: BOOKINGS,
      calls: CALLS,
      load_seconds: loadSeconds,
      loadavg: os.loadavg().map((n) => Math.round(n * 100) / 100),
      cpus: os.cpus().length,
      target_p50_ms: TARGET_P50_MS,
      results,
      passed: Object.values(results).every((r) => r.p50_ms < TARGET_P50_MS)
    }
    await mkdir(new URL("./results/", import.meta.url), { recursive: true })
    await writeFile(new URL("./results/reports.json", import.meta.url), `${JSON.stringify(out, null, 2)}\n`)
    return out
  } finally {
    await runtime.dispose()
    if (process.env.BENCH_KEEP_DB !== "1")
      await onDb(undefined, (c) => c.query(`drop database if exists ${name} with (force)`))
  }
}

if (import.meta.url === `file://${process.argv[1]}`) run().then((r) => console.log(JSON.stringify(r, null, 2)))
