/**
 * GET availability with 10,000 bookings on record, for an appointment on weekly hours and for a rental, against its
 * SQL alone (the floor). The real app (AppLive over a fresh Postgres database, the test clock so "now" holds still)
 * serves it in-process. Per offering, three timers run interleaved (who goes first rotates every round, so load from
 * elsewhere on the shared machine hits all alike):
 *
 * - service: Availability.get through the engine layer (Effect.timed around it);
 * - http: GET /api/v1/offerings/{id}/availability over loopback (key lookup, routing, JSON included);
 * - sql: the statements one service call sends (traced at the pg driver, texts and values), replayed on one pg
 *   connection: what the database alone takes.
 *
 * The record: both offerings open Monday to Friday 9:00-17:00 (Europe/Amsterdam), 30-minute slots, four in parallel,
 * 10-minute buffer. The window always holds a realistic load (as many bookings as 10,000 spread evenly over a year
 * puts in 14 days, about 60% of its places); the rest of the record is spread over the year around it. Statuses: 85%
 * confirmed, 10% cancelled, 3% lapsed holds, 2% live holds. Seeded in SQL with the booking_places trigger off (hours
 * and rentals keep no counters; the trigger only checks room, which the seed does not need).
 *
 * `npx tsx bench/availability.ts` prints JSON and writes bench/results/availability.json.
 * Env: DATABASE_URL (server; default postgres://postgres@127.0.0.1:5432/test), BENCH_CALLS (measured calls per
 * figure, default 300), BENCH_WARMUP (warm-up rounds, default 100), BENCH_KEEP_DB=1 (keep the databases).
 */

