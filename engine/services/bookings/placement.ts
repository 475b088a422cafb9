import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { courseSessionsToCome, hoursSlots, rentalSlots, type Rules } from "../../availability/index.ts"
import { type BadRequest, badRequest, type Conflict, conflict } from "../../schema/errors.ts"
import { DEFAULT_HOURS } from "../../time/hours.ts"
import { addDays, toLocal } from "../../time/local.ts"
import type { OfferingRow } from "../offerings/row.ts"
import { capacityQueries, type LockedTime } from "./capacity.ts"

export interface Want {
  readonly starts_at?: Date | undefined
  readonly session_id?: string | undefined
  readonly series_id?: string | undefined
  readonly periods?: number | undefined
  readonly quantity: number
}

export interface Placement {
  readonly session_id: string | null
  readonly series_id: string | null
  readonly starts_at: Date
  readonly ends_at: Date
  readonly periods: number
}

const MINUTE_MS = 60_000
const soldOut = (what: string) => conflict("sold_out", `not enough places left ${what}`)

/**
 * Where a booking goes, decided under the lock of what it consumes, with capacity checked there.
 * `exclude` is the booking itself when it moves or is confirmed again after lapsing.
 */
export const placementOf = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const cap = yield* capacityQueries

  const rulesOf = (o: OfferingRow, zone: string, now: Date, day: string): Rules => ({
    now, zone, from: addDays(day, -1), to: day, min_notice_minutes: o.min_notice_minutes, max_advance_days: o.max_advance_days, active: true
  })

  const inWindow = (o: OfferingRow, start: Date, now: Date) =>
    start.getTime() >= now.getTime() + o.min_notice_minutes * MINUTE_MS && start.getTime() <= now.getTime() + o.max_advance_days * 86_400_000
      ? Effect.void
      : Effect.fail(conflict("outside_booking_window", `bookings for this offering open ${o.max_advance_days} day(s) ahead and close ${o.min_notice_minutes} minute(s) before the start`))

  const findTime = (o: OfferingRow, want: Want) =>
    Effect.gen(function*() {
      if (want.session_id === undefined && want.starts_at === undefined) return yield* badRequest("invalid_session_id", "session_id (or starts_at of one of its times) is required")
      const rows = yield* sql<{ id: string }>`select id from sessions where offering_id = ${o.id} and state = 'scheduled'
        and ${want.session_id !== undefined ? sql`id = ${want.session_id}` : sql`starts_at = ${want.starts_at!}`}`
      if (rows.length === 0) return yield* conflict("time_not_available", "no scheduled time of this offering matches")
      return rows[0].id
    })

  const course = (o: OfferingRow, want: Want, zone: string, now: Date) =>
    Effect.gen(function*() {
      if (want.series_id === undefined) return yield* badRequest("invalid_series_id", "a course is booked whole: send series_id")
      const ids = yield* sql<{ id: string }>`select id from sessions where series_id = ${want.series_id} and offering_id = ${o.id} and state = 'scheduled'`
      const times = yield* (ids.length === 0 ? Effect.succeed([] as LockedTime[]) : cap.lockTimes(ids.map((r) => r.id)))
      const toCome = courseSessionsToCome(rulesOf(o, zone, now, toLocal(now, zone).date), times.map((t) => ({ ...t, capacity: t.cap, booked: 0, status: t.state })))
      if (toCome.length === 0) return yield* conflict("time_not_available", "this course has no times to come")
      yield* inWindow(o, toCome[0].starts_at, now)
      for (const t of toCome) {
        if ((yield* cap.seatsTaken(t, now, null)) + want.quantity > t.cap) return yield* soldOut(`in the course time at ${t.starts_at.toISOString()}`)
      }
      return { session_id: toCome[0].id, series_id: want.series_id, starts_at: toCome[0].starts_at, ends_at: toCome[toCome.length - 1].ends_at, periods: 1 }
    })

  const onCalendar = (o: OfferingRow, want: Want, now: Date, exclude: string | null) =>
    Effect.gen(function*() {
      const [t] = yield* cap.lockTimes([yield* findTime(o, want)])
      // Found before its lock: a sessions.cancel may have committed in between.
      if (t.state !== "scheduled") return yield* conflict("time_not_available", "this time was cancelled")
      yield* inWindow(o, t.starts_at, now)
      const taken = o.kind === "appointment" ? (yield* cap.bookingsAt(t, now, exclude)) + 1 : (yield* cap.seatsTaken(t, now, exclude)) + want.quantity
      if (taken > t.cap) return yield* soldOut("at this time")
      return { session_id: t.id, series_id: null, starts_at: t.starts_at, ends_at: t.ends_at, periods: 1 }
    })

  /** Weekly hours and rentals: the start must be one the availability offers; the offering row is locked. */
  const onHours = (o: OfferingRow, want: Want, zone: string, now: Date, exclude: string | null) =>
    Effect.gen(function*() {
      const start = want.starts_at
      if (start === undefined) return yield* badRequest("invalid_starts_at", "starts_at is required")
      const periods = o.kind === "rental" ? want.periods ?? 1 : 1
      if (periods > o.max_periods) return yield* badRequest("invalid_periods", `periods: at most ${o.max_periods}`)
      yield* inWindow(o, start, now)
      const day = toLocal(start, zone).date
      const input = { ...rulesOf(o, zone, now, day), to: day, hours: o.hours ?? DEFAULT_HOURS, duration_minutes: o.duration_minutes * periods, slot_interval_minutes: o.slot_interval_minutes ?? o.duration_minutes, buffer_minutes: 0, capacity: 1, busy: [] }
      const offered = (o.kind === "rental" ? rentalSlots(input) : hoursSlots(input)).some((s) => s.starts_at === start.toISOString())
      if (!offered) return yield* conflict("time_not_available", "starts_at is not a bookable time of this offering")
      const end = new Date(start.getTime() + o.duration_minutes * periods * MINUTE_MS)
      const places = o.kind === "appointment" ? 1 : want.quantity
      if ((yield* cap.peakOver(o, start, end, now, exclude)) + places > o.capacity) return yield* soldOut("at this time")
      return { session_id: null, series_id: null, starts_at: start, ends_at: end, periods }
    })

  const place = (o: OfferingRow, want: Want, zone: string, now: Date, exclude: string | null = null) => {
    const placed: Effect.Effect<Placement, BadRequest | Conflict | SqlError> = o.kind === "rental" || (o.kind === "appointment" && o.schedule === "hours")
      ? onHours(o, want, zone, now, exclude)
      : o.course
      ? course(o, want, zone, now)
      : onCalendar(o, want, now, exclude)
    return Effect.catchTag(placed, "SqlError", Effect.die)
  }

  return { place } as const
})
