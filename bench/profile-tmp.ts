import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { adminQuery, fixture, generateLoad, spawnEngine, withDb } from "./bookings.ts"
const db = `be_prof_${Date.now()}`
await adminQuery(`create database ${db}`)
const dir = mkdtempSync(join(tmpdir(), "prof-"))
try {
  const e = await spawnEngine(withDb(db), dir)
  const f = await fixture(e.url, "prof", 5)
  await generateLoad({ url: e.url, key: f.key, offeringId: f.offeringId, sessions: [f.sessions[0]], connections: Number(process.env.C ?? 1), duration: 8, tag: "p" }).then((r) => console.log(JSON.stringify(r).slice(0, 300)))
  await e.close()
} finally {
  await adminQuery(`drop database if exists ${db} with (force)`)
}
const file = join(dir, readdirSync(dir)[0])
console.log(file)
