/**
 * Where the engine's CPU goes under booking load: `node --cpu-prof` on the built server (dist/server.mjs), POST
 * /bookings on one time (PROFILE_TIMES=n: round-robin over n) for PROFILE_SECONDS (default 8) at PROFILE_CONNECTIONS
 * (default 1), then the profile's samples mapped back to the sources through dist/server.mjs.map: self time per
 * source file and function, top 25, and inclusive time of the project's own functions, top 30.
 * `npx tsx bench/profile.ts` (needs Postgres, as the other benches; builds nothing: run `npm run build` first).
 * PROFILE_PATH=offering: GET /api/v1/offerings/{id} with the org's key instead (bench/http.ts's request).
 * Not part of `npm run bench`; the .cpuprofile is kept for Chrome's DevTools.
 */

import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"
import { adminQuery, fixture, generateLoad, spawnEngine, withDb } from "./bookings.ts"
import { sourceMapper } from "./maps.ts"

interface Frame {
  readonly functionName: string
  readonly url: string
  readonly lineNumber: number
  readonly columnNumber: number
}
interface Profile {
  readonly nodes: ReadonlyArray<{
    readonly id: number
    readonly callFrame: Frame
    readonly children?: ReadonlyArray<number>
  }>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

const seconds = Number(process.env.PROFILE_SECONDS ?? 8)
const connections = Number(process.env.PROFILE_CONNECTIONS ?? 1)
const db = `be_bench_profile_${Date.now()}`
const dir = mkdtempSync(join(tmpdir(), "be-profile-"))
await adminQuery(`create database ${db}`)
try {
  const engine = await spawnEngine(withDb(db), dir)
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
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile
  const mapped = sourceMapper()
  const where = new Map<number, string>()
  for (const n of profile.nodes) {
    const cf = n.callFrame
    const m = mapped(cf.url, cf.lineNumber, cf.columnNumber)
    // The project's own files by path; a dependency by its package.
    const source =
      m === undefined
        ? cf.url || "(native)"
        : /^(engine|transports|adapters|main)/.test(m.source)
          ? m.source
          : m.source.replace(/^((@[^/]+\/)?[^/]+).*$/, "$1")
    where.set(n.id, `${source} ${cf.functionName || "(anonymous)"}`)
  }
  const self = new Map<string, number>()
  let busy = 0
  profile.samples.forEach((id, i) => {
    const name = where.get(id)!
    if (name.endsWith(" (idle)") || name.endsWith(" (program)")) return
    const us = profile.timeDeltas[i] ?? 0
    busy += us
    self.set(name, (self.get(name) ?? 0) + us)
  })
  const what = process.env.PROFILE_PATH === "offering" ? "requests" : "bookings"
  console.log(
    `${load.ok} ${what} in ${seconds} s at ${connections} connection(s) (${load.rps.toFixed(0)} req/s); ${(busy / 1000).toFixed(0)} ms of samples on the CPU, start-up and fixture included`
  )
  console.log(
    `= ${(busy / 1000 / load.ok).toFixed(2)} ms per ${what === "requests" ? "request" : "booking"} at most. Self time, top 25:`
  )
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`${(us / 1000).toFixed(0).padStart(6)} ms ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${name}`)
  // Inclusive time of this project's own functions (each counted once per sample, however deep it recurs).
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const own = (name: string) => /^(engine|transports|adapters|main)/.test(name)
  const total = new Map<string, number>()
  profile.samples.forEach((id, i) => {
    const name = where.get(id)!
    if (name.endsWith(" (idle)") || name.endsWith(" (program)")) return
    const us = profile.timeDeltas[i] ?? 0
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = where.get(at)!
      if (own(n) && !seen.has(n)) {
        seen.add(n)
        total.set(n, (total.get(n) ?? 0) + us)
      }
    }
  })
  console.log("Inclusive time of the project's own functions, top 30:")
  for (const [name, us] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`${(us / 1000).toFixed(0).padStart(6)} ms ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${name}`)
  console.log(`profile: ${file}`)
} finally {
  await adminQuery(`drop database if exists ${db} with (force)`)
}
