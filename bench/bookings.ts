/**
 * POST /api/v1/bookings under load: the real engine (the layers `npm start` builds) against bench/bare.ts, which
 * sends the same SQL from node:http + pg. Scenarios: "hot" (every request books one time) and "spread" (round-robin
 * over 200 times), at 1, 8 and 32 connections. One fresh Postgres database for the run, dropped at the end.
 *
 * Each cell measures both servers back to back (alternating which goes first), each started fresh and warmed up, so
 * that background load on the machine hits both alike. Before the cells, one booking through each server is traced
 * at the pg driver and the two statement sequences are compared (`parity`).
 *
 * Env: DATABASE_URL (server to use; default postgres://postgres@127.0.0.1:5432), BENCH_BOOKINGS_SECONDS (seconds per
 * measurement, default 8), BENCH_BOOKINGS_WARMUP (seconds, default 3), BENCH_KEEP_DB=1 (keep the database).
 */
import { HttpServer } from "@effect/platform"
import { Context, Effect, Fiber, Layer, Logger, LogLevel, Option } from "effect"
import { fork } from "node:child_process"
import { randomBytes } from "node:crypto"
import os from "node:os"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { AppLive, NodeServerLive } from "../transports/app.ts"
import type { AppConfig } from "../transports/config.ts"
import { startBare } from "./bare.ts"
import type { LoadJob, LoadResult } from "./load.ts"

export const SCENARIOS = ["hot", "spread"] as const
export const CONNECTIONS = [1, 8, 32] as const
export const TARGETS = ["engine", "bare"] as const
type Scenario = (typeof SCENARIOS)[number]
type Target = (typeof TARGETS)[number]

const SPREAD_SESSIONS = 200
const SEATS = 10_000
const TARGET_RATIO = 0.5
const TARGET_P99_MS = 50
export const ADMIN_TOKEN = `bench-admin-${randomBytes(12).toString("hex")}`

export interface Measurement extends LoadResult {
  readonly target: Target
  readonly scenario: Scenario
  readonly connections: number
  /** CPU time of the server process (user + system) per successful booking, in ms. */
  readonly serverCpuMsPerBooking: number
  /** 1-minute load average when the measurement started (the machine is shared). */
  readonly loadAverage: number
  /** Rows the run left for its org: a check that both servers did the same work and sold no seat twice. */
  readonly written: { readonly bookings: number; readonly events: number; readonly mails: number; readonly maxSeatsInOneTime: number }
}

export interface Comparison {
  readonly scenario: Scenario
  readonly connections: number
  readonly engine: Measurement
  readonly bare: Measurement
  /** engine req/s / bare req/s */
  readonly ratio: number
}

export interface Parity {
  /** Both servers sent the same statements, in the same order, for one booking. */
  readonly same: boolean
  readonly engine: ReadonlyArray<string>
  readonly bare: ReadonlyArray<string>
}

export interface BookingsBench {
  readonly at: string
  readonly machine: { readonly cpus: number; readonly cpuModel: string; readonly node: string; readonly postgres: string; readonly note: string }
  readonly durationSeconds: number
  readonly targets: { readonly ratio: number; readonly p99Ms: number }
  readonly parity: Parity
  readonly comparisons: ReadonlyArray<Comparison>
  readonly verdict: { readonly ratioMet: boolean; readonly p99Met: boolean; readonly failures: ReadonlyArray<string> }
}

export const withDb = (name: string) => {
  const u = new URL(process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres")
  u.pathname = `/${name}`
  return u.toString()
}

export const adminQuery = async <A extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
  const client = new pg.Client({ connectionString: withDb("postgres") })
  await client.connect()
  try {
    return await client.query<A>(text, values)
  } finally {
    await client.end()
  }
}

export interface Running {
  readonly url: string
  readonly close: () => Promise<void>
}

