// Loaded as the entry of an engine bench/alloc.ts measures: starts V8's sampling heap profiler on SIGUSR1 (every
// allocation counted, those a scavenge or a mark-compact collected included; with ALLOC_SURVIVORS=1 only those that
// outlived the young generation's collections, i.e. were promoted), writes the profile to ALLOC_PROFILE on SIGUSR2,
// then runs the built server (ALLOC_ENTRY, default dist/server.mjs) as `npm start` does.
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { pathToFileURL } from "node:url"

const session = new Session()
session.connect()
await session.post("HeapProfiler.enable")
process.on("SIGUSR1", () => {
  void session
    .post("HeapProfiler.startSampling", {
      samplingInterval: 8192,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: process.env.ALLOC_SURVIVORS !== "1"
    })
    .then(() => process.stderr.write("alloc: sampling\n"))
})
process.on("SIGUSR2", () => {
  void session.post("HeapProfiler.stopSampling").then(({ profile }) => {
    writeFileSync(process.env.ALLOC_PROFILE, JSON.stringify(profile))
    process.stderr.write("alloc: written\n")
  })
})
await import(pathToFileURL(process.env.ALLOC_ENTRY ?? "dist/server.mjs").href)
