import type { LocalDate } from "../time/local.ts"
import type { Repeat } from "../time/recurrence.ts"
import { closureOver } from "./closures.ts"
import { bookableStarts, isOffered, type Rules, type Slot } from "./slot.ts"

export type CourseSession = { starts_at: Date; ends_at: Date; capacity: number; booked: number; status: string }

/** `ends_on: null` with a repeat means the entry never ends, so it is not sold as a course. */
export type CourseEntry = {
  id: string
  repeat: Repeat
  ends_on?: LocalDate | null
  sessions: ReadonlyArray<CourseSession>
}

/** A course's times to come: scheduled and starting no sooner than the notice allows, in order. */
export const courseSessionsToCome = <S extends CourseSession>(rules: Rules, sessions: ReadonlyArray<S>): Array<S> => {
  const { earliest } = bookableStarts(rules)
  return sessions
    .filter((s) => s.status === "scheduled" && s.starts_at.getTime() >= earliest)
    .filter((s) => closureOver(rules.closures ?? [], rules.zone, s.starts_at, s.ends_at) === undefined)
    .sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime())
}

/** One slot per calendar entry that ends, from its first time to come to its last. */
export const courseSlots = (rules: Rules, entries: ReadonlyArray<CourseEntry>): Array<Slot> => {
  const offered = isOffered(rules)
  const slots: Array<Slot> = []
  for (const entry of entries) {
    if (entry.repeat !== "none" && entry.ends_on === null) continue
    const toCome = courseSessionsToCome(rules, entry.sessions)
    if (toCome.length === 0 || !offered(toCome[0].starts_at)) continue
    const remaining = Math.min(...toCome.map((s) => s.capacity - s.booked))
    if (remaining <= 0) continue
    slots.push({
      starts_at: toCome[0].starts_at.toISOString(),
      ends_at: toCome[toCome.length - 1].ends_at.toISOString(),
      capacity: Math.min(...toCome.map((s) => s.capacity)),
      remaining,
      series_id: entry.id,
      sessions: toCome.length,
      repeat: entry.repeat
    })
  }
  return slots.sort((a, b) => a.starts_at.localeCompare(b.starts_at))
}
