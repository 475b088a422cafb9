/**
 * What the engine allocates per booking: V8's sampling heap profiler (every 8 KB allocated, a sample with its
 * stack, kept whether or not a collection has freed it since) in the built server while it takes ALLOC_SECONDS
 * (default 5) of bookings at ALLOC_CONNECTIONS (default 8), spread over 50 times, after a warm-up of 3 s. Prints
 * KB per booking in all, by package (an allocation in native code counts for the JavaScript that called it), and
 * the top sites mapped to the sources through dist/server.mjs.map. Allocations are what the young generation's
 * collector pays for (each scavenge copies what is still alive), and unlike CPU they barely move with the machine's
 * load: a change's effect shows in one run. ALLOC_SURVIVORS=1 counts only what outlived the young generation (was
 * promoted to the old one, where only a mark-compact frees it). `npx tsx bench/alloc.ts [entry.mjs]` (default
 * dist/server.mjs; build first). Not part of `npm run bench`.
 */
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { adminQuery, fixture, generateLoad, spawnEngine, withDb } from "./bookings.ts"
import { sourceMapper } from "./maps.ts"

interface Frame {
  readonly functionName: string
  readonly url: string
  readonly lineNumber: number
  readonly columnNumber: number
}
interface Node {
  readonly callFrame: Frame
  readonly selfSize: number
  readonly children: ReadonlyArray<Node>
}

const entry = process.argv[2] ?? "dist/server.mjs"
const seconds = Number(process.env.ALLOC_SECONDS ?? 5)
const connections = Number(process.env.ALLOC_CONNECTIONS ?? 8)
const file = join(mkdtempSync(join(tmpdir(), "be-alloc-")), "alloc.heapprofile")
const db = `be_bench_alloc_${Date.now()}`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
await adminQuery(`create database ${db}`)
process.env.ALLOC_PROFILE = file
process.env.ALLOC_ENTRY = entry
try {
  const engine = await spawnEngine(withDb(db), undefined, "bench/alloc-probe.mjs")
  const f = await fixture(engine.url, "alloc", 50)
  const load = (duration: number, tag: string) =>
    generateLoad({
      url: engine.url,
      key: f.key,
      offeringId: f.offeringId,
      sessions: f.sessions,
      connections,
      duration,
      tag
    })
  await load(3, "warm")
  await sleep(1500) // the warm-up's mail and events go out first
  process.kill(engine.pid, "SIGUSR1")
  await sleep(300)
  const measured = await load(seconds, "alloc")
  await sleep(1500) // background work of the measured bookings (mail, relay) counts
  process.kill(engine.pid, "SIGUSR2")
  for (let i = 0; i < 100; i++) {
    await sleep(100)
    try {
      readFileSync(file)
      break
    } catch {
      /* not yet written */
    }
  }
  await sleep(300)
  await engine.close()
  const profile = JSON.parse(readFileSync(file, "utf8")) as { head: Node }
  const mapped = sourceMapper()
  const nameOf = (cf: Frame) => {
    const p = cf.url.endsWith("alloc-probe.mjs") ? undefined : mapped(cf.url, cf.lineNumber, cf.columnNumber)
    if (p === undefined) return `${cf.url || "(native)"} ${cf.functionName}`
    return `${p.source}:${p.line} ${cf.functionName || "(anonymous)"}`
  }
  const packageOf = (site: string) =>
    site.startsWith("node:")
      ? site.split(" ")[0]
      : /^(engine|transports|adapters|main)/.test(site)
        ? site.split("/")[0]
        : site.replace(/^((@[^/]+\/)?[^/]+).*$/, "$1")
  const bySite = new Map<string, number>()
  const byPackage = new Map<string, number>()
  let total = 0
  const byOwn = new Map<string, number>()
  const isOwn = (site: string) => /^(engine|transports|adapters|main)/.test(site)
  const walk = (node: Node, caller: string, ownCaller: string) => {
    const own = nameOf(node.callFrame)
    // Native frames (Map, Array, JSON) count for the JavaScript that called them.
    const site = own.startsWith("(native)") || own.startsWith(" ") ? caller : own
    if (node.selfSize > 0) {
      total += node.selfSize
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize)
      byPackage.set(packageOf(site), (byPackage.get(packageOf(site)) ?? 0) + node.selfSize)
      const mine = isOwn(site) ? site : ownCaller
      byOwn.set(mine, (byOwn.get(mine) ?? 0) + node.selfSize)
    }
    for (const c of node.children) walk(c, site, isOwn(site) ? site : ownCaller)
  }
  walk(profile.head, "(root)", "(no project frame)")
  const kb = (b: number) => (b / measured.ok / 1024).toFixed(1).padStart(7)
  console.log(
    `${measured.ok} bookings in ${seconds} s at ${connections} connections (${measured.rps.toFixed(0)} a second), ${entry}`
  )
  console.log(
    `${process.env.ALLOC_SURVIVORS === "1" ? "promoted" : "allocated"}: ${kb(total)} KB per booking (request path and background work)`
  )
  console.log("by package:")
  for (const [k, b] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${kb(b)} KB  ${k}`)
  console.log("top sites:")
  for (const [k, b] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${kb(b)} KB  ${k}`)
  // What each of the project's functions allocates with everything it calls in dependencies (up to its callees of
  // its own): which part of the engine (request path, relay, mail sender) the dependencies' allocations are for.
  console.log("by the nearest frame of the project's own:")
  for (const [k, b] of [...byOwn].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${kb(b)} KB  ${k}`)
} finally {
  await adminQuery(`drop database if exists ${db} with (force)`)
}
