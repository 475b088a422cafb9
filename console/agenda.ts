import { dateIn } from "./format.ts"
import { lapsed } from "./money.ts"
import type { Booking, Offering, TimeSlot, Waiting } from "./types.ts"

/** One line of the agenda: a scheduled time of a class (with its places), or an appointment or rental booking. */
export interface AgendaItem {
  readonly key: string
  readonly starts_at: string
  readonly ends_at: string
  readonly offering: string
  readonly kind: string
  readonly offeringId: string
  /** A class time: its id and places. */
  readonly session?: { id: string; capacity: number; taken: number; left: number; holds: number; waiting: number }
  /** A booking of an hours-based offering. */
  readonly booking?: Booking
}

/**
 * Every time across offerings between two instants, by day in the org's zone: class times with places taken (booked
 * counts confirmed and held places), holds among them and the waitlist; bookings of hours-based offerings as they are.
 */
export const agenda = (
  zone: string,
  offerings: ReadonlyArray<Offering>,
  times: ReadonlyArray<TimeSlot>,
  bookings: ReadonlyArray<Booking>,
  waiting: ReadonlyArray<Waiting>,
  now = Date.now()
): Array<{ date: string; items: AgendaItem[] }> => {
  const byId = new Map(offerings.map((o) => [o.id, o]))
  const holds = new Map<string, number>()
  // A lapsed hold keeps no places (the time's booked leaves it out): it is not counted among the holds either.
  for (const b of bookings)
    if (b.status === "held" && b.session_id !== null && !lapsed(b, now))
      holds.set(b.session_id, (holds.get(b.session_id) ?? 0) + b.quantity)
  const waits = new Map<string, number>()
  for (const w of waiting) if (w.ended_at === null) waits.set(w.session_id, (waits.get(w.session_id) ?? 0) + w.places)
  const items: AgendaItem[] = []
  for (const t of times) {
    if (t.status !== "scheduled") continue
    const o = byId.get(t.offering_id)
    const capacity = t.capacity ?? o?.capacity ?? 0
    const taken = t.booked ?? 0
    items.push({
      key: `s:${t.id}`,
      starts_at: t.starts_at,
      ends_at: t.ends_at,
      offering: o?.name ?? "Offering",
      offeringId: t.offering_id,
      kind: o?.kind ?? "class",
      session: {
        id: t.id,
        capacity,
        taken,
        left: Math.max(0, capacity - taken),
        holds: holds.get(t.id) ?? 0,
        waiting: waits.get(t.id) ?? 0
      }
    })
  }
  for (const b of bookings) {
    if (b.session_id !== null || b.status === "cancelled") continue
    const o = byId.get(b.offering_id)
    items.push({
      key: `b:${b.id}`,
      starts_at: b.starts_at,
      ends_at: b.ends_at,
      offering: b.offering?.name ?? o?.name ?? "Offering",
      offeringId: b.offering_id,
      kind: b.offering?.kind ?? o?.kind ?? "appointment",
      booking: b
    })
  }
  items.sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.offering.localeCompare(b.offering))
  const days = new Map<string, AgendaItem[]>()
  for (const i of items) {
    const d = dateIn(new Date(i.starts_at), zone)
    days.set(d, [...(days.get(d) ?? []), i])
  }
  return [...days].map(([date, items]) => ({ date, items }))
}