/** The engine as `npm start` builds it (AppLive + the node listener, JSON logs at LOG_LEVEL=error), on a loopback port. */
export const startEngine = async (databaseUrl: string): Promise<Running> => {
  const config: AppConfig = {
    port: 0,
    host: "127.0.0.1",
    databaseUrl: Option.some(databaseUrl),
    dataDir: "",
    natsUrl: Option.none(),
    smtpUrl: Option.none(),
    mailFrom: "bookings@localhost",
    adminToken: Option.some(ADMIN_TOKEN),
    publicUrl: "http://127.0.0.1",
    logLevel: "error",
    webhookAllowInsecure: false,
    clock: "system"
  }
  let resolve!: (url: string) => void
  const listening = new Promise<string>((r) => (resolve = r))
  const app = AppLive(config).pipe(
    Layer.provideMerge(NodeServerLive(config)),
    Layer.tap((ctx) =>
      Effect.sync(() => {
        const address = Context.get(ctx, HttpServer.HttpServer).address
        resolve(address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : "")
      })
    )
  )
  const fiber = Effect.runFork(Layer.launch(app).pipe(Logger.withMinimumLogLevel(LogLevel.Error), Effect.provide(Logger.json)))
  const url = await Promise.race([
    listening,
    Effect.runPromise(Fiber.join(fiber)).then(() => Promise.reject(new Error("the engine stopped before listening")))
  ])
  return { url, close: () => Effect.runPromise(Fiber.interrupt(fiber)).then(() => undefined) }
}

const api = async <A>(url: string, key: string, method: string, path: string, body?: unknown): Promise<A> => {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`)
  return JSON.parse(text) as A
}

export interface Fixture {
  readonly orgId: string
  readonly key: string
  readonly offeringId: string
  readonly sessions: ReadonlyArray<string>
}

let hourOffset = 24
/** One org (plan scale), one free class with 10,000 seats per time, and `count` times of it, through the API. */
export const fixture = async (url: string, name: string, count: number): Promise<Fixture> => {
  const { org, api_key } = await api<{ org: { id: string }; api_key: { key: string } }>(url, ADMIN_TOKEN, "POST", "/admin/v1/orgs", {
    name,
    timezone: "UTC",
    currency: "EUR",
    plan: "scale"
  })
  const offering = await api<{ id: string }>(url, api_key.key, "POST", "/api/v1/offerings", {
    kind: "class",
    name: `Bench ${name}`,
    capacity: SEATS,
    max_per_booking: 10
  })
  const first = new Date(Date.now() + hourOffset * 3_600_000)
  first.setUTCMinutes(0, 0, 0)
  hourOffset += count
  const sessions: string[] = []
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, j) =>
      api<{ data: ReadonlyArray<{ id: string }> }>(url, api_key.key, "POST", "/api/v1/sessions", {
        offering_id: offering.id,
        starts_at: new Date(first.getTime() + (i + j) * 3_600_000).toISOString()
      })))
    sessions.push(...batch.map((b) => b.data[0].id))
  }
  return { orgId: org.id, key: api_key.key, offeringId: offering.id, sessions }
}

const loadFile = fileURLToPath(new URL("./load.ts", import.meta.url))

/** Runs autocannon in a child process (tsx's loader inherited), so it never shares the server's event loop. */
export const generateLoad = (job: LoadJob) =>
  new Promise<LoadResult>((resolve, reject) => {
    const execArgv = process.execArgv.filter((a) => !a.startsWith("--cpu-prof") && !a.startsWith("--inspect"))
    const child = fork(loadFile, [], { execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] })
    child.once("message", (m: { result?: LoadResult; error?: string }) => (m.result ? resolve(m.result) : reject(new Error(m.error))))
    child.once("error", reject)
    child.once("exit", (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)))
    child.send(job)
  })

/** Records every statement any pg client of this process sends while `f` runs. */
const traceStatements = async (f: () => Promise<unknown>) => {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }
  const original = proto.query
  const seen: Array<{ client: object; text: string }> = []
  proto.query = function(this: object, ...args: unknown[]) {
    const q = args[0]
    const text = typeof q === "string" ? q : (q as { text?: unknown } | null)?.text
    if (typeof text === "string") seen.push({ client: this, text: text.replace(/\s+/g, " ").trim() })
    return original.apply(this, args)
  }
  try {
    await f()
  } finally {
    proto.query = original
  }
  return seen
}

/** The statements of one POST /bookings: the key lookup, then BEGIN..COMMIT on the connection that inserted the booking. */
const bookingStatements = (seen: ReadonlyArray<{ client: object; text: string }>) => {
  const insert = seen.findIndex((s) => s.text.startsWith("insert into bookings"))
  if (insert < 0) return []
  const client = seen[insert].client
  const own = seen.map((s, i) => ({ ...s, i })).filter((s) => s.client === client)
  const at = own.findIndex((s) => s.i === insert)
  let begin = at
  while (begin > 0 && own[begin].text !== "BEGIN") begin--
  let commit = at
  while (commit < own.length - 1 && own[commit].text !== "COMMIT") commit++
  const auth = seen.slice(0, own[begin].i).filter((s) => s.text.includes("from api_keys k join orgs o")).slice(-1)
  return [...auth.map((s) => s.text), ...own.slice(begin, commit + 1).map((s) => s.text)]
}

const traceOneBooking = async (url: string, f: Fixture, email: string) => {
  const seen = await traceStatements(() =>
    api(url, f.key, "POST", "/api/v1/bookings", { offering_id: f.offeringId, session_id: f.sessions[0], customer: { email, name: "Parity" } }))
  return bookingStatements(seen)
}

const counts = async (pool: pg.Pool, orgId: string) => {
  const { rows } = await pool.query<{ bookings: number; events: number; mails: number; seats: number }>(
    `select (select count(*)::int from bookings where org_id = $1) as bookings,
            (select count(*)::int from events where org_id = $1) as events,
            (select count(*)::int from mail_outbox where org_id = $1) as mails,
            (select coalesce(max(n), 0)::int from (select sum(quantity) as n from bookings where org_id = $1 group by session_id) s) as seats`,
    [orgId]
  )
  return rows[0]
}

const log = (line: string) => process.stderr.write(`${line}\n`)

/** Waits (up to 10 s) for the requests still in flight when the load stopped, so closing the server fails none. */
const drain = async (pool: pg.Pool, database: string) => {
  for (let i = 0; i < 100; i++) {
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()
         and (state = 'idle in transaction' or (state = 'active' and query not like '%pg_try_advisory_xact_lock%'))`,
      [database]
    )
    if (rows[0].n === 0) return
    await new Promise((r) => setTimeout(r, 100))
  }
}

