/**
 * Diagnostic: where Postgres's CPU goes in a booking. The same-SQL program (bench/bare.ts: key lookup, READ, WRITE)
 * over one pool connection, so one backend does all of it; that backend's CPU (/proc) per booking over PG_SPLIT_N
 * (default 1000) bookings made one after another, first as migrated, then with parts of the write taken away one
 * after another (the places triggers, the secondary indexes of bookings, events, mail and customers), then single
 * statements alone: `select 1` (a round trip's own cost), the key lookup, READ. Figures vary by 0.1-0.2 ms from run
 * to run on a shared machine: read steps, not digits. `npx tsx bench/pg-split.ts`. Not part of `npm run bench`.
 */
import pg from "pg"
import { READ } from "../engine/services/bookings/statements.ts"
import { startBare } from "./bare.ts"
import { adminQuery, cpuMs, fixture, startEngine, withDb } from "./bookings.ts"

const N = Number(process.env.PG_SPLIT_N ?? 1000)
const db = `be_bench_split_${Date.now()}`
await adminQuery(`create database ${db}`)
try {
  const e = await startEngine(withDb(db))
  const f = await fixture(e.url, "split", 8)
  await e.close()
  const admin = new pg.Pool({ connectionString: withDb(db), max: 1 })
  await admin.query(
    `insert into customers (id, org_id, email, name, created_at)
    select gen_random_uuid(), $1, 'seed-' || g || '@x.example', 'S', now() from generate_series(1, 10000) g`,
    [f.orgId]
  )
  await admin.query("vacuum analyze")
  const pool = new pg.Pool({ connectionString: withDb(db), max: 1 })
  const pid = (await pool.query<{ p: number }>("select pg_backend_pid() as p")).rows[0].p
  const bare = await startBare({ databaseUrl: withDb(db), pool })
  let n = 0
  const book = async (session: string) => {
    const res = await fetch(`${bare.url}/api/v1/bookings`, {
      method: "POST",
      headers: { authorization: `Bearer ${f.key}`, "content-type": "application/json" },
      body: JSON.stringify({
        offering_id: f.offeringId,
        session_id: session,
        customer: { email: `g${n++}@x.example`, name: "G" }
      })
    })
    if (res.status !== 201) throw new Error(`${res.status} ${await res.text()}`)
    await res.text()
  }
  const show = (label: string, ms: number, per: string) =>
    console.log(`${label.padEnd(44)} ${ms.toFixed(3)} ms of backend CPU per ${per}`)
  const steps: Array<[string, string | null]> = [
    ["as migrated", null],
    ["as migrated, again", null],
    ["without the booking_places trigger", "alter table bookings disable trigger booking_places"],
    ["and without booking_hold_caps", "alter table bookings disable trigger booking_hold_caps"],
    [
      "and without bookings' secondary indexes",
      `drop index bookings_waiver_token, bookings_octo_uuid,
      bookings_org_reference, bookings_org_start, bookings_offering_live, bookings_session_live, bookings_series_live, bookings_customer,
      bookings_expiring, bookings_choosing, bookings_live_during`
    ],
    ["and without events' secondary indexes", "drop index events_org_type, events_org"],
    ["and without mail_outbox's secondary indexes", "drop index mail_outbox_org_to, mail_outbox_booking"]
  ]
  for (const [i, [label, ddl]] of steps.entries()) {
    if (ddl !== null) await admin.query(ddl)
    const session = f.sessions[i % f.sessions.length]
    for (let k = 0; k < 100; k++) await book(session)
    const before = cpuMs(pid)
    for (let k = 0; k < N; k++) await book(session)
    show(label, (cpuMs(pid) - before) / N, "booking")
  }
  const alone = async (label: string, text: string, values: unknown[], name?: string) => {
    const before = cpuMs(pid)
    for (let k = 0; k < N; k++) await pool.query(name === undefined ? { text, values } : { name, text, values })
    show(label, (cpuMs(pid) - before) / N, "statement")
  }
  await alone("select 1", "select 1", [])
  await alone(
    "the key lookup (unprepared, as bare.ts)",
    `select o.*, k.id as key_id from api_keys k join orgs o on o.id = k.org_id
    where k.hash = $1 and k.revoked_at is null`,
    ["none"]
  )
  await alone("READ (prepared)", READ.text, [f.offeringId, f.orgId, f.sessions[0], null, "g1@x.example"], READ.name)
  await bare.close()
  await admin.end()
} finally {
  await adminQuery(`drop database if exists ${db} with (force)`)
}
