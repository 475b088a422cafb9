/**
 * Two or more builds of the engine against each other, for a change to the write path: `npx tsx bench/ab.ts A.mjs B.mjs [C.mjs ...]`
 * (bundles made with scripts/bundle.mjs, e.g. of two commits: copy dist/server.mjs with dist/chunks/ beside it; paths inside
 * this checkout so they find node_modules).
 * Each runs as its own process over its own fresh database and org; POST /bookings on one hot time at 1 and 8
 * connections and spread over the times at 8, in alternating rounds (who goes first alternates), AB_SECONDS (default
 * 3) each, AB_ROUNDS (default 5) rounds; AB_CELLS picks the cells (default hot:1,hot:8,spread:8). Per measurement req/s, p99 and the server's CPU per booking (/proc, background
 * work included: the window ends once its mail and events are done); the ratios to A are medians of per-round ratios.
 * A hot cell books a fresh time each round. AB_TIMES (default 50) sets the number of times, AB_SEED=n puts n bookings
 * on record first, AB_ANALYZE=1 analyzes the databases once after set-up (see bench/README.md on statistics).
 * Not part of `npm run bench`.
 */
import os from "node:os"
import pg from "pg"
import {
  adminQuery,
  counterTables,
  cpuMs,
  fixture,
  generateLoad,
  median,
  resetQuota,
  seedBookings,
  spawnEngine,
  unrelayedSql,
  withDb
} from "./bookings.ts"

const entries = process.argv.slice(2)
if (entries.length < 2) throw new Error("usage: npx tsx bench/ab.ts A.mjs B.mjs [C.mjs ...]")
const NAMES = "ABCDEFGH"
if (entries.length > NAMES.length) throw new Error(`at most ${NAMES.length} builds`)
const seconds = Number(process.env.AB_SECONDS ?? 3)
const rounds = Number(process.env.AB_ROUNDS ?? 5)
const tag = `${Date.now()}`
// One side after another: set up at once, seven engines under a loaded machine could pass DB_TIMEOUT_MS.
const sides: Array<Awaited<ReturnType<typeof setUp>>> = []
for (const [i, entry] of entries.entries()) sides.push(await setUp(entry, i))
async function setUp(entry: string, i: number) {
  const database = `be_bench_ab_${tag}_${i}`
  await adminQuery(`create database ${database}`)
  const server = await spawnEngine(withDb(database), undefined, entry)
  const pool = new pg.Pool({ connectionString: withDb(database), max: 1 })
  const made = await fixture(server.url, `ab${i}`, Number(process.env.AB_TIMES ?? 50) + 1)
  const f = { ...made, sessions: made.sessions.slice(0, -1) }
  // AB_SEED=n: n bookings on record (on a time of their own) before measuring.
  if (Number(process.env.AB_SEED ?? 0) > 0)
    await seedBookings(pool, made, made.sessions[made.sessions.length - 1], Number(process.env.AB_SEED))
  // AB_ANALYZE=1: vacuum analyze once here, as bench/bookings.ts does after seeding (the planner's statistics then
  // describe these few rows, however much the run adds; autovacuum is off on the bench server).
  if (process.env.AB_ANALYZE === "1")
    await pool.query(`vacuum analyze ${await counterTables(pool)}, bookings, customers, mail_outbox, events`)
  return { name: NAMES[i], entry, database, server, pool, f }
}
const settle = async (pool: pg.Pool) => {
  const unrelayed = await unrelayedSql(pool)
  for (let i = 0; i < 100; i++) {
    const { rows } = await pool.query<{
      n: number
    }>(`select (select count(*)::int from mail_outbox where sent_at is null and next_at <= now())
      + ${unrelayed} as n`)
    if (rows[0].n === 0) return
    await new Promise((r) => setTimeout(r, 50))
  }
}
const cells = (process.env.AB_CELLS ?? "hot:1,hot:8,spread:8").split(",").map((c) => {
  const [scenario, n] = c.split(":")
  if ((scenario !== "hot" && scenario !== "spread") || !(Number(n) > 0))
    throw new Error(`AB_CELLS: ${c} is not hot:N or spread:N`)
  return [scenario, Number(n)] as const
})
const out: Array<Record<string, unknown>> = []
let hot = 0
try {
  for (const [scenario, connections] of cells) {
    const ratios = new Map<string, Array<{ rps: number; cpu: number; p99: number }>>()
    for (let r = 0; r < rounds + 1; r++) {
      hot++
      // Who goes first rotates, and every other round the order runs backwards.
      const rotated = [...sides.slice(r % sides.length), ...sides.slice(0, r % sides.length)]
      const order = r % 2 === 0 ? rotated : rotated.reverse()
      const got = new Map<string, { rps: number; cpu: number; p99: number }>()
      for (const s of order) {
        await settle(s.pool)
        // The org's monthly quota (scale plan) would refuse a long run's later rounds: each round starts the month anew.
        await resetQuota(s.pool)
        const before = cpuMs(s.server.pid)
        // A fresh hot time each round: a faster build must not run into the time's 10,000 seats before the slower one.
        const sessions = scenario === "hot" ? [s.f.sessions[hot % s.f.sessions.length]] : s.f.sessions
        const res = await generateLoad({
          url: s.server.url,
          key: s.f.key,
          offeringId: s.f.offeringId,
          sessions,
          connections,
          duration: seconds,
          tag: `${s.name}${scenario}${connections}r${r}`
        })
        await settle(s.pool)
        const cpu = (cpuMs(s.server.pid) - before) / Math.max(1, res.ok)
        got.set(s.name, { rps: res.rps, cpu, p99: res.p99 })
        if (r > 0)
          console.log(
            `${scenario.padEnd(6)} c=${String(connections).padStart(2)} r${r} ${s.name} ${res.rps.toFixed(0).padStart(5)} req/s  p99 ${res.p99} ms  cpu ${cpu.toFixed(2)} ms/booking  non-2xx ${res.non2xx + res.errors}  load ${os.loadavg()[0].toFixed(1)}`
          )
      }
      // The first round (r = 0) warms both up and is not counted.
      if (r > 0) {
        const base = got.get("A")!
        for (const s of sides.slice(1)) {
          const x = got.get(s.name)!
          ratios.set(s.name, [
            ...(ratios.get(s.name) ?? []),
            { rps: x.rps / base.rps, cpu: x.cpu / base.cpu, p99: x.p99 / base.p99 }
          ])
        }
      }
    }
    for (const s of sides.slice(1)) {
      const rs = ratios.get(s.name)!
      const row = {
        scenario,
        connections,
        build: s.name,
        rps_over_a: +median(rs.map((x) => x.rps)).toFixed(2),
        cpu_over_a: +median(rs.map((x) => x.cpu)).toFixed(2),
        p99_over_a: +median(rs.map((x) => x.p99)).toFixed(2)
      }
      out.push(row)
      console.log(JSON.stringify(row))
    }
  }
  console.log(
    `${sides.map((s) => `${s.name} = ${s.entry}`).join(", ")}; ${rounds} rounds of ${seconds} s; medians of per-round ratios against A`
  )
  console.table(out)
} finally {
  for (const s of sides) {
    await s.server.close()
    await s.pool.end()
    await adminQuery(`drop database if exists ${s.database} with (force)`)
  }
}
