/**
 * Counts every statement the engine (in this process, from source) sends over 20 bookings made 200 ms apart and 3 s
 * after, request path and background work (relay, mail sender, scheduler) alike, grouped by text.
 * `npx tsx bench/statements.ts`. Not part of `npm run bench`.
 */
import pg from "pg"
import { adminQuery, fixture, startEngine, withDb } from "./bookings.ts"

const db = `be_bench_stmts_${Date.now()}`
await adminQuery(`create database ${db}`)
try {
  const e = await startEngine(withDb(db))
  const f = await fixture(e.url, "stmts", 5)
  await new Promise((r) => setTimeout(r, 2000))
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }
  const original = proto.query
  const seen: string[] = []
  proto.query = function (this: object, ...args: unknown[]) {
    const q = args[0]
    const text =
      typeof q === "string" ? q : ((q as { text?: string; name?: string }).name ?? (q as { text?: string }).text)
    seen.push(String(text).replace(/\s+/g, " ").trim().slice(0, 90))
    return original.apply(this, args)
  }
  const N = Number(process.env.STMTS_BOOKINGS ?? 20)
  const gap = Number(process.env.STMTS_GAP_MS ?? 200)
  for (let i = 0; i < N; i++) {
    const res = await fetch(`${e.url}/api/v1/bookings`, {
      method: "POST",
      headers: { authorization: `Bearer ${f.key}`, "content-type": "application/json" },
      body: JSON.stringify({
        offering_id: f.offeringId,
        session_id: f.sessions[0],
        customer: { email: `s${i}@x.example`, name: "S" }
      })
    })
    await res.text()
    if (gap > 0) await new Promise((r) => setTimeout(r, gap))
  }
  await new Promise((r) => setTimeout(r, 3000))
  proto.query = original
  const by = new Map<string, number>()
  for (const s of seen) by.set(s, (by.get(s) ?? 0) + 1)
  console.log(
    `statements sent over ${N} bookings (${gap} ms apart) + 3 s: ${seen.length} = ${(seen.length / N).toFixed(1)} per booking`
  )
  for (const [k, v] of [...by.entries()].sort((a, b) => b[1] - a[1])) console.log(String(v).padStart(4), k)
  await e.close()
} finally {
  await adminQuery(`drop database if exists ${db} with (force)`)
}
