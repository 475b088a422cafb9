/**
 * Where one instance's CPU goes during a flash crowd: `npx tsx bench/flashProfile.ts` starts the built server
 * (FLASH_PROFILE_ENTRY, default dist/server.mjs) with `node --cpu-prof`, makes the flash bench's fixture, sends one
 * crowd (FLASH_PROFILE_GUESTS, default 3,000; FLASH_PROFILE_SURFACE rest or public) at a time of 100 places with the
 * bench's widget pollers, and prints the answers and the profile's samples taken during the crowd only, mapped back
 * to the sources. Not part of `npm run bench`; builds nothing.
 */
import { mkdtempSync, readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { reportProfile } from "./cpuprofile.ts"
import { crowd } from "./crowd.ts"
import { adminQuery, cpuMs, fixture, newTime, startEngine, stopEngine, summarize, warmKeys } from "./flash.ts"

const entry = process.env.FLASH_PROFILE_ENTRY ?? "dist/server.mjs"
const guests = Number(process.env.FLASH_PROFILE_GUESTS ?? 3000)
const surface = (process.env.FLASH_PROFILE_SURFACE ?? "rest") as "rest" | "public"
const db = `be_bench_flashprof_${Date.now()}`
const dir = mkdtempSync(join(tmpdir(), "be-flashprof-"))
await adminQuery(`create database ${db}`)
try {
  const spawned = Date.now()
  const engine = await startEngine(entry, db, ["--cpu-prof", "--cpu-prof-dir", dir])
  const f = await fixture(engine.url)
  const offering = surface === "rest" ? f.rest : f.pub
  const time = await newTime(engine.url, f.key, offering)
  await adminQuery("vacuum analyze", db)
  await new Promise((r) => setTimeout(r, 500))
  await warmKeys([engine], f, offering)
  const from = Date.now() - spawned
  const cpu0 = cpuMs(engine)
  const result = await crowd({
    urls: [engine.url],
    key: surface === "rest" ? f.key : f.pk,
    surface,
    offeringId: offering,
    sessionId: time.id,
    startsAt: time.starts,
    size: guests,
    tag: `prof-${Date.now()}`,
    waitlist: surface === "public",
    pollers: 20,
    pollKey: f.pk,
    cap: 100
  })
  const cpu = cpuMs(engine) - cpu0
  const to = Date.now() - spawned
  const inDb = await adminQuery(`select booked from sessions where id = '${time.id}'`, db)
  await stopEngine(engine)
  console.log(
    JSON.stringify({
      guests,
      surface,
      bookedInDb: inDb.rows[0].booked,
      cpuMsPerGuest: cpu / guests,
      ...summarize(result)
    })
  )
  const file = join(dir, readdirSync(dir).find((n) => n.endsWith(".cpuprofile"))!)
  reportProfile(file, 40, 40, [from, to])
  console.log(`profile: ${file} (the crowd: ${from} to ${to} ms after the start)`)
} finally {
  await adminQuery(`drop database if exists ${db} with (force)`)
}
