/**
 * The HTTP request path: the engine as `npm start` runs it (dist/server.mjs) against bench/bare-http.ts (node:http + pg
 * serving the same bytes), for GET /api/v1/offerings/{id} and GET /healthz, in alternating rounds over one Postgres
 * database. Per run: req/s (autocannon), CPU ms per request of the server process (process.cpuUsage, read over IPC
 * through bench/cpu-probe.mjs) and the machine's load average. Writes bench/results/http.json.
 *
 *   npx tsx bench/http.ts            (DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *   ROUNDS=5 DURATION=5 CONNECTIONS=10 npx tsx bench/http.ts
 *   ENGINE=/path/to/other/dist/server.mjs OUT=bench/results/http-before.json npx tsx bench/http.ts
 */

import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { loadavg } from "node:os"
import autocannon from "autocannon"
import pg from "pg"

const BASE = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres"
const ROUNDS = Number(process.env.ROUNDS ?? 4)
const DURATION = Number(process.env.DURATION ?? 5)
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10)
const ADMIN = "bench-admin-token-0123456789"
/** Another build of the engine to measure (e.g. an older commit's dist/server.mjs); it is not rebuilt. */
const ENGINE = process.env.ENGINE ?? ""
const OUT = process.env.OUT ?? "bench/results/http.json"

const withDb = (db: string) => Object.assign(new URL(BASE), { pathname: `/${db}` }).toString()
const onServer = async (sql: string) => {
  const c = new pg.Client({ connectionString: BASE })
  await c.connect()
  try {
    await c.query(sql)
  } finally {
    await c.end()
  }
}
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })

interface Server {
  readonly name: "engine" | "bare"
  readonly url: string
  readonly child: ChildProcess
}

const start = async (
  name: Server["name"],
  args: ReadonlyArray<string>,
  env: Record<string, string>
): Promise<Server> => {
  const port = await freePort()
  const child = spawn(process.execPath, ["--import", "./bench/cpu-probe.mjs", ...args], {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: "error" },
    stdio: ["ignore", "ignore", "inherit", "ipc"]
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false
      )
    )
      return { name, url, child }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`${name} did not start`)
}

const cpu = (s: Server) =>
  new Promise<number>((resolve) => {
    s.child.once("message", (u: { user: number; system: number }) => resolve((u.user + u.system) / 1000))
    s.child.send("cpu")
  })

const load = (s: Server, path: string, key: string) =>
  autocannon({
    url: `${s.url}${path}`,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { authorization: `Bearer ${key}` }
  })

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const round3 = (n: number) => Math.round(n * 1000) / 1000

const main = async () => {
  if (ENGINE === "") execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" })
  const db = `be_bench_http_${randomBytes(5).toString("hex")}`
  await onServer(`create database ${db}`)
  const servers: Array<Server> = []
  try {
    const engine = await start("engine", [ENGINE || "dist/server.mjs"], {
      DATABASE_URL: withDb(db),
      ADMIN_TOKEN: ADMIN,
      NATS_URL: "",
      RATE_LIMIT: "1000000",
      MAX_INFLIGHT: "100000"
    })
    servers.push(engine)
    const created = await fetch(`${engine.url}/admin/v1/orgs`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Bench", timezone: "Europe/Amsterdam", currency: "EUR" })
    }).then((r) => r.json() as Promise<{ api_key: { key: string } }>)
    const key = created.api_key.key
    const offering = await fetch(`${engine.url}/api/v1/offerings`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Yoga", kind: "class", capacity: 12 })
    }).then((r) => r.json() as Promise<{ id: string }>)
    const bare = await start("bare", ["--import", "tsx", "bench/bare-http.ts"], { DATABASE_URL: withDb(db) })
    servers.push(bare)
    const paths = { offering: `/api/v1/offerings/${offering.id}`, healthz: "/healthz" } as const
    const bodies = await Promise.all(
      [engine, bare].map((s) =>
        fetch(`${s.url}${paths.offering}`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.text())
      )
    )
    const parity = bodies[0] === bodies[1]

    const runs: Array<{
      round: number
      server: string
      path: string
      rps: number
      requests: number
      non2xx: number
      cpu_ms_per_request: number
      loadavg_1m: number
    }> = []
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? [engine, bare] : [bare, engine]
      for (const [path, url] of Object.entries(paths)) {
        for (const s of order) {
          const before = await cpu(s)
          const result = await load(s, url, key)
          const used = (await cpu(s)) - before
          const requests = result.requests.total
          runs.push({
            round,
            server: s.name,
            path,
            rps: round3(result.requests.average),
            requests,
            non2xx: result.non2xx,
            cpu_ms_per_request: round3(used / Math.max(1, requests)),
            loadavg_1m: round3(loadavg()[0])
          })
          console.log(JSON.stringify(runs[runs.length - 1]))
        }
      }
    }
    const summary = Object.fromEntries(
      Object.keys(paths).map((path) => {
        const of = (server: string) => runs.filter((r) => r.path === path && r.server === server)
        const ratios = of("engine").map((e) => e.rps / (of("bare").find((b) => b.round === e.round)?.rps ?? NaN))
        return [
          path,
          {
            engine_rps: median(of("engine").map((r) => r.rps)),
            bare_rps: median(of("bare").map((r) => r.rps)),
            median_ratio_engine_to_bare: round3(median(ratios)),
            engine_cpu_ms_per_request: median(of("engine").map((r) => r.cpu_ms_per_request)),
            bare_cpu_ms_per_request: median(of("bare").map((r) => r.cpu_ms_per_request))
          }
        ]
      })
    )
    const out = {
      at: new Date().toISOString(),
      engine: ENGINE || "dist/server.mjs",
      rounds: ROUNDS,
      duration_s: DURATION,
      connections: CONNECTIONS,
      parity,
      loadavg_min_max: [Math.min(...runs.map((r) => r.loadavg_1m)), Math.max(...runs.map((r) => r.loadavg_1m))],
      summary,
      runs
    }
    writeFileSync(OUT, `${JSON.stringify(out, null, 2)}\n`)
    console.log(JSON.stringify({ parity, summary }, null, 2))
  } finally {
    for (const s of servers) s.child.kill("SIGTERM")
    await new Promise((r) => setTimeout(r, 1000))
    await onServer(`drop database if exists ${db} with (force)`).catch(() => {})
  }
}

await main()
