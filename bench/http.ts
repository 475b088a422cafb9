/**
 * GET /api/v1/offerings/{id} (the read target: at least 0.5x a bare program): the engine as `npm start` runs it
 * (dist/server.mjs, its own process) against bench/bare-http.ts (node:http + pg, its own process, serving the same
 * bytes after the work no server can skip: the key's hash looked up and the offering read by id and org, both
 * prepared, on every request). Optionally a third server, another build of the engine (BENCH_HTTP_BEFORE=<path to its
 * dist/server.mjs>), for before/after in the same run. All over one Postgres database, one org, one key, one offering.
 *
 * Each cell (8 and 32 connections) is measured in ROUNDS: every server once per round for SECONDS, who goes first
 * rotating, after one warm-up per server; the ratios are the medians of the per-round ratios, so load from elsewhere on
 * the shared machine falls on all alike. Per measurement: req/s (2xx only), p50/p99 latency (autocannon), the server
 * process's CPU per request (/proc/<pid>/stat) and the 1-minute load average.
 *
 * Env: DATABASE_URL (server; default postgres://postgres@127.0.0.1:5432), BENCH_HTTP_SECONDS (default 4),
 * BENCH_HTTP_ROUNDS (default 4), BENCH_HTTP_CONNECTIONS (default "8,32"), BENCH_HTTP_BEFORE, BENCH_NO_BUILD=1.
 * Results: bench/results/http.{json,md} and bench/README.md (`npm run bench -- http`).
 */
import { execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import os from "node:os"
import { fileURLToPath } from "node:url"
import autocannon from "autocannon"
import { adminQuery, cpuMs, fixture, median, type ServerProcess, spawnBare, spawnEngine, withDb } from "./bookings.ts"

const TARGET_RATIO = 0.5
const root = fileURLToPath(new URL("..", import.meta.url))
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 4)
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 4)
const CONNECTIONS = (process.env.BENCH_HTTP_CONNECTIONS ?? "8,32").split(",").map(Number)
const BEFORE = process.env.BENCH_HTTP_BEFORE ?? ""

type Target = "engine" | "bare" | "before"

export interface HttpMeasurement {
  readonly target: Target
  readonly connections: number
  readonly round: number
  readonly rps: number
  readonly ok: number
  readonly non2xx: number
  /** Every status answered, with its count. */
  readonly statuses: Record<string, number>
  readonly p50: number
  readonly p99: number
  readonly cpuMsPerRequest: number
  readonly loadAverage: number
}

interface Figures {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly cpuMs: number
}

export interface HttpCell {
  readonly connections: number
  readonly engine: Figures
  readonly bare: Figures
  readonly before?: Figures
  /** Medians of the per-round ratios of req/s. */
  readonly ratio: number
  readonly ratioBefore?: number
  readonly afterOverBefore?: number
  readonly loadAverage: { readonly min: number; readonly max: number }
}

export interface HttpBench {
  readonly at: string
  readonly machine: {
    readonly cpus: number
    readonly cpuModel: string
    readonly node: string
    readonly postgres: string
  }
  readonly seconds: number
  readonly rounds: number
  readonly before: string | null
  /** The engine's and the bare program's bodies for the offering are equal. */
  readonly parity: boolean
  readonly cells: ReadonlyArray<HttpCell>
  readonly measurements: ReadonlyArray<HttpMeasurement>
  readonly failures: ReadonlyArray<string>
}

const r2 = (n: number) => Math.round(n * 100) / 100
const log = (line: string) => process.stderr.write(`${line}\n`)