import { randomBytes } from "node:crypto"
import { mkdir, writeFile } from "node:fs/promises"
import os from "node:os"
import { fileURLToPath, pathToFileURL } from "node:url"
import { HttpServer } from "@effect/platform"
import type { SqlClient } from "@effect/sql"
import { Duration, Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import pg from "pg"
import { PostgresLive } from "../adapters/db/postgres.ts"
import { AppLive, NodeServerLive } from "../app/layers.ts"
import { CurrentOrg } from "../engine/services/CurrentOrg.ts"
import { Availability } from "../engine/services/calendar/Availability.ts"
import { addDays, todayIn, toInstant, weekdayOf } from "../engine/time/local.ts"
import { ADMIN_TOKEN, testConfig } from "../specs/support/config.ts"
import { jsonClient, type NewOrg } from "./client.ts"

const ZONE = "Europe/Amsterdam"
const WINDOW_DAYS = 14
const SLOT_MINUTES = 30
const IN_WINDOW = Math.round((10_000 * WINDOW_DAYS) / 365)
const SIZE = 10_000
const WARMUP = Number(process.env.BENCH_WARMUP ?? 100)
const CALLS = Number(process.env.BENCH_CALLS ?? 300)
const TARGET_P50_MS = 5
const TARGET_RATIO = 2

const serverUrl = () => process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test"
const withDb = (name: string) => {
  const u = new URL(serverUrl())
  u.pathname = `/${name}`
  return u.toString()
}
const onServer = async <A>(f: (c: pg.Client) => Promise<A>, db?: string) => {
  const client = new pg.Client({ connectionString: db === undefined ? serverUrl() : withDb(db) })
  await client.connect()
  try {
    return await f(client)
  } finally {
    await client.end()
  }
}

/** A small seeded PRNG (mulberry32), so every run books the same times. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const quantile = (sorted: ReadonlyArray<number>, q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
const summary = (samples: ReadonlyArray<number>) => {
  const sorted = [...samples].sort((a, b) => a - b)
  const round = (n: number) => Math.round(n * 1000) / 1000
  return {
    calls: sorted.length,
    p50_ms: round(quantile(sorted, 0.5)),
    p99_ms: round(quantile(sorted, 0.99)),
    mean_ms: round(sorted.reduce((a, b) => a + b, 0) / sorted.length)
  }
}

type Row = {
  starts_at: Date
  status: "confirmed" | "cancelled" | "held"
  keeps_place: boolean
  expires_at: Date | null
  state: string
}

/** `count` bookings on the offering's opening hours, on local dates drawn by `day`. */
const bookingsOn = (count: number, day: () => string, now: Date, rand: () => number): Array<Row> =>
  Array.from({ length: count }, (): Row => {
    let date = day()
    while (weekdayOf(date) === 0 || weekdayOf(date) === 6) date = day()
    const minutes = 9 * 60 + SLOT_MINUTES * Math.floor(rand() * ((8 * 60) / SLOT_MINUTES))
    const starts_at = toInstant(
      date,
      `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}:00`,
      ZONE
    )
    const r = rand()
    if (r < 0.85)
      return { starts_at, status: "confirmed", keeps_place: true, expires_at: null, state: "confirmed.plain" }
    if (r < 0.95) return { starts_at, status: "cancelled", keeps_place: false, expires_at: null, state: "cancelled" }
    if (r < 0.98 || starts_at <= now) {
      // Lapsed: some the expiry job has already marked, some it has not reached yet (the query must skip both).
      const marked = rand() < 0.5
      return {
        starts_at,
        status: "held",
        keeps_place: !marked,
        expires_at: new Date(now.getTime() - 3_600_000),
        state: marked ? "held.lapsed" : "held.keeping"
      }
    }
    return {
      starts_at,
      status: "held",
      keeps_place: true,
      expires_at: new Date(now.getTime() + 600_000),
      state: "held.keeping"
    }
  })

const insert = async (
  db: string,
  ids: { org: string; offering: string; customer: string },
  rows: ReadonlyArray<Row>,
  tag: string,
  now: Date
) => {
  await onServer((c) => c.query("alter table bookings disable trigger booking_places"), db)
  for (let i = 0; i < rows.length; i += 10_000) {
    const part = rows.slice(i, i + 10_000)
    await onServer(
      (c) =>
        c.query(
          `insert into bookings (id, org_id, offering_id, customer_id, starts_at, ends_at, quantity, places, state, machine, status, keeps_place,
           expires_at, confirmed_at, cancelled_at, total_cents, reference, handle, source, created_at)
         select gen_random_uuid(), $1, $2, $3, x.s, x.s + interval '${SLOT_MINUTES} minutes', 1, 1, x.state,
           jsonb_build_object('starts_at', x.s, 'ends_at', x.s + interval '${SLOT_MINUTES} minutes', 'session_id', null, 'series_id', null,
             'is_reseller', false, 'expires_at', x.exp, 'confirmed_at', case when x.status = 'confirmed' then $8::timestamptz end,
             'cancelled_at', case when x.status = 'cancelled' then $8::timestamptz end, 'nudged_at', null, 'choose_by', null, 'paid_at', null,
             'paid_by_hand', false, 'checked_in_at', null, 'no_show_at', null, 'previous', null),
           x.status, x.kp, x.exp, case when x.status = 'confirmed' then $8::timestamptz end, case when x.status = 'cancelled' then $8::timestamptz end,
           0, $9 || lpad(x.n::text, 6, '0'), gen_random_uuid()::text, 'api', $8
         from unnest($4::timestamptz[], $5::text[], $6::bool[], $7::timestamptz[], $10::text[]) with ordinality as x(s, status, kp, exp, state, n)`,
          [
            ids.org,
            ids.offering,
            ids.customer,
            part.map((r) => r.starts_at),
            part.map((r) => r.status),
            part.map((r) => r.keeps_place),
            part.map((r) => r.expires_at),
            now,
            `${tag}${i / 10_000}-`,
            part.map((r) => r.state)
          ]
        ),
      db
    )
  }
  await onServer((c) => c.query("alter table bookings enable trigger booking_places"), db)
  await onServer((c) => c.query("vacuum analyze bookings"), db)
}

/** The plan Postgres picks for the busy query (the statement Availability.get sends for hours, copied here). */
const explainBusy = (db: string, offering: string, start: Date, end: Date, now: Date) =>
  onServer(async (c) => {
    const pad = 10 * 60_000
    const longest = SLOT_MINUTES * 60_000
    const res = await c.query<{ "QUERY PLAN": Array<{ Plan: PlanNode; "Execution Time": number }> }>(
      `explain (analyze, buffers, format json)
       select starts_at, ends_at, 1 as quantity from bookings
       where offering_id = $1 and keeps_place and (status = 'confirmed' or expires_at > $2)
         and starts_at < $3 and starts_at > $4 and ends_at > $5`,
      [
        offering,
        now,
        new Date(end.getTime() + SLOT_MINUTES * 60_000 + pad),
        new Date(start.getTime() - pad - longest),
        new Date(start.getTime() - pad)
      ]
    )
    const top = res.rows[0]["QUERY PLAN"][0]
    const nodes: Array<string> = []
    const walk = (n: PlanNode) => {
      nodes.push(
        `${n["Node Type"]}${n["Index Name"] ? ` on ${n["Index Name"]}` : ""} (rows ${n["Actual Rows"]}${n["Rows Removed by Filter"] ? `, removed by filter ${n["Rows Removed by Filter"]}` : ""})`
      )
      for (const child of n.Plans ?? []) walk(child)
    }
    walk(top.Plan)
    return { plan: nodes, execution_ms: top["Execution Time"] }
  }, db)
type PlanNode = {
  "Node Type": string
  "Index Name"?: string
  "Actual Rows": number
  "Rows Removed by Filter"?: number
  Plans?: Array<PlanNode>
}

/** A call recorded at the pg driver: its text and values, to replay on a bare connection. */
type Recorded = { text: string; values: ReadonlyArray<unknown> }
const record = async <A>(f: () => Promise<A>) => {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }
  const original = proto.query
  const seen: Recorded[] = []
  proto.query = function (this: object, ...args: unknown[]) {
    const q = args[0]
    if (typeof q === "string") seen.push({ text: q, values: Array.isArray(args[1]) ? args[1] : [] })
    else if (q !== null && typeof q === "object" && typeof (q as { text?: unknown }).text === "string") {
      const r = q as { text: string; values?: unknown[] }
      seen.push({ text: r.text, values: r.values ?? (Array.isArray(args[1]) ? args[1] : []) })
    }
    return original.apply(this, args)
  }
  try {
    await f()
  } finally {
    proto.query = original
  }
  return seen
}

