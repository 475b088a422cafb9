import { closureOver } from "./closures.ts"
import { isOffered, type Rules, type Slot } from "./slot.ts"

export type SessionInput = {
  id: string
  starts_at: Date
  ends_at: Date
  capacity: number
  booked: number
  status: string
}

/** Times on a calendar (classes, and appointments on their calendar), one slot per scheduled session. */
export const sessionSlots = (rules: Rules, sessions: ReadonlyArray<SessionInput>): Array<Slot> => {
  const offered = isOffered(rules)
  return sessions
    .filter((s) => s.status === "scheduled" && s.capacity - s.booked > 0 && offered(s.starts_at))
    .filter((s) => closureOver(rules.closures ?? [], rules.zone, s.starts_at, s.ends_at) === undefined)
    .sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime())
    .map((s) => ({
      starts_at: s.starts_at.toISOString(),
      ends_at: s.ends_at.toISOString(),
      capacity: s.capacity,
      remaining: s.capacity - s.booked,
      session_id: s.id
    }))
}
