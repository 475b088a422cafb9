/**
 * Diagnostic: what a booking writes in Postgres, the engine against the floor. Each books for ROWS_SECONDS (default
 * 4) at 8 connections, spread over 50 times (after the engine's first process has booked for 2 s), over its own database (the floor's a copy of the engine's with the
 * `booking_places` trigger off, as in bench/bookings.ts). For the engine the window ends once its mail is sent and its
 * events relayed (the background work counts) and its process has exited, so that its backends have reported their
 * statistics. Per booking: rows inserted, updated (of which HOT: no index touched) and deleted per table
 * (pg_stat_user_tables), and bytes of WAL (pg_current_wal_lsn). Unlike CPU these counts do not move with the
 * machine's load. `npx tsx bench/rows.ts` (build first). Not part of `npm run bench`.
 */
import pg from "pg"
import { startFloor } from "./bare-minimal.ts"
import { adminQuery, fixture, generateLoad, settle, spawnEngine, withDb } from "./bookings.ts"

const seconds = Number(process.env.ROWS_SECONDS ?? 4)
const tag = `${Date.now()}`
const dbE = `be_bench_rows_${tag}`
const dbF = `be_bench_rows_${tag}_floor`

interface Counts {
  readonly wal: string
  readonly tables: Record<string, { i: number; u: number; h: number; d: number }>
}
const counts = async (database: string): Promise<Counts> => {
  const pool = new pg.Pool({ connectionString: withDb(database), max: 1 })
  try {
    const wal = (await pool.query<{ l: string }>("select pg_current_wal_lsn()::text as l")).rows[0].l
    const rows = (
      await pool.query<{ relname: string; i: string; u: string; h: string; d: string }>(
        "select relname, n_tup_ins as i, n_tup_upd as u, n_tup_hot_upd as h, n_tup_del as d from pg_stat_user_tables"
      )
    ).rows
    return {
      wal,
      tables: Object.fromEntries(
        rows.map((r) => [r.relname, { i: Number(r.i), u: Number(r.u), h: Number(r.h), d: Number(r.d) }])
      )
    }
  } finally {
    await pool.end()
  }
}
const walBytes = async (from: string, to: string) =>
  Number((await adminQuery(`select pg_wal_lsn_diff('${to}', '${from}')::bigint as d`)).rows[0].d)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface PerBooking {
  readonly bookings: number
  readonly walKb: number
  readonly tables: Record<string, { ins: number; upd: number; hot: number; del: number }>
}
const perBooking = async (a: Counts, b: Counts, bookings: number): Promise<PerBooking> => {
  const tables: PerBooking["tables"] = {}
  for (const [name, t] of Object.entries(b.tables)) {
    const o = a.tables[name] ?? { i: 0, u: 0, h: 0, d: 0 }
    const d = {
      ins: (t.i - o.i) / bookings,
      upd: (t.u - o.u) / bookings,
      hot: (t.h - o.h) / bookings,
      del: (t.d - o.d) / bookings
    }
    if (d.ins + d.upd + d.del >= 0.005) tables[name] = d
  }
  return { bookings, walKb: (await walBytes(a.wal, b.wal)) / bookings / 1024, tables }
}

await adminQuery(`create database ${dbE}`)
try {
  const engine = await spawnEngine(withDb(dbE))
  const f = await fixture(engine.url, "rows", 50)
  const first = new pg.Pool({ connectionString: withDb(dbE), max: 1 })
  await generateLoad({
    url: engine.url,
    key: f.key,
    offeringId: f.offeringId,
    sessions: f.sessions,
    connections: 8,
    duration: 2,
    tag: `warm${tag}`
  })
  await settle(first, dbE, true)
  await first.end()
  await engine.close()
  await adminQuery(`create database ${dbF} template ${dbE}`)
  const poolF = new pg.Pool({ connectionString: withDb(dbF), max: 1 })
  await poolF.query("alter table bookings disable trigger booking_places")
  await poolF.query(
    `insert into customers (id, org_id, email, name, created_at) select gen_random_uuid(), id, 'floor@bench.example', 'Floor Guest', now() from orgs`
  )
  await poolF.end()

  // Statistics reach pg_stat_user_tables when a backend reports them (at exit at the latest): each count is taken
  // with no backend of the program left, and each program is a new process, measured from its start to its exit.
  await sleep(1000)
  const e0 = await counts(dbE)
  const e2 = await spawnEngine(withDb(dbE))
  const er = await generateLoad({
    url: e2.url,
    key: f.key,
    offeringId: f.offeringId,
    sessions: f.sessions,
    connections: 8,
    duration: seconds,
    tag: `e${tag}`
  })
  const pool = new pg.Pool({ connectionString: withDb(dbE), max: 1 })
  await settle(pool, dbE, true)
  await pool.end()
  await e2.close()
  await sleep(1000)
  const engineRows = await perBooking(e0, await counts(dbE), er.ok)

  const f0 = await counts(dbF)
  const floor = await startFloor({ databaseUrl: withDb(dbF) })
  const fr = await generateLoad({
    url: floor.url,
    key: f.key,
    offeringId: f.offeringId,
    sessions: f.sessions,
    connections: 8,
    duration: seconds,
    tag: `f${tag}`
  })
  await floor.close()
  await sleep(1000)
  const floorRows = await perBooking(f0, await counts(dbF), fr.ok)

  const fmt = (t: PerBooking["tables"][string] | undefined) =>
    t === undefined
      ? "-"
      : `${t.ins.toFixed(2)} / ${(t.upd - t.hot).toFixed(2)} / ${t.hot.toFixed(2)} / ${t.del.toFixed(2)}`
  console.log(
    `Per booking, ${seconds} s at 8 connections spread over 50 times: engine ${engineRows.bookings} bookings, floor ${floorRows.bookings}`
  )
  console.log(`| table | engine: inserted / updated (not HOT) / updated (HOT) / deleted | floor |`)
  console.log(`|---|---|---|`)
  for (const name of [...new Set([...Object.keys(engineRows.tables), ...Object.keys(floorRows.tables)])].sort()) {
    console.log(`| ${name} | ${fmt(engineRows.tables[name])} | ${fmt(floorRows.tables[name])} |`)
  }
  console.log(`| WAL, KB | ${engineRows.walKb.toFixed(2)} | ${floorRows.walKb.toFixed(2)} |`)
} finally {
  if (process.env.ROWS_KEEP !== "1") await adminQuery(`drop database if exists ${dbF} with (force)`)
  if (process.env.ROWS_KEEP !== "1") await adminQuery(`drop database if exists ${dbE} with (force)`)
}
