export interface FlashRow {
  readonly build: "before" | "after" | "floor" | "floorpg" | "floorfx" | "floorrt"
  readonly round: number
  readonly instances: number
  readonly surface: "rest" | "public"
  readonly guests: number
  readonly booked: number
  readonly bookedInDb: number
  /** The engines' CPU (user + system, all instances) over the crowd, per guest. */
  readonly cpuMsPerGuest: number
  readonly soldOut: number
  readonly waitlisted: number
  /** Answers to the joins that were not a place on the waitlist. */
  readonly joinsOther: Record<string, number>
  readonly overloaded: number
  readonly other: Record<string, number>
  readonly p50: number
  readonly p99: number
  readonly lastMs: number
  readonly polls: number
  readonly pollP50: number
  readonly pollP99: number
  readonly stalePolls: number
  readonly loadBefore: string
  readonly loadAfter: string
}

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
