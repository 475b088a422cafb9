import { SqlClient, type Statement } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import {
  type ClosureSpan,
  closureOver,
  closureRefusing,
  courseSessionsToCome,
  hoursSlots,
  type Rules,
  rentalSlots
} from "../../availability/index.ts"
import {
  Closed,
  InvalidPeriods,
  InvalidSeriesId,
  InvalidSessionId,
  InvalidStartsAt,
  OutsideBookingWindow,
  SoldOut,
  TimeNotAvailable
} from "../../errors/index.ts"
import { closuresOver } from "../../store/closures.ts"
import { DEFAULT_HOURS } from "../../time/hours.ts"
import { addDays, toLocal } from "../../time/local.ts"
import { periodEnd } from "../../time/period.ts"
import type { OfferingRow } from "../offerings/row.ts"

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

/** A time on a calendar as the booking path reads it: its places taken (`booked`) out of `cap`. */
export interface TimeRow {
  readonly id: string
  readonly starts_at: Date
  readonly ends_at: Date
  readonly state: string
  readonly booked: number
  readonly cap: number
}

const MINUTE_MS = 60_000
const DAY_MS = 86_400_000
export const soldOut = (what = "at this time") => new SoldOut({ message: `not enough places left ${what}` })
const unavailable = (message: string) => new TimeNotAvailable({ message: message })
const closed = (c: ClosureSpan) =>
  new Closed({ message: c.note === null ? "closed at this time" : `closed: ${c.note}` })

/** The closures near a time that apply to an offering (a day either side, for the zone's dates). */
export const closuresNear = (sql: SqlClient.SqlClient, offeringId: string, start: Date, end: Date) =>
  closuresOver(sql, offeringId, new Date(start.getTime() - DAY_MS), new Date(end.getTime() + DAY_MS))

/** Places a booking takes at its time: seats for a class, items for a rental, one for an appointment. */
export const placesOf = (o: Pick<OfferingRow, "kind">, quantity: number) => (o.kind === "appointment" ? 1 : quantity)

/** Rentals and appointments on weekly hours have no time rows: their starts come from the hours. */
export const onHours = (o: Pick<OfferingRow, "kind" | "schedule">) =>
  o.kind === "rental" || (o.kind === "appointment" && o.schedule === "hours")

/** What placing a booking reads of its offering. */
export type PlacedOffering = Pick<
  OfferingRow,
  | "id"
  | "kind"
  | "schedule"
  | "course"
  | "min_notice_minutes"
  | "max_advance_days"
  | "max_periods"
  | "hours"
  | "duration_minutes"
  | "slot_interval_minutes"
>

const rulesOf = (o: PlacedOffering, zone: string, now: Date, day: string): Rules => ({
  now,
  zone,
  from: addDays(day, -1),
  to: day,
  min_notice_minutes: o.min_notice_minutes,
  max_advance_days: o.max_advance_days,
  active: true
})

const inWindow = (o: PlacedOffering, start: Date, now: Date) =>
  start.getTime() >= now.getTime() + o.min_notice_minutes * MINUTE_MS &&
  start.getTime() <= now.getTime() + o.max_advance_days * 86_400_000
    ? Effect.void
    : Effect.fail(
        new OutsideBookingWindow({
          message: `bookings for this offering open ${o.max_advance_days} day(s) ahead and close ${o.min_notice_minutes} minute(s) before the start`
        })
      )

/**
 * One time of a calendar (not a course), as read: it must be scheduled and inside the booking window. Whether it
 * has room is decided where the booking is written (the bookings_places trigger); `room` only refuses early.
 */
export const calendarPlacement = (
  o: PlacedOffering,
  t: TimeRow | undefined,
  now: Date,
  near: { readonly closures: ReadonlyArray<ClosureSpan>; readonly zone: string } = { closures: [], zone: "UTC" }
) =>
  Effect.gen(function* () {
    if (t === undefined) return yield* unavailable("no scheduled time of this offering matches")
    if (t.state !== "scheduled") return yield* unavailable("this time was cancelled")
    const shut = closureOver(near.closures, near.zone, t.starts_at, t.ends_at)
    if (shut !== undefined) return yield* closed(shut)
    yield* inWindow(o, t.starts_at, now)
    return {
      session_id: t.id,
      series_id: null,
      starts_at: t.starts_at,
      ends_at: t.ends_at,
      periods: 1
    } satisfies Placement
  })

