import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { courseSlots, hoursSlots, rentalSlots, type Rules, sessionSlots } from "../../availability/index.ts"
import { badRequest, notFound } from "../../schema/errors.ts"
import { DEFAULT_HOURS } from "../../time/hours.ts"
import { addDays, daysBetween, endOfLocalDay, toInstant, todayIn } from "../../time/local.ts"
import { PERIOD_SLACK_MS } from "../../time/period.ts"
import { EngineClock } from "../Clock.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import type { OfferingRow } from "../offerings/row.ts"
import { bookedExpr } from "./booked.ts"

const DEFAULT_DAYS = 14
const MAX_DAYS = 92

interface TimeRow {
  readonly id: string
  readonly series_id: string | null
  readonly starts_at: Date
  readonly ends_at: Date
  readonly capacity: number
  readonly booked: number
  readonly state: string
}

export class Availability extends Effect.Service<Availability>()("Availability", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock

    const times = (o: OfferingRow, start: Date, end: Date, now: Date) =>
      sql<TimeRow>`select s.id, s.series_id, s.starts_at, s.ends_at, coalesce(s.capacity, o.capacity)::int as capacity, s.state,
          ${bookedExpr(sql, now)} as booked
        from sessions s join offerings o on o.id = s.offering_id
        where s.offering_id = ${o.id} and s.state = 'scheduled' and s.starts_at >= ${start} and s.starts_at < ${end}
        order by s.starts_at`

    /**
     * The offering and, for one booked on opening hours (a rental, an appointment on hours), the bookings that keep
     * their place near the window, in one statement: one round trip instead of two (the round trips were most of a
     * call). Near the window: starting before its end plus the duration and buffer, ending after its start less the
     * buffer, starting at most the longest booking (plus buffer) before it. An appointment takes one parallel place
     * per booking. `busy` is [starts_at, ends_at, places] triples; null for offerings that do not use it.
     */
    const loadWithBusy = (offeringId: string, orgId: string, start: Date, end: Date, now: Date) =>
      Effect.gen(function*() {
        const [row] = yield* sql<OfferingRow & { readonly busy: unknown }>`
          select o.*, case when o.kind = 'rental' or (o.kind = 'appointment' and o.schedule = 'hours') then (
            select coalesce(json_agg(json_build_array(b.starts_at, b.ends_at, case when o.kind = 'appointment' then 1 else b.quantity end)), '[]'::json)
            from bookings b
            where b.offering_id = o.id and b.keeps_place and (b.status = 'confirmed' or b.expires_at > ${now})
              and b.starts_at < ${end}::timestamptz + make_interval(mins => o.duration_minutes + o.buffer_minutes)
              and b.starts_at > ${start}::timestamptz - make_interval(mins => o.buffer_minutes) - case when o.kind = 'rental'
                then make_interval(mins => o.duration_minutes * o.max_periods, secs => ${PERIOD_SLACK_MS / 1000})
                else make_interval(mins => o.duration_minutes) end
              and b.ends_at > ${start}::timestamptz - make_interval(mins => o.buffer_minutes)
          ) end as busy
          from offerings o where o.id = ${offeringId}::uuid and o.org_id = ${orgId} and o.deleted_at is null`
        if (row === undefined) return yield* notFound("offering")
        const raw = typeof row.busy === "string" ? JSON.parse(row.busy) : row.busy
        const busy = (raw as ReadonlyArray<readonly [string, string, number]> | null ?? []).map(([s, e, q]) => ({ starts_at: new Date(s), ends_at: new Date(e), quantity: q }))
        return { o: row as OfferingRow, busy }
      })

    const courses = (o: OfferingRow, rules: Rules, now: Date) =>
      Effect.gen(function*() {
        const entries = yield* sql<{ id: string; repeat: "none"; ends_on: string | null }>`
          select id, repeat, ends_on from series where offering_id = ${o.id} and deleted_at is null`
        const rows = yield* times(o, now, new Date(now.getTime() + (o.max_advance_days + 400) * 86_400_000), now)
        return courseSlots(rules, entries.map((e) => ({ ...e, sessions: rows.filter((r) => r.series_id === e.id).map((r) => ({ ...r, status: r.state })) })))
      })

    const get = Effect.fn("Availability.get")(function*(offeringId: string, query: { from?: string; to?: string }) {
      const org = yield* CurrentOrg
      const now = yield* clock.now
      const from = query.from ?? todayIn(now, org.timezone)
      const to = query.to ?? addDays(from, DEFAULT_DAYS - 1)
      if (to < from) return yield* badRequest("invalid_to", "to is before from")
      if (daysBetween(from, to) >= MAX_DAYS) return yield* badRequest("invalid_to", `a window is at most ${MAX_DAYS} days`)
      const start = toInstant(from, "00:00:00", org.timezone)
      const end = endOfLocalDay(to, org.timezone)
      const { o, busy } = yield* loadWithBusy(offeringId, org.id, start, end, now)
      const rules: Rules = { now, zone: org.timezone, from, to, min_notice_minutes: o.min_notice_minutes, max_advance_days: o.max_advance_days, active: o.state === "active" }
      const base = { timezone: org.timezone }
      if (!rules.active) return { ...base, data: [] }
      const onHours = o.kind === "rental" || (o.kind === "appointment" && o.schedule === "hours")
      if (onHours) {
        const input = { ...rules, hours: o.hours ?? DEFAULT_HOURS, duration_minutes: o.duration_minutes, slot_interval_minutes: o.slot_interval_minutes, buffer_minutes: o.buffer_minutes, capacity: o.capacity, busy }
        return { ...base, data: o.kind === "rental" ? rentalSlots(input) : hoursSlots(input) }
      }
      if (o.course) return { ...base, data: yield* courses(o, rules, now) }
      const rows = yield* times(o, start, end, now)
      return { ...base, data: sessionSlots(rules, rows.map((r) => ({ ...r, status: r.state }))) }
    }, (effect) => Effect.catchTag(effect, "SqlError", Effect.die))

    return { get } as const
  })
}) {}
