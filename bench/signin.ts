/**
 * Asking for a sign-in link (POST /auth/v1/links): the answer's time for an email on a team against one that is not.
 * The real app (AppLive over a fresh Postgres database, the system clock, so the mail sender runs as in production)
 * serves it over loopback; one org with BENCH_ROUNDS x BENCH_PER_ROUND members. In each round BENCH_PER_ROUND
 * requests for members' emails and as many for unknown ones, one at a time, in alternating order (known first in even
 * rounds, unknown first in odd ones), each email once (the limit per email stays out of it) and each request from its
 * own address through X-Forwarded-For (TRUST_PROXY=127.0.0.1: the limit per address too). Timed end to end.
 *
 * `npx tsx bench/signin.ts` (or `npm run bench -- signin`) prints JSON and writes bench/results/signin.json.
 * Env: DATABASE_URL (server; default postgres://postgres@127.0.0.1:5432/test), BENCH_ROUNDS (default 10),
 * BENCH_PER_ROUND (default 30), BENCH_KEEP_DB=1 (keep the database).
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

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10)
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 30)
const WARM = 20
const PUBLIC_URL = "http://127.0.0.1"
const serverUrl = () => process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test"
const withDb = (name: string) => Object.assign(new URL(serverUrl()), { pathname: `/${name}` }).toString()
const onServer = async (q: string) => {
  const c = new pg.Client({ connectionString: serverUrl() })
  await c.connect()
  try {
    await c.query(q)
  } finally {
    await c.end()
  }
}

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2
}
const ms = (n: number) => Math.round(n * 100) / 100

export const run = async () => {
  const name = `be_bench_signin_${randomBytes(5).toString("hex")}`
  await onServer(`create database ${name}`)
  const config = testConfig({ clock: "system", publicUrl: PUBLIC_URL, trustProxy: "127.0.0.1" })
  const layer = AppLive(config, PostgresLive(withDb(name), 10)).pipe(
    Layer.provideMerge(NodeServerLive({ port: 0, host: "127.0.0.1" })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Error))
  )
  const runtime = ManagedRuntime.make(layer as Layer.Layer<HttpServer.HttpServer>)
  try {
    const server = await runtime.runPromise(HttpServer.HttpServer)
    const url = `http://127.0.0.1:${server.address._tag === "TcpAddress" ? server.address.port : 0}`
    const call = jsonClient(url)
    const admin = <T>(path: string, body: unknown) => call<T>(ADMIN_TOKEN, "POST", `/admin/v1${path}`, body)
    const org = await admin<NewOrg>("/orgs", { name: "Bench", timezone: "UTC", currency: "EUR" })
    const total = ROUNDS * PER_ROUND + WARM
    const members: Array<string> = []
    for (let i = 0; i < total; i++) {
      const email = `member${i}@bench.test`
      await admin(`/orgs/${org.org.id}/members`, { email, role: i % 2 === 0 ? "staff" : "owner" })
      members.push(email)
    }
    let sent = 0
    const ask = async (email: string) => {
      sent++
      const address = `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`
      const started = performance.now()
      const res = await fetch(`${url}/auth/v1/links`, {
        method: "POST",
        headers: { origin: PUBLIC_URL, "content-type": "application/json", "x-forwarded-for": address },
        body: JSON.stringify({ email })
      })
      await res.arrayBuffer()
      const took = performance.now() - started
      if (res.status !== 202) throw new Error(`POST /auth/v1/links: ${res.status}`)
      return took
    }
    let k = 0
    let u = 0
    const known = () => ask(members[k++])
    const unknown = () => ask(`stranger${u++}@bench.test`)
    for (let i = 0; i < WARM; i++) {
      await known()
      await unknown()
    }
    const rounds: Array<{ first: "known" | "unknown"; known_ms: number; unknown_ms: number }> = []
    const all = { known: [] as Array<number>, unknown: [] as Array<number> }
    for (let r = 0; r < ROUNDS; r++) {
      const first = r % 2 === 0 ? "known" : "unknown"
      const times = { known: [] as Array<number>, unknown: [] as Array<number> }
      for (const kind of first === "known" ? (["known", "unknown"] as const) : (["unknown", "known"] as const))
        for (let i = 0; i < PER_ROUND; i++) times[kind].push(await (kind === "known" ? known() : unknown()))
      all.known.push(...times.known)
      all.unknown.push(...times.unknown)
      rounds.push({ first, known_ms: ms(median(times.known)), unknown_ms: ms(median(times.unknown)) })
    }
    const out = {
      database: "postgres",
      rounds: ROUNDS,
      per_round: PER_ROUND,
      loadavg: os.loadavg().map((n) => Math.round(n * 100) / 100),
      cpus: os.cpus().length,
      median_known_ms: ms(median(all.known)),
      median_unknown_ms: ms(median(all.unknown)),
      median_of_round_differences_ms: ms(median(rounds.map((r) => r.known_ms - r.unknown_ms))),
      by_round: rounds
    }
    await mkdir(new URL("./results/", import.meta.url), { recursive: true })
    await writeFile(new URL("./results/signin.json", import.meta.url), `${JSON.stringify(out, null, 2)}\n`)
    return out
  } finally {
    await runtime.dispose()
    if (process.env.BENCH_KEEP_DB !== "1") await onServer(`drop database if exists ${name} with (force)`)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) run().then((r) => console.log(JSON.stringify(r, null, 2)))
