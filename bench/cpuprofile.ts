/**
 * A `node --cpu-prof` profile of the built server read back through its source maps (dist/server.mjs.map and the
 * chunks'): self time per source file and function, and inclusive time of the project's own functions. Used by
 * bench/profile.ts (POST /bookings under autocannon) and bench/flashProfile.ts (a flash crowd).
 */
import { readFileSync } from "node:fs"
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

/** Prints the profile's top functions (self, then inclusive of the project's own); answers the busy ms sampled. */
export const reportProfile = (file: string, selfTop = 25, ownTop = 30, window?: readonly [number, number]) => {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile
  // `window`: only the samples between these ms from the profile's start (the process's start, near enough).
  const at: number[] = []
  let t = 0
  for (const d of profile.timeDeltas) at.push((t += d) / 1000)
  const counted = (i: number) => window === undefined || (at[i] >= window[0] && at[i] <= window[1])
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
    if (name.endsWith(" (idle)") || name.endsWith(" (program)") || !counted(i)) return
    const us = profile.timeDeltas[i] ?? 0
    busy += us
    self.set(name, (self.get(name) ?? 0) + us)
  })
  console.log(`${(busy / 1000).toFixed(0)} ms of samples on the CPU. Self time, top ${selfTop}:`)
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, selfTop))
    console.log(`${(us / 1000).toFixed(0).padStart(6)} ms ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${name}`)
  // Inclusive time of this project's own functions (each counted once per sample, however deep it recurs).
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const own = (name: string) => /^(engine|transports|adapters|main)/.test(name)
  const total = new Map<string, number>()
  profile.samples.forEach((id, i) => {
    const name = where.get(id)!
    if (name.endsWith(" (idle)") || name.endsWith(" (program)") || !counted(i)) return
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
  console.log(`Inclusive time of the project's own functions, top ${ownTop}:`)
  for (const [name, us] of [...total].sort((a, b) => b[1] - a[1]).slice(0, ownTop))
    console.log(`${(us / 1000).toFixed(0).padStart(6)} ms ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${name}`)
  return busy / 1000
}