/** The record: one database and app, an org with an appointment on hours and a rental, 10,000 bookings on each. */
const startStage = async (size: number) => {
  const name = `be_bench_avail_${randomBytes(5).toString("hex")}`
  await onServer((c) => c.query(`create database ${name}`))
  const layer = AppLive(testConfig(), PostgresLive(withDb(name), 10)).pipe(
    Layer.provideMerge(NodeServerLive({ port: 0, host: "127.0.0.1" })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Error))
  )
  const runtime = ManagedRuntime.make(layer as Layer.Layer<SqlClient.SqlClient | HttpServer.HttpServer | Availability>)
  const bare = new pg.Client({ connectionString: withDb(name) })
  const close = async () => {
    await bare.end().catch(() => undefined)
    await runtime.dispose()
    if (process.env.BENCH_KEEP_DB !== "1")
      await onServer((c) => c.query(`drop database if exists ${name} with (force)`))
  }
  try {
    const server = await runtime.runPromise(HttpServer.HttpServer)
    const url = `http://127.0.0.1:${server.address._tag === "TcpAddress" ? server.address.port : 0}`
    const call = jsonClient(url)
    const created = await call<NewOrg>(ADMIN_TOKEN, "POST", "/admin/v1/orgs", {
      name: "Bench",
      timezone: ZONE,
      currency: "EUR"
    })
    const key = created.api_key.key
    const weekdays = { hours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start_time: "09:00", end_time: "17:00" })) }
    const appointment = await call<{ id: string }>(key, "POST", "/api/v1/offerings", {
      name: "Haircut",
      kind: "appointment",
      duration_minutes: SLOT_MINUTES,
      capacity: 4,
      buffer_minutes: 10,
      min_notice_minutes: 0,
      max_advance_days: 365
    })
    await call(key, "PATCH", `/api/v1/offerings/${appointment.id}`, { schedule: "hours" })
    await call(key, "PUT", `/api/v1/offerings/${appointment.id}/hours`, weekdays)
    const rental = await call<{ id: string }>(key, "POST", "/api/v1/offerings", {
      name: "Kayak",
      kind: "rental",
      duration_minutes: SLOT_MINUTES,
      capacity: 4,
      buffer_minutes: 10,
      min_notice_minutes: 0,
      max_advance_days: 365
    })
    await call(key, "PUT", `/api/v1/offerings/${rental.id}/hours`, weekdays)
    const now = new Date((await call<{ now: string }>(ADMIN_TOKEN, "GET", "/admin/v1/clock")).now)
    const today = todayIn(now, ZONE)
    const customer = crypto.randomUUID()
    await onServer(
      (c) =>
        c.query("insert into customers (id, org_id, email, name, created_at) values ($1, $2, $3, 'Guest', $4)", [
          customer,
          created.org.id,
          "guest@example.com",
          now
        ]),
      name
    )
    await bare.connect()
    const org = {
      id: created.org.id,
      timezone: ZONE,
      currency: "EUR",
      plan: "scale" as const,
      apiKeyId: created.api_key.id,
      role: "owner" as const
    }
    const availability = await runtime.runPromise(Availability)
    const start = toInstant(today, "00:00:00", ZONE)
    const end = toInstant(addDays(today, WINDOW_DAYS), "00:00:00", ZONE)

    const offerings = []
    for (const [kind, offering] of [
      ["appointment on weekly hours", appointment],
      ["rental", rental]
    ] as const) {
      const ids = { org: created.org.id as string, offering: offering.id as string, customer }
      // The same seed for both: the window's bookings are the same; only the rest of the record is around it.
      const rand = random(20260101)
      const inWindow = () => addDays(today, Math.floor(rand() * WINDOW_DAYS))
      const aroundIt = () => {
        const offset = Math.floor(rand() * (365 - WINDOW_DAYS)) - 182
        return addDays(today, offset < 0 ? offset : offset + WINDOW_DAYS)
      }
      await insert(
        name,
        ids,
        [...bookingsOn(IN_WINDOW, inWindow, now, rand), ...bookingsOn(size - IN_WINDOW, aroundIt, now, rand)],
        kind === "rental" ? "R" : "A",
        now
      )
      const counts = await onServer(
        (c) =>
          c.query<{ total: number; window: number; live: number }>(
            `select count(*)::int as total, count(*) filter (where starts_at >= $2 and starts_at < $3)::int as window,
           count(*) filter (where starts_at >= $2 and starts_at < $3 and keeps_place and (status = 'confirmed' or expires_at > $4))::int as live
         from bookings where offering_id = $1`,
            [ids.offering, start, end, now]
          ),
        name
      )
      const service = () =>
        runtime.runPromise(
          Effect.timed(availability.get(ids.offering, {})).pipe(
            Effect.provideService(CurrentOrg, org),
            Effect.map(([d, r]) => ({ ms: Duration.toMillis(d), slots: r.data.length }))
          )
        )
      const http = async () => {
        const t = performance.now()
        const res = await fetch(`${url}/api/v1/offerings/${ids.offering}/availability`, {
          headers: { authorization: `Bearer ${key}` }
        })
        const body = (await res.json()) as { data: unknown[] }
        if (res.status !== 200) throw new Error(`availability: ${res.status}`)
        return { ms: performance.now() - t, slots: body.data.length }
      }
      await service()
      const statements = await record(service)
      const sql = async () => {
        const t = performance.now()
        let rows = 0
        for (const s of statements) rows += (await bare.query(s.text, s.values as unknown[])).rowCount ?? 0
        return { ms: performance.now() - t, slots: rows }
      }
      offerings.push({
        kind,
        record: {
          bookings_on_record: counts.rows[0].total,
          bookings_in_window: counts.rows[0].window,
          keeping_their_place_in_window: counts.rows[0].live
        },
        statements: statements.map((s) => s.text.replace(/\s+/g, " ").trim()),
        service,
        http,
        sql,
        explain: () => explainBusy(name, ids.offering, start, end, now)
      })
    }
    return { size, offerings, close }
  } catch (e) {
    await close()
    throw e
  }
}

