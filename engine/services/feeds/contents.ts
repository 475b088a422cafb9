import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { bookedExpr } from "../calendar/booked.ts"
import type { CalendarEvent } from "./ical.ts"

/** What a feed shows around now: 30 days back, 365 days ahead; at most this many times and bookings each. */
export const FEED_DAYS_BACK = 30
export const FEED_DAYS_AHEAD = 365
export const FEED_MAX_ROWS = 5000

const DAY_MS = 86_400_000

type Place = {
  readonly offering_name: string
  readonly location: string
  readonly lat: number | null
  readonly lon: number | null
}

type TimeRow = Place & {
  readonly id: string
  readonly starts_at: Date
  readonly ends_at: Date
  readonly state: "scheduled" | "cancelled"
  readonly cap: number
  readonly booked: number
  readonly created_at: Date
  readonly changed: Date
}

type BookingRow = Place & {
  readonly id: string
  readonly kind: "appointment" | "rental" | "class"
  readonly starts_at: Date
  readonly ends_at: Date
  readonly status: "held" | "confirmed" | "cancelled"
  readonly quantity: number
  readonly reference: string
  readonly guest: string | null
  readonly created_at: Date
  readonly changed: Date
}

export type FeedTarget =
  | { readonly kind: "member"; readonly orgId: string; readonly userId: string }
  | { readonly kind: "offering"; readonly orgId: string; readonly offeringId: string }

const placeOf = (r: Place) => ({
  location: r.location || null,
  geo: r.lat !== null && r.lon !== null ? { lat: r.lat, lon: r.lon } : null
})

/** A class time: its offering, places taken and left (or that it is cancelled). */
const timeEvent = (r: TimeRow, host: string): CalendarEvent => ({
  uid: `${r.id}@${host}`,
  start: r.starts_at,
  end: r.ends_at,
  summary:
    r.state === "cancelled"
      ? `${r.offering_name} (cancelled)`
      : `${r.offering_name}: ${r.booked} booked, ${Math.max(0, r.cap - r.booked)} left`,
  ...placeOf(r),
  status: r.state === "cancelled" ? "cancelled" : "confirmed",
  created: r.created_at,
  changed: r.changed
})

/** An appointment or rental booking: its offering and the guest's name (nothing else of theirs). */
const bookingEvent = (r: BookingRow, host: string): CalendarEvent => ({
  uid: `${r.id}@${host}`,
  start: r.starts_at,
  end: r.ends_at,
  summary: `${r.offering_name}: ${r.guest || "Guest"}${r.kind === "rental" && r.quantity > 1 ? ` (${r.quantity})` : ""}${r.status === "cancelled" ? " (cancelled)" : ""}`,
  ...placeOf(r),
  description: `Booking ${r.reference}`,
  status: r.status === "cancelled" ? "cancelled" : r.status === "held" ? "tentative" : "confirmed",
  created: r.created_at,
  changed: r.changed
})

/**
 * The events of a feed at `now`: a member's class times (teacher_id) and the appointment bookings on times they take;
 * an offering's class times, or its bookings for an appointment or rental. Cancelled ones inside the window stay, as
 * STATUS:CANCELLED, so subscribed calendars take them off.
 */
export const feedEvents = (sql: SqlClient.SqlClient, target: FeedTarget, now: Date, host: string) =>
  Effect.gen(function* () {
    const from = new Date(now.getTime() - FEED_DAYS_BACK * DAY_MS)
    const to = new Date(now.getTime() + FEED_DAYS_AHEAD * DAY_MS)
    const timesOf =
      target.kind === "member"
        ? sql`s.teacher_id = ${target.userId} and o.kind = 'class'`
        : sql`s.offering_id = ${target.offeringId} and o.kind = 'class'`
    const times = yield* sql<TimeRow>`
      select s.id, s.starts_at, s.ends_at, s.state, s.cap, ${bookedExpr(sql, now)} as booked, s.created_at,
        greatest(s.created_at, s.updated_at, s.cancelled_at) as changed,
        o.name as offering_name, o.location, o.lat, o.lon
      from sessions s join offerings o on o.id = s.offering_id
      where s.org_id = ${target.orgId} and ${timesOf} and o.deleted_at is null and s.state in ('scheduled', 'cancelled')
        and s.starts_at < ${to} and s.ends_at > ${from}
      order by s.starts_at, s.id limit ${FEED_MAX_ROWS}`
    const bookingsOf =
      target.kind === "member"
        ? sql`o.kind = 'appointment' and b.session_id in (select id from sessions where org_id = ${target.orgId} and teacher_id = ${target.userId})`
        : sql`b.offering_id = ${target.offeringId} and o.kind <> 'class'`
    const bookings = yield* sql<BookingRow>`
      select b.id, o.kind, b.starts_at, b.ends_at, b.status, b.quantity, b.reference, b.created_at,
        greatest(b.created_at, b.updated_at, b.cancelled_at) as changed,
        case when c.erased_at is null then c.name end as guest, o.name as offering_name, o.location, o.lat, o.lon
      from bookings b join offerings o on o.id = b.offering_id left join customers c on c.id = b.customer_id
      where b.org_id = ${target.orgId} and ${bookingsOf} and o.deleted_at is null
        and b.starts_at < ${to} and b.ends_at > ${from}
        and (b.status = 'confirmed' or (b.status = 'held' and b.keeps_place and (b.expires_at is null or b.expires_at > ${now}))
          or (b.status = 'cancelled' and b.confirmed_at is not null))
      order by b.starts_at, b.id limit ${FEED_MAX_ROWS}`
    return [...times.map((r) => timeEvent(r, host)), ...bookings.map((r) => bookingEvent(r, host))].sort(
      (a, b) => a.start.getTime() - b.start.getTime()
    )
  })
