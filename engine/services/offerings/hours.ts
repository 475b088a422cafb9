import type { HoursEntry } from "../../schema/offering.ts"
import type { StoredHours } from "../../store/offerings.ts"
import { DEFAULT_HOURS } from "../../time/hours.ts"
import { parseTimeInput } from "../../time/local.ts"

export type { StoredHours }
export { DEFAULT_HOURS }

/** Input is already checked by the schema, so the parser always answers. */
const full = (t: string) => parseTimeInput(t) ?? t

/** Normalizes to HH:MM:SS, sorted; null when an entry does not end after it starts. */
export const normalizeHours = (hours: ReadonlyArray<HoursEntry>): StoredHours[] | { invalid: number } => {
  const out: StoredHours[] = []
  for (const [i, h] of hours.entries()) {
    const start = full(h.start_time)
    const end = full(h.end_time)
    if (start === "24:00:00" || end <= start) return { invalid: i }
    out.push({ weekday: h.weekday, start_time: start, end_time: end })
  }
  return out.sort((a, b) => a.weekday - b.weekday || a.start_time.localeCompare(b.start_time))
}
