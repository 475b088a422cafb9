import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { peakLoads } from "../../availability/load.ts"
import type { OfferingRow } from "../offerings/row.ts"

const MINUTE_MS = 60_000

export interface LockedTime {
  readonly id: string
  readonly offering_id: string
  readonly series_id: string | null
  readonly starts_at: Date
  readonly ends_at: Date
  readonly state: string
  readonly cap: number
}

/**
 * Capacity is decided under the lock of what a booking consumes: the session rows (classes, courses,
 * calendar appointments) or the offering row (weekly hours, rentals). Counts confirmed bookings and holds
 * that still keep their place; `exclude` leaves out the booking being moved or re-confirmed.
 */
export const capacityQueries = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const live = (now: Date) => sql`b.keeps_place and (b.status = 'confirmed' or b.expires_at > ${now})`

  /** Locks times in a fixed order (start, id) so course and single bookings never deadlock. */
  const lockTimes = (ids: ReadonlyArray<string>) =>
    sql<LockedTime>`select s.id, s.offering_id, s.series_id, s.starts_at, s.ends_at, s.state, coalesce(s.capacity, o.capacity)::int as cap
      from sessions s join offerings o on o.id = s.offering_id
      where s.id in ${sql.in(ids)} order by s.starts_at, s.id for update of s`

  /** Seats taken in a class time (its own bookings plus course bookings holding a seat in it). */
  const seatsTaken = (t: LockedTime, now: Date, exclude: string | null) =>
    sql<{ n: number }>`select (
        coalesce((select sum(b.quantity) from bookings b where b.session_id = ${t.id} and b.series_id is null and ${live(now)}
          and b.id is distinct from ${exclude}), 0)
      + coalesce((select sum(b.quantity) from bookings b where ${t.series_id}::uuid is not null and b.series_id = ${t.series_id}
          and b.starts_at <= ${t.starts_at} and ${live(now)} and b.id is distinct from ${exclude}), 0))::int as n`.pipe(Effect.map((r) => r[0].n))

  /** Bookings at a calendar appointment time (each takes one parallel place). */
  const bookingsAt = (t: LockedTime, now: Date, exclude: string | null) =>
    sql<{ n: number }>`select count(*)::int as n from bookings b where b.session_id = ${t.id} and ${live(now)}
      and b.id is distinct from ${exclude}`.pipe(Effect.map((r) => r[0].n))

  /** Most places in use at once over [start, end), each booking widened by the offering's buffer. */
  const peakOver = (o: OfferingRow, start: Date, end: Date, now: Date, exclude: string | null) =>
    Effect.gen(function*() {
      const pad = o.buffer_minutes * MINUTE_MS
      const longest = o.duration_minutes * Math.max(1, o.max_periods) * MINUTE_MS
      const busy = yield* sql<{ starts_at: Date; ends_at: Date; quantity: number }>`
        select b.starts_at, b.ends_at, ${o.kind === "appointment" ? sql`1` : sql`b.quantity`} as quantity from bookings b
        where b.offering_id = ${o.id} and ${live(now)} and b.id is distinct from ${exclude}
          and b.starts_at < ${new Date(end.getTime() + pad)} and b.starts_at > ${new Date(start.getTime() - pad - longest)}
          and b.ends_at > ${new Date(start.getTime() - pad)}`
      return peakLoads(busy, pad, [start.getTime()], end.getTime() - start.getTime())[0] ?? 0
    })

  return { lockTimes, seatsTaken, bookingsAt, peakOver } as const
})
