import type { FlashRow } from "./flash.ts"

/** One line per run, grouped by instances, surface and crowd size, the build before next to this one. */
export const flashMarkdown = (rows: ReadonlyArray<FlashRow>) => {
  const head = [
    "| instances | surface | guests | build | round | booked (in db) | sold_out | waitlisted | 503 | other | p50 ms | p99 ms | last answer ms | engine CPU ms / guest | widget reads p50 / p99 ms (n) | reads above the truth | load avg before → after |",
    "| --: | --- | --: | --- | --: | --: | --: | --: | --: | --- | --: | --: | --: | --: | --: | --: | --- |"
  ]
  const sorted = [...rows].sort(
    (a, b) =>
      a.instances - b.instances ||
      a.surface.localeCompare(b.surface) ||
      a.guests - b.guests ||
      a.build.localeCompare(b.build) * -1 ||
      a.round - b.round
  )
  const lines = sorted.map((r) => {
    const other = Object.entries(r.other)
      .map(([k, n]) => `${n}× ${k}`)
      .join(", ")
    const reads = `${r.pollP50} / ${r.pollP99} (${r.polls})`
    const stale = String(r.stalePolls)
    const joins = Object.entries(r.joinsOther ?? {})
      .map(([k, n]) => `${n}× join ${k}`)
      .join(", ")
    return `| ${r.instances} | ${r.surface} | ${r.guests.toLocaleString("en")} | ${r.build} | ${r.round + 1} | ${r.build === "floor" ? "—" : `${r.booked} (${r.bookedInDb})`} | ${r.soldOut} | ${r.waitlisted} | ${r.overloaded} | ${[other, joins].filter((x) => x !== "").join(", ") || "—"} | ${r.p50} | ${r.p99} | ${r.lastMs} | ${r.cpuMsPerGuest} | ${reads} | ${stale} | ${r.loadBefore} → ${r.loadAfter} |`
  })
  return [...head, ...lines].join("\n")
}
