/**
 * Diagnostic: a booking's cost as an org gains guests that the planner's statistics do not know of. One org is given
 * 10,000 customers and the customers table is analyzed while a second org has none; then the second org takes new
 * guests' bookings (spread over 200 times, 8 connections) for STALE_ROUNDS (default 5) rounds of 3 s, with no ANALYZE
 * in between (as between two autovacuum runs). Per round: bookings per second and the entries of customers' indexes
 * read per booking (pg_stat_user_indexes). A build that looks its guests up through the org's listing index reads
 * every customer of the org on each booking once the org outgrows its statistics (migration 0095). Runs the build
 * given (default dist/server.mjs): `npx tsx bench/stale-stats.ts [build.mjs]`, so two builds can be run in turns.
 * Not part of `npm run bench`.
 */

import { randomBytes } from "node:crypto"
import pg from "pg"
import { adminQuery, fixture, generateLoad, resetQuota, spawnEngine, withDb } from "./bookings.ts"

const entry = process.argv[2] ?? "dist/server.mjs"
const rounds = Number(process.env.STALE_ROUNDS ?? 5)
const db = `be_stale_${randomBytes(3).toString("hex")}`
await adminQuery(`create database ${db}`)
const pool = new pg.Pool({ connectionString: withDb(db), max: 1 })
try {
  const engine = await spawnEngine(withDb(db), undefined, entry)
  try {
    const known = await fixture(engine.url, "stale known", 1)
    const grows = await fixture(engine.url, "stale grows", 200)
    await pool.query(
      `insert into customers (id, org_id, email, name, created_at)
      select gen_random_uuid(), $1, 'seed-' || g || '@bench.example', 'Seed', now() from generate_series(1, 10000) g`,
      [known.orgId]
    )
    await pool.query("vacuum analyze customers")
    const read = async () => {
      await pool.query("select pg_stat_clear_snapshot()")
      const { rows } = await pool.query<{ n: string }>(
        "select coalesce(sum(idx_tup_read), 0)::bigint as n from pg_stat_user_indexes where relname = 'customers'"
      )
      return Number(rows[0].n)
    }
    const out: string[] = []
    for (let r = 1; r <= rounds; r++) {
      await resetQuota(pool, grows.orgId)
      const before = await read()
      const res = await generateLoad({
        url: engine.url,
        key: grows.key,
        offeringId: grows.offeringId,
        sessions: grows.sessions,
        connections: 8,
        duration: 3,
        tag: `${db}-${r}`
      })
      await new Promise((resolve) => setTimeout(resolve, 1200)) // statistics reach pg_stat within a second
      out.push(
        `${res.rps.toFixed(0)} req/s, ${(((await read()) - before) / Math.max(1, res.ok)).toFixed(1)} index entries/booking`
      )
    }
    console.log(`${entry}: ${out.join(" | ")}`)
  } finally {
    await engine.close()
  }
} finally {
  await pool.end()
  await adminQuery(`drop database ${db}`)
}
