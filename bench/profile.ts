/**
 * Where the engine's CPU goes under booking load: `node --cpu-prof` on the built server (dist/server.mjs), POST
 * /bookings on one time (PROFILE_TIMES=n: round-robin over n) for PROFILE_SECONDS (default 8) at PROFILE_CONNECTIONS
 * (default 1), then the profile's samples mapped back to the sources through dist/server.mjs.map: self time per
 * source file and function, top 25, and inclusive time of the project's own functions, top 30.
 * `npx tsx bench/profile.ts [entry.mjs]` (default dist/server.mjs; needs Postgres, as the other benches; builds nothing:
 * run `npm run build` first).
 * PROFILE_PATH=offering: GET /api/v1/offerings/{id} with the org's key instead (bench/http.ts's request).
 * Not part of `npm run bench`; the .cpuprofile is kept for Chrome's DevTools.
 */
import { mkdtempSync, readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"
import { adminQuery, fixture, generateLoad, spawnEngine, withDb } from "./bookings.ts"
import { reportProfile } from "./cpuprofile.ts"

const seconds = Number(process.env.PROFILE_SECONDS ?? 8)
const connections = Number(process.env.PROFILE_CONNECTIONS ?? 1)
const db = `be_bench_profile_${Date.now()}`
const dir = mkdtempSync(join(tmpdir(), "be-profile-"))
await adminQuery(`create database ${db}`)
try {
  const engine = await spawnEngine(withDb(db), dir, process.argv[2])
  // PROFILE_TIMES=n: round-robin over n times (the bench's spread scenario), else all on one time (hot).
  const times = Number(process.env.PROFILE_TIMES ?? 1)
  const f = await fixture(engine.url, "profile", times)
  const load =
    process.env.PROFILE_PATH === "offering"
      ? await autocannon({
          url: `${engine.url}/api/v1/offerings/${f.offeringId}`,
          connections,
          duration: seconds,
          headers: { authorization: `Bearer ${f.key}` }
        }).then((r) => ({ ok: r["2xx"], rps: r["2xx"] / r.duration }))
      : await generateLoad({
          url: engine.url,
          key: f.key,
          offeringId: f.offeringId,
          sessions: f.sessions,
          connections,
          duration: seconds,
          tag: "profile"
        })
  await engine.close()
  const file = join(dir, readdirSync(dir).find((n) => n.endsWith(".cpuprofile"))!)
  const what = process.env.PROFILE_PATH === "offering" ? "requests" : "bookings"
  console.log(`${load.ok} ${what} in ${seconds} s at ${connections} connection(s) (${load.rps.toFixed(0)} req/s)`)
  const busy = reportProfile(file)
  console.log(
    `= ${(busy / load.ok).toFixed(2)} ms per ${what === "requests" ? "request" : "booking"} at most (start-up and fixture included)`
  )
  console.log(`profile: ${file}`)
} finally {
  await adminQuery(`drop database if exists ${db} with (force)`)
}
