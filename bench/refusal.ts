/**
 * What one answer costs an instance at steady state, apart from connecting: `npx tsx bench/refusal.ts [entry|floor]...`
 * (default: dist/server.mjs and the floor). For each build in turn (alternating order, REFUSAL_ROUNDS rounds, 3 unless
 * set), a fresh engine over its own database (Postgres: DATABASE_URL's server, as the flash bench), one time of 100
 * places booked full, then REFUSAL_SECONDS (4) of autocannon at 16 keep-alive connections: POST /api/v1/bookings of the
 * full time (every answer 409 sold_out), or with REFUSAL_MODE=get GET /api/v1/offerings/{id}. Prints the engine's CPU
 * (utime + stime) per request and the median over the rounds. The floor is bench/flashFloor.mjs (a bare node:http
 * server answering every POST 409). REFUSAL_PROFILE=<dir> starts the engines with `node --cpu-prof` into that dir.
 * Not part of `npm run bench`; builds nothing.
 */
import autocannon from "autocannon"
import { adminQuery, cpuMs, fixture, newTime, startEngine, startFloor, stopEngine, warmKeys } from "./flash.ts"

const entries = process.argv.length > 2 ? process.argv.slice(2) : ["dist/server.mjs", "floor"]
const rounds = Number(process.env.REFUSAL_ROUNDS ?? 3)
const seconds = Number(process.env.REFUSAL_SECONDS ?? 4)
const get = process.env.REFUSAL_MODE === "get"
const profile = process.env.REFUSAL_PROFILE
const perRequest: Record<string, Array<number>> = {}

const fire = (url: string, key: string, body: string | undefined, duration: number) =>
  autocannon({
    url,
    method: body === undefined ? "GET" : "POST",
    connections: 16,
    duration,
    body,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }
  })

for (let round = 0; round < rounds; round++) {
  for (const entry of round % 2 === 0 ? entries : [...entries].reverse()) {
    const db = `bench_refusal_${Date.now()}`
    const floor = entry === "floor"
    if (!floor) await adminQuery(`create database ${db}`)
    const engine = floor
      ? await startFloor()
      : await startEngine(entry, db, profile ? ["--cpu-prof", "--cpu-prof-dir", profile] : [])
    try {
      let url = `${engine.url}/api/v1/bookings`
      let key = "floor"
      let body: string | undefined = JSON.stringify({ offering_id: "x", customer: { email: "a@b.co", name: "A" } })
      if (!floor) {
        const f = await fixture(engine.url)
        const time = await newTime(engine.url, f.key, f.rest)
        await warmKeys([engine], f, f.rest)
        for (let i = 0; i < 100; i++) {
          const res = await fetch(url, {
            method: "POST",
            headers: { authorization: `Bearer ${f.key}`, "content-type": "application/json" },
            body: JSON.stringify({
              offering_id: f.rest,
              session_id: time.id,
              customer: { email: `g${i}@example.com`, name: "G" }
            })
          })
          if (res.status !== 201) throw new Error(`booking ${i}: ${res.status} ${await res.text()}`)
        }
        key = f.key
        body = JSON.stringify({
          offering_id: f.rest,
          session_id: time.id,
          customer: { email: "late@example.com", name: "Late" }
        })
        if (get) {
          url = `${engine.url}/api/v1/offerings/${f.rest}`
          body = undefined
        }
      }
      await fire(url, key, body, 1)
      const before = cpuMs(engine)
      const out = await fire(url, key, body, seconds)
      const us = ((cpuMs(engine) - before) * 1000) / out.requests.total
      ;(perRequest[entry] ??= []).push(us)
      console.log(
        JSON.stringify({
          entry,
          round,
          requests: out.requests.total,
          "2xx": out["2xx"],
          non2xx: out.non2xx,
          cpuUsPerRequest: Math.round(us)
        })
      )
    } finally {
      await stopEngine(engine)
      if (!floor) await adminQuery(`drop database if exists ${db} with (force)`)
    }
  }
}
for (const [entry, v] of Object.entries(perRequest)) {
  const sorted = [...v].sort((a, b) => a - b)
  console.log(`${entry}: median ${Math.round(sorted[Math.floor(sorted.length / 2)])} µs of CPU per request`)
}
process.exit(0)