export const run = async (): Promise<BookingsBench> => {
  const duration = Number(process.env.BENCH_BOOKINGS_SECONDS ?? 8)
  const warmup = Number(process.env.BENCH_BOOKINGS_WARMUP ?? 3)
  const database = `be_bench_${randomBytes(5).toString("hex")}`
  const databaseUrl = withDb(database)
  await adminQuery(`create database ${database}`)
  log(`bench/bookings: database ${database}, ${duration}s per measurement, ${warmup}s warm-up`)
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 })
  const start = (target: Target) => (target === "engine" ? startEngine(databaseUrl) : startBare({ databaseUrl }))
  try {
    // Every fixture up front, through the engine's API, so no measurement pays for them.
    const setup = await startEngine(databaseUrl)
    const version = (await pool.query<{ v: string }>("select current_setting('server_version') as v")).rows[0].v
    const fixtures = new Map<string, Fixture>()
    try {
      for (const target of TARGETS) {
        fixtures.set(`${target}/warmup`, await fixture(setup.url, `${target} warmup`, SPREAD_SESSIONS))
        for (const scenario of SCENARIOS) {
          for (const connections of CONNECTIONS) {
            fixtures.set(`${target}/${scenario}/${connections}`, await fixture(setup.url, `${target} ${scenario} ${connections}`, scenario === "hot" ? 1 : SPREAD_SESSIONS))
          }
        }
      }
    } catch (e) {
      await setup.close()
      throw e
    }
    const engineSql = await traceOneBooking(setup.url, fixtures.get("engine/warmup")!, `${database}-parity-engine@bench.example`).finally(setup.close)
    const bare = await startBare({ databaseUrl })
    const bareSql = await traceOneBooking(bare.url, fixtures.get("bare/warmup")!, `${database}-parity-bare@bench.example`).finally(bare.close)
    const parity: Parity = { same: engineSql.length > 0 && JSON.stringify(engineSql) === JSON.stringify(bareSql), engine: engineSql, bare: bareSql }
    log(`bench/bookings: ${fixtures.size} orgs ready; one booking = ${engineSql.length} statements; SQL parity with bare: ${parity.same ? "same" : "DIFFERENT"}`)

    const measurements: Measurement[] = []
    let cell = 0
    for (const scenario of SCENARIOS) {
      for (const connections of CONNECTIONS) {
        for (const target of cell++ % 2 === 0 ? TARGETS : [...TARGETS].reverse()) {
          // What earlier cells left behind (mail to send, events to relay) is not this cell's work.
          await pool.query("update mail_outbox set sent_at = now(), next_at = null where sent_at is null")
          await pool.query("update events set relayed_at = now() where relayed_at is null")
          const warm = fixtures.get(`${target}/warmup`)!
          const f = fixtures.get(`${target}/${scenario}/${connections}`)!
          const tag = `${database}-${target}-${scenario}-${connections}`
          const server = await start(target)
          const { result, used, loadAverage } = await (async () => {
            try {
              await generateLoad({ url: server.url, key: warm.key, offeringId: warm.offeringId, sessions: warm.sessions, connections: 8, duration: warmup, tag: `${tag}-warmup` })
              await pool.query("delete from booking_quota where org_id = any($1)", [[f.orgId, warm.orgId]])
              const loadAverage = os.loadavg()[0]
              const cpu = process.cpuUsage()
              const result = await generateLoad({ url: server.url, key: f.key, offeringId: f.offeringId, sessions: f.sessions, connections, duration, tag })
              const used = process.cpuUsage(cpu)
              await drain(pool, database)
              return { result, used, loadAverage }
            } finally {
              await server.close()
            }
          })()
          const c = await counts(pool, f.orgId)
          const m: Measurement = {
            ...result,
            target,
            scenario,
            connections,
            serverCpuMsPerBooking: result.ok === 0 ? 0 : (used.user + used.system) / 1000 / result.ok,
            loadAverage,
            written: { bookings: c.bookings, events: c.events, mails: c.mails, maxSeatsInOneTime: c.seats }
          }
          measurements.push(m)
          log(`  ${scenario.padEnd(6)} c=${String(connections).padStart(2)} ${target.padEnd(6)} ${m.rps.toFixed(0).padStart(5)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  non-2xx ${m.non2xx}  server cpu ${m.serverCpuMsPerBooking.toFixed(2)} ms/booking  load ${loadAverage.toFixed(1)}`)
        }
      }
    }

    const comparisons: Comparison[] = []
    for (const scenario of SCENARIOS) {
      for (const connections of CONNECTIONS) {
        const of = (target: Target) => measurements.find((m) => m.target === target && m.scenario === scenario && m.connections === connections)!
        const engine = of("engine")
        const bare = of("bare")
        comparisons.push({ scenario, connections, engine, bare, ratio: bare.rps === 0 ? 0 : engine.rps / bare.rps })
      }
    }
    const failures: string[] = []
    if (!parity.same) failures.push("the bare server's statements differ from the engine's (see parity in bookings.json): update bench/bare.ts")
    for (const c of comparisons) {
      if (c.ratio < TARGET_RATIO) failures.push(`${c.scenario} c=${c.connections}: ratio ${c.ratio.toFixed(2)} < ${TARGET_RATIO}`)
      if (c.connections === 32 && c.engine.p99 >= TARGET_P99_MS) failures.push(`${c.scenario} c=32: engine p99 ${c.engine.p99} ms >= ${TARGET_P99_MS} ms`)
      for (const m of [c.engine, c.bare]) {
        if (m.non2xx > 0 || m.errors > 0) failures.push(`${m.target} ${m.scenario} c=${m.connections}: ${m.non2xx} non-2xx, ${m.errors} errors ${JSON.stringify(m.statuses)}`)
        if (m.written.bookings < m.ok) failures.push(`${m.target} ${m.scenario} c=${m.connections}: ${m.ok} answered 201 but ${m.written.bookings} bookings stored`)
      }
    }
    const cpus = os.cpus()
    return {
      at: new Date().toISOString(),
      machine: {
        cpus: cpus.length,
        cpuModel: cpus[0]?.model ?? "unknown",
        node: process.version,
        postgres: version,
        note: `${cpus.length} cores shared by the load generator (autocannon, its own process), the server under test and Postgres ` +
          `(default settings, synchronous_commit on), and by whatever else the machine runs (load average per cell in bookings.json)`
      },
      durationSeconds: duration,
      targets: { ratio: TARGET_RATIO, p99Ms: TARGET_P99_MS },
      parity,
      comparisons,
      verdict: {
        ratioMet: comparisons.every((c) => c.ratio >= TARGET_RATIO),
        p99Met: comparisons.filter((c) => c.connections === 32).every((c) => c.engine.p99 < TARGET_P99_MS),
        failures
      }
    }
  } finally {
    await pool.end()
    if (process.env.BENCH_KEEP_DB !== "1") await adminQuery(`drop database if exists ${database} with (force)`)
  }
}

