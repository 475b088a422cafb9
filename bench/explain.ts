/** Diagnostic: auto_explain (analyze, nested statements, triggers) of the same-SQL booking statements. */
import pg from "pg"
import { readInput } from "./bare.ts"
import { adminQuery, fixture, startEngine, withDb } from "./bookings.ts"

const db = `be_bench_explain_${Date.now()}`
await adminQuery(`create database ${db}`)
try {
  const e = await startEngine(withDb(db))
  const f = await fixture(e.url, "explain", 5)
  await e.close()
  const pool = new pg.Pool({ connectionString: withDb(db), max: 1 })
  const logs: string[] = []
  pool.on("connect", (c) => {
    c.on("notice", (m) => logs.push(m.message ?? ""))
  })
  const c0 = await pool.connect()
  await c0.query(
    `load 'auto_explain'; set auto_explain.log_min_duration = 0; set auto_explain.log_analyze = on; set auto_explain.log_buffers = on; set auto_explain.log_nested_statements = on; set auto_explain.log_triggers = on; set client_min_messages = log`
  )
  c0.release()
  const { startBare } = await import("./bare.ts")
  // reuse bare's server via its pool: simpler to call over HTTP
  void readInput
  const s = await startBare({ databaseUrl: withDb(db), port: 0, poolSize: 1, pool })
  const N = Number(process.env.N ?? 30)
  for (let i = 0; i < N; i++) {
    if (i === N - 1) logs.length = 0
    const r = await fetch(`${s.url}/api/v1/bookings`, {
      method: "POST",
      headers: { authorization: `Bearer ${f.key}`, "content-type": "application/json" },
      body: JSON.stringify({
        offering_id: f.offeringId,
        session_id: f.sessions[0],
        customer: { email: `x${i}@x.example`, name: "X" }
      })
    })
    await r.text()
  }
  console.log(logs.join("\n\n"))
  await s.close()
} finally {
  await adminQuery(`drop database if exists ${db} with (force)`)
}