type Timer = () => Promise<{ ms: number; slots: number }>

/** Warm-up, then `CALLS` rounds calling each timer once per round (rotating who goes first), so load hits all alike. */
const interleaved = async (timers: ReadonlyArray<Timer>) => {
  for (let i = 0; i < WARMUP; i++) for (const t of timers) await t()
  const samples = timers.map(() => [] as number[])
  const slots = timers.map(() => 0)
  const loads: number[] = []
  for (let round = 0; round < CALLS; round++) {
    if (round % 50 === 0) loads.push(os.loadavg()[0])
    for (let k = 0; k < timers.length; k++) {
      const i = (round + k) % timers.length
      const r = await timers[i]()
      samples[i].push(r.ms)
      slots[i] = r.slots
    }
  }
  return { figures: samples.map((s, i) => ({ ...summary(s), slots: slots[i] })), loads }
}

export const run = async () => {
  const stage = await startStage(SIZE)
  try {
    const measured = []
    for (const o of stage.offerings) {
      const {
        figures: [service, http, sql],
        loads
      } = await interleaved([o.service, o.http, o.sql])
      const r = (n: number) => Math.round(n * 100) / 100
      measured.push({
        kind: o.kind,
        ...o.record,
        statements: o.statements,
        service,
        http,
        sql,
        ratio: { service_over_sql_p50: r(service.p50_ms / sql.p50_ms), http_over_sql_p50: r(http.p50_ms / sql.p50_ms) },
        loadavg: { min: r(Math.min(...loads)), max: r(Math.max(...loads)) },
        busy_query: await o.explain()
      })
    }
    const pgVersion = await onServer((c) => c.query<{ server_version: string }>("show server_version"))
    const result = {
      at: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? "",
        node: process.version,
        postgres: pgVersion.rows[0].server_version,
        loadavg: os.loadavg().map((n) => Math.round(n * 10) / 10)
      },
      setup: {
        zone: ZONE,
        hours: "Mon-Fri 09:00-17:00",
        duration_minutes: SLOT_MINUTES,
        capacity: 4,
        buffer_minutes: 10,
        window_days: WINDOW_DAYS,
        bookings_on_record: SIZE,
        warmup_rounds: WARMUP,
        calls: CALLS
      },
      method:
        "service, http and sql (the service's own statements replayed on one bare pg connection) interleaved call by call; p50 over the calls; ratios of p50s",
      targets: { service_over_sql_p50: TARGET_RATIO, service_p50_ms: TARGET_P50_MS },
      offerings: measured,
      verdict: measured.map((m) => ({
        kind: m.kind,
        ratioMet: m.ratio.service_over_sql_p50 <= TARGET_RATIO,
        p50Met: m.service.p50_ms <= TARGET_P50_MS
      }))
    }
    await mkdir(fileURLToPath(new URL("./results", import.meta.url)), { recursive: true })
    await writeFile(
      fileURLToPath(new URL("./results/availability.json", import.meta.url)),
      `${JSON.stringify(result, null, 2)}\n`
    )
    return result
  } finally {
    await stage.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  run().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (e) => {
      console.error(e)
      process.exitCode = 1
    }
  )
}