const ms = (n: number) => (Number.isInteger(n) ? `${n}` : n.toFixed(1))

/** With 32 requests always in flight, p99 < 50 ms needs at least 32 / 0.05 s = 640 req/s (Little's law). */
const littlesLaw = (b: BookingsBench) => {
  const needed = 32 / (b.targets.p99Ms / 1000)
  const bare = Math.max(...b.comparisons.filter((c) => c.connections === 32).map((c) => c.bare.rps))
  return `At 32 connections a p99 under ${b.targets.p99Ms} ms needs at least 32 / ${b.targets.p99Ms / 1000} s = ${needed} bookings/s ` +
    `(Little's law: every request waits behind the others in flight). The bare program, which does nothing but this SQL, ` +
    `reached ${bare.toFixed(0)}/s here${bare < needed ? ", so on this machine that target is out of reach for any server sending it" : ""}.`
}

/** The results as a markdown table (what bench/README.md shows). */
export const toMarkdown = (b: BookingsBench) => {
  const loads = b.comparisons.flatMap((c) => [c.engine.loadAverage, c.bare.loadAverage])
  return [
    `POST /api/v1/bookings, ${b.durationSeconds} s per cell, run ${b.at.slice(0, 16).replace("T", " ")} UTC on ${b.machine.cpus} cores (${b.machine.cpuModel}), ` +
    `Node ${b.machine.node}, Postgres ${b.machine.postgres}. The ${b.machine.cpus} cores are shared by autocannon, the server under test and Postgres ` +
    `(default settings, synchronous_commit on); 1-minute load average during the run ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}.`,
    "",
    "| scenario | conns | engine req/s | engine p50 / p99 ms | bare req/s | bare p50 / p99 ms | ratio engine/bare req/s | server CPU ms per booking, engine / bare |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...b.comparisons.map((c) =>
      `| ${c.scenario} | ${c.connections} | ${c.engine.rps.toFixed(0)} | ${ms(c.engine.p50)} / ${ms(c.engine.p99)} | ${c.bare.rps.toFixed(0)} | ` +
      `${ms(c.bare.p50)} / ${ms(c.bare.p99)} | ${c.ratio.toFixed(2)} | ${c.engine.serverCpuMsPerBooking.toFixed(2)} / ${c.bare.serverCpuMsPerBooking.toFixed(2)} |`
    ),
    "",
    `Same SQL: ${b.parity.same ? "yes" : "NO"}, ${b.parity.engine.length} statements per booking (traced at the pg driver, one booking through each server). ` +
    `Targets: ratio >= ${b.targets.ratio} in every cell (${b.verdict.ratioMet ? "met" : "missed"}); engine p99 < ${b.targets.p99Ms} ms at 32 connections ` +
    `(${b.verdict.p99Met ? "met" : "missed"}).`,
    "",
    littlesLaw(b),
    ...(b.verdict.failures.length > 0 ? ["", ...b.verdict.failures.map((f) => `- ${f}`)] : [])
  ].join("\n")
}