/** Weekly hours and rentals: the start must be one the availability offers (capacity aside). */
export const hoursPlacement = (
  o: PlacedOffering,
  want: Want,
  zone: string,
  now: Date,
  closures: ReadonlyArray<ClosureSpan> = []
) =>
  Effect.gen(function* () {
    const start = want.starts_at
    if (start === undefined) return yield* new InvalidStartsAt({ message: "starts_at is required" })
    const periods = o.kind === "rental" ? (want.periods ?? 1) : 1
    if (periods > o.max_periods) return yield* new InvalidPeriods({ message: `periods: at most ${o.max_periods}` })
    yield* inWindow(o, start, now)
    const end =
      o.kind === "rental"
        ? periodEnd(start, o.duration_minutes * periods, zone)
        : new Date(start.getTime() + o.duration_minutes * MINUTE_MS)
    const shut = closureRefusing(closures, zone, o.kind, start, end)
    if (shut !== undefined) return yield* closed(shut)
    const day = toLocal(start, zone).date
    const input = {
      ...rulesOf(o, zone, now, day),
      closures,
      to: day,
      hours: o.hours ?? DEFAULT_HOURS,
      duration_minutes: o.duration_minutes * periods,
      slot_interval_minutes: o.slot_interval_minutes ?? o.duration_minutes,
      buffer_minutes: 0,
      capacity: 1,
      busy: []
    }
    const offered = (o.kind === "rental" ? rentalSlots(input) : hoursSlots(input)).some(
      (s) => s.starts_at === start.toISOString()
    )
    if (!offered) return yield* unavailable("starts_at is not a bookable time of this offering")
    return { session_id: null, series_id: null, starts_at: start, ends_at: end, periods } satisfies Placement
  })

/** A course is booked whole: from its first time to come to its last; every one of them must have room. */
export const coursePlacement = (
  o: PlacedOffering,
  want: Want,
  times: ReadonlyArray<TimeRow>,
  zone: string,
  now: Date,
  closures: ReadonlyArray<ClosureSpan> = []
) =>
  Effect.gen(function* () {
    const toCome = courseSessionsToCome(
      { ...rulesOf(o, zone, now, toLocal(now, zone).date), closures },
      times.map((t) => ({ ...t, capacity: t.cap, status: t.state }))
    )
    if (toCome.length === 0) return yield* unavailable("this course has no times to come")
    yield* inWindow(o, toCome[0].starts_at, now)
    const full = toCome.find((t) => t.booked + want.quantity > t.cap)
    if (full !== undefined) return yield* soldOut(`in the course time at ${full.starts_at.toISOString()}`)
    return {
      session_id: toCome[0].id,
      series_id: want.series_id ?? null,
      starts_at: toCome[0].starts_at,
      ends_at: toCome[toCome.length - 1].ends_at,
      periods: 1
    } satisfies Placement
  })

/** Where a booking goes (create of a course, move, confirm of a lapsed hold), read without locks. */
export const placementOf = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const times = (where: Statement.Fragment) =>
    sql<TimeRow>`select id, starts_at, ends_at, state, booked, cap from sessions where ${where}`

  const place = (o: PlacedOffering, want: Want, zone: string, now: Date) => {
    const placed: Effect.Effect<
      Placement,
      | Closed
      | InvalidPeriods
      | InvalidSeriesId
      | InvalidSessionId
      | InvalidStartsAt
      | OutsideBookingWindow
      | SoldOut
      | TimeNotAvailable
      | SqlError
    > = onHours(o)
      ? Effect.gen(function* () {
          const start = want.starts_at ?? now
          const reach = o.duration_minutes * Math.max(want.periods ?? 1, 1) * MINUTE_MS + DAY_MS
          const closures = yield* closuresNear(sql, o.id, start, new Date(start.getTime() + reach))
          return yield* hoursPlacement(o, want, zone, now, closures)
        })
      : o.course
        ? Effect.gen(function* () {
            if (want.series_id === undefined)
              return yield* new InvalidSeriesId({ message: "a course is booked whole: send series_id" })
            const rows = yield* times(
              sql`series_id = ${want.series_id} and offering_id = ${o.id} and state = 'scheduled'`
            )
            const closures =
              rows.length === 0
                ? []
                : yield* closuresNear(
                    sql,
                    o.id,
                    new Date(Math.min(...rows.map((r) => r.starts_at.getTime()))),
                    new Date(Math.max(...rows.map((r) => r.ends_at.getTime())))
                  )
            return yield* coursePlacement(o, want, rows, zone, now, closures)
          })
        : Effect.gen(function* () {
            if (want.session_id === undefined && want.starts_at === undefined)
              return yield* new InvalidSessionId({
                message: "session_id (or starts_at of one of its times) is required"
              })
            const rows = yield* times(
              sql`offering_id = ${o.id} and state <> 'removed' and ${want.session_id !== undefined ? sql`id = ${want.session_id}` : sql`starts_at = ${want.starts_at!} and state = 'scheduled'`}`
            )
            const t = rows[0]
            const closures = t === undefined ? [] : yield* closuresNear(sql, o.id, t.starts_at, t.ends_at)
            return yield* calendarPlacement(o, t, now, { closures, zone })
          })
    return Effect.catchTag(placed, "SqlError", Effect.die)
  }

  return { place } as const
})
