import type { AgendaItem } from "./agenda.ts"
import { api } from "./api.ts"
import { shortDay } from "./calendarGrid.ts"
import { time } from "./format.ts"
import type { Booking } from "./types.ts"

/**
 * Moving from the calendar, by drag or by the Move dialog: a booking through bookings.move (the same rules and answers
 * as anywhere: the guest is mailed), a time nobody booked through sessions.update. Each answers what to say after.
 */

export const guestOf = (b: Booking) => b.customer?.name ?? b.reference

const at = (iso: string, zone: string) => `${shortDay(iso, zone)} ${time(iso, zone)}`

export const moveBooking = async (
  b: Booking,
  to: { session_id: string } | { starts_at: string },
  zone: string
): Promise<string> => {
  const moved = await api.post<Booking>(`/bookings/${b.id}/move`, to)
  return `Moved ${guestOf(b)}'s booking to ${at(moved.starts_at, zone)}. The guest was mailed the new time.`
}

export const moveTime = async (item: AgendaItem, starts: Date, zone: string): Promise<string> => {
  const length = Date.parse(item.ends_at) - Date.parse(item.starts_at)
  const ends = new Date(starts.getTime() + length)
  const moved = await api.patch<{ starts_at: string }>(`/sessions/${item.session?.id}`, {
    starts_at: starts.toISOString(),
    ends_at: ends.toISOString()
  })
  return `Moved ${item.offering} to ${at(moved.starts_at, zone)}.`
}

/** Why a time with bookings stays where it is, and what to do instead. */
export const bookedTimeStays = (item: AgendaItem, zone: string) => {
  const n = item.session?.taken ?? 0
  return `${item.offering} at ${at(item.starts_at, zone)} has ${n} ${n === 1 ? "place" : "places"} booked, so the time cannot be moved: move its bookings one by one (open the time) or cancel it.`
}

/** A refusal of a move in words: the API's message, said after what it means for the desk. */
export const moveRefusal = (code: string | undefined, message: string) => {
  const lead: Record<string, string> = {
    sold_out: "That time is full.",
    closed: "That time is closed.",
    time_not_available: "That time is not free.",
    outside_booking_window: "That time is outside the offering's booking window.",
    session_booked: "That time has bookings now, so it stays.",
    course_booking: "A course booking moves with its course, not one time."
  }
  const first = code === undefined ? undefined : lead[code]
  return first === undefined ? message : `${first} ${message}`
}
