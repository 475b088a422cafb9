/**
 * What DB_PREPARED_STATEMENTS=0 costs: POST /api/v1/bookings against two engines in this process over one database,
 * one with the hot paths' statements named (prepared once per connection), one with them unnamed (parsed and planned
 * each time, as PgBouncer before 1.21 in transaction mode needs). Rounds alternate which goes first; each round is
 * BENCH_PREPARED_SECONDS (3) of 8 callers booking one time each. Prints bookings/s and p50 per engine, medians.
 * `npx tsx bench/prepared.ts` (DATABASE_URL: the server, default postgres://postgres@127.0.0.1:5432). Not part of
 * `npm run bench`.
 */
import { adminQuery, fixture, median, startEngine, withDb } from "./bookings.ts"

const SECONDS = Number(process.env.BENCH_PREPARED_SECONDS ?? 3)
const ROUNDS = Number(process.env.BENCH_PREPARED_ROUNDS ?? 4)
const CALLERS = 8

const round = async (url: string, key: string, offeringId: string, sessionId: string) => {
  const end = Date.now() + SECONDS * 1000
  const times: Array<number> = []
  let n = 0
  const caller = async () => {
    while (Date.now() < end) {
      const started = performance.now()
      const res = await fetch(`${url}/api/v1/bookings`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          offering_id: offeringId,
          session_id: sessionId,
          customer: { email: `p${n++}@x.example`, name: "P" }
        })
      })
      await res.text()
      if (res.status === 201) times.push(performance.now() - started)
    }
  }
  await Promise.all(Array.from({ length: CALLERS }, caller))
  return { perSecond: times.length / SECONDS, p50: median(times) }
}

const db = `be_bench_prepared_${Date.now()}`
await adminQuery(`create database ${db}`)
try {
  const named = await startEngine(withDb(db), { dbPreparedStatements: true })
  const unnamed = await startEngine(withDb(db), { dbPreparedStatements: false })
  const f = await fixture(named.url, "prepared", 2 * ROUNDS)
  type Round = { perSecond: number; p50: number }
  const results: Record<"named" | "unnamed", Array<Round>> = { named: [], unnamed: [] }
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? (["named", "unnamed"] as const) : (["unnamed", "named"] as const)
    for (const [i, which] of order.entries()) {
      const engine = which === "named" ? named : unnamed
      results[which].push(await round(engine.url, f.key, f.offeringId, f.sessions[2 * r + i]))
    }
  }
  for (const which of ["named", "unnamed"] as const) {
    const rs = results[which]
    console.log(
      `${which}: ${median(rs.map((x) => x.perSecond)).toFixed(0)} bookings/s, p50 ${median(rs.map((x) => x.p50)).toFixed(1)} ms (${ROUNDS} rounds of ${SECONDS} s, ${CALLERS} callers)`
    )
  }
  const ratio = median(results.unnamed.map((u, i) => u.perSecond / results.named[i].perSecond))
  console.log(`unnamed / named bookings per second: ${ratio.toFixed(2)}`)
  await named.close()
  await unnamed.close()
} finally {
  await adminQuery(`drop database if exists ${db} with (force)`)
}