const measure = async (server: ServerProcess, path: string, key: string, connections: number, seconds: number) => {
  const cpuBefore = cpuMs(server.pid)
  const loadAverage = r2(os.loadavg()[0])
  const result = await autocannon({
    url: `${server.url}${path}`,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${key}` }
  })
  const used = cpuMs(server.pid) - cpuBefore
  const ok = result["2xx"]
  return {
    rps: r2(ok / result.duration),
    ok,
    non2xx: result.non2xx,
    statuses: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, st]) => [code, Number(st.count)])
    ),
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMsPerRequest: r2(used / Math.max(1, result.requests.total)),
    loadAverage
  }
}

const figures = (ms: ReadonlyArray<HttpMeasurement>): Figures => ({
  rps: r2(median(ms.map((m) => m.rps))),
  p50: median(ms.map((m) => m.p50)),
  p99: median(ms.map((m) => m.p99)),
  cpuMs: r2(median(ms.map((m) => m.cpuMsPerRequest)))
})

const ratioOf = (ms: ReadonlyArray<HttpMeasurement>, a: Target, b: Target) =>
  r2(
    median(
      [...new Set(ms.map((m) => m.round))].map(
        (round) =>
          (ms.find((m) => m.round === round && m.target === a)?.rps ?? NaN) /
          (ms.find((m) => m.round === round && m.target === b)?.rps ?? NaN)
      )
    )
  )

export const run = async (): Promise<HttpBench> => {
  if (process.env.BENCH_NO_BUILD !== "1")
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" })
  const db = `be_bench_http_${randomBytes(5).toString("hex")}`
  await adminQuery(`create database ${db}`)
  const servers: Array<ServerProcess> = []
  try {
    const engine = await spawnEngine(withDb(db))
    servers.push(engine)
    const f = await fixture(engine.url, "http", 0)
    const bare = await spawnBare("bare-http.ts", withDb(db))
    servers.push(bare)
    const targets: Array<[Target, ServerProcess]> = [
      ["engine", engine],
      ["bare", bare]
    ]
    if (BEFORE !== "") {
      const before = await spawnEngine(withDb(db), undefined, BEFORE)
      servers.push(before)
      targets.push(["before", before])
    }
    const path = `/api/v1/offerings/${f.offeringId}`
    const bodies = await Promise.all(
      [engine, bare].map((s) =>
        fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${f.key}` } }).then((r) => r.text())
      )
    )
    const parity = bodies[0] === bodies[1]
    log(`parity: ${parity}`)
    for (const [, s] of targets) await measure(s, path, f.key, CONNECTIONS[0] ?? 8, 4)
    const measurements: Array<HttpMeasurement> = []
    for (const connections of CONNECTIONS) {
      for (let round = 1; round <= ROUNDS; round++) {
        const shift = (round - 1) % targets.length
        for (const [target, s] of [...targets.slice(shift), ...targets.slice(0, shift)]) {
          const m = { target, connections, round, ...(await measure(s, path, f.key, connections, SECONDS)) }
          measurements.push(m)
          log(JSON.stringify(m))
        }
      }
    }
    const cells = CONNECTIONS.map((connections): HttpCell => {
      const ms = measurements.filter((m) => m.connections === connections)
      const of = (t: Target) => figures(ms.filter((m) => m.target === t))
      const loads = ms.map((m) => m.loadAverage)
      return {
        connections,
        engine: of("engine"),
        bare: of("bare"),
        ratio: ratioOf(ms, "engine", "bare"),
        ...(BEFORE === ""
          ? {}
          : {
              before: of("before"),
              ratioBefore: ratioOf(ms, "before", "bare"),
              afterOverBefore: ratioOf(ms, "engine", "before")
            }),
        loadAverage: { min: Math.min(...loads), max: Math.max(...loads) }
      }
    })
    const version = (await adminQuery<{ v: string }>("select current_setting('server_version') as v")).rows[0].v
    return {
      at: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? "unknown",
        node: process.version,
        postgres: version
      },
      seconds: SECONDS,
      rounds: ROUNDS,
      before: BEFORE === "" ? null : BEFORE,
      parity,
      cells,
      measurements,
      failures: [
        ...(parity ? [] : ["the engine's and the bare program's bodies differ"]),
        ...cells
          .filter((c) => c.ratio < TARGET_RATIO)
          .map((c) => `${c.connections} connections: engine/bare ${c.ratio} < ${TARGET_RATIO}`),
        ...measurements
          .filter((m) => m.non2xx > 0)
          .map(
            (m) =>
              `${m.target} answered ${m.non2xx} non-2xx (${JSON.stringify(m.statuses)}; ${m.connections} connections, round ${m.round})`
          )
      ]
    }
  } finally {
    for (const s of servers) await s.close()
    if (process.env.BENCH_KEEP_DB !== "1")
      await adminQuery(`drop database if exists ${db} with (force)`).catch(() => {})
  }
}

const ms = (n: number) => (n >= 10 ? n.toFixed(0) : n.toFixed(1))

export const toMarkdown = (b: HttpBench) => {
  const loads = b.cells.flatMap((c) => [c.loadAverage.min, c.loadAverage.max])
  const before = b.before !== null
  return [
    `GET /api/v1/offerings/{id}, ${b.rounds} alternating rounds of ${b.seconds} s per cell, run ${b.at.slice(0, 16).replace("T", " ")} UTC on ` +
      `${b.machine.cpus} cores (${b.machine.cpuModel}), Node ${b.machine.node}, Postgres ${b.machine.postgres}; 1-minute load average ` +
      `${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}. Medians over rounds; ratios are medians of per-round ratios. ` +
      `Same bytes: ${b.parity ? "yes" : "NO"}.` +
      (before ? ` "before": \`${b.before}\`.` : ""),
    "",
    `| conns | engine req/s | engine p50 / p99 ms | bare req/s | bare p50 / p99 ms | **engine/bare** | CPU ms/request engine / bare |${before ? " before req/s | before/bare | engine/before |" : ""} load avg |`,
    `|---:|---:|---:|---:|---:|---:|---:|${before ? "---:|---:|---:|" : ""}---:|`,
    ...b.cells.map(
      (c) =>
        `| ${c.connections} | ${c.engine.rps.toFixed(0)} | ${ms(c.engine.p50)} / ${ms(c.engine.p99)} | ${c.bare.rps.toFixed(0)} | ` +
        `${ms(c.bare.p50)} / ${ms(c.bare.p99)} | **${c.ratio.toFixed(2)}** | ${c.engine.cpuMs.toFixed(2)} / ${c.bare.cpuMs.toFixed(2)} |` +
        (c.before !== undefined
          ? ` ${c.before.rps.toFixed(0)} | ${c.ratioBefore?.toFixed(2)} | ${c.afterOverBefore?.toFixed(2)} |`
          : "") +
        ` ${c.loadAverage.min}-${c.loadAverage.max} |`
    ),
    "",
    `Target: engine/bare >= ${TARGET_RATIO}.${b.failures.length === 0 ? " Met in every cell." : " Missed:"}`,
    ...(b.failures.length > 0 ? ["", ...b.failures.map((f) => `- ${f}`)] : [])
  ].join("\n")
}
