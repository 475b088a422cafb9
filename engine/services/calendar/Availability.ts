import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { courseSlots, hoursSlots, type Rules, rentalSlots, sessionSlots } from "../../availability/index.ts"
import { InvalidTo } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { closuresOver } from "../../store/closures.ts"
import { DEFAULT_HOURS } from "../../time/hours.ts"
import { addDays, daysBetween, endOfLocalDay, todayIn, toInstant } from "../../time/local.ts"
import { PERIOD_SLACK_MS } from "../../time/period.ts"
import { fn } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { makeCoalescer } from "../coalesce.ts"
import { Offerings } from "../offerings/Offerings.ts"
import type { OfferingRow } from "../offerings/row.ts"
import { bookedExpr } from "./booked.ts"

const DEFAULT_DAYS = 14
const MAX_DAYS = 92
const MINUTE_MS = 60_000
const DAY_MS = 86_400_000

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
  dependencies: [Offerings.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const offerings = yield* Offerings

    const times = (o: OfferingRow, start: Date, end: Date, now: Date) =>
      sql<TimeRow>`select s.id, s.series_id, s.starts_at, s.ends_at, coalesce(s.capacity, o.capacity)::int as capacity, s.state,
          ${bookedExpr(sql, now)} as booked
        from sessions s join offerings o on o.id = s.offering_id
        where s.offering_id = ${o.id} and s.state = 'scheduled' and s.starts_at >= ${start} and s.starts_at < ${end}
        order by s.starts_at`

    /** Bookings that keep their place near the window; an appointment takes one parallel place per booking. */
    const busy = (o: OfferingRow, start: Date, end: Date, now: Date) => {
      const pad = o.buffer_minutes * MINUTE_MS
      const longest =
        o.kind === "rental"
          ? o.duration_minutes * o.max_periods * MINUTE_MS + PERIOD_SLACK_MS
          : o.duration_minutes * MINUTE_MS
      return sql<{ starts_at: Date; ends_at: Date; quantity: number }>`
        select starts_at, ends_at, ${o.kind === "appointment" ? sql`1` : sql`quantity`} as quantity from bookings
        where offering_id = ${o.id} and keeps_place and (status = 'confirmed' or expires_at > ${now})
          and starts_at < ${new Date(end.getTime() + pad)} and starts_at > ${new Date(start.getTime() - pad - longest)}
          and ends_at > ${new Date(start.getTime() - pad)}`
    }

    const courses = (o: OfferingRow, rules: Rules, now: Date) =>
      Effect.gen(function* () {
        const entries = yield* sql<{ id: string; repeat: "none"; ends_on: string | null }>`
          select id, repeat, ends_on from series where offering_id = ${o.id} and deleted_at is null`
        const rows = yield* times(o, now, new Date(now.getTime() + (o.max_advance_days + 400) * 86_400_000), now)
        return courseSlots(
          rules,
          entries.map((e) => ({
            ...e,
            sessions: rows.filter((r) => r.series_id === e.id).map((r) => ({ ...r, status: r.state }))
          }))
        )
      })

    const compute = fn("Availability.get")(
      function* (offeringId: string, query: { from?: string; to?: string }) {
        const org = yield* CurrentOrg
        const now = yield* clock.now
        const from = query.from ?? todayIn(now, org.timezone)
        const to = query.to ?? addDays(from, DEFAULT_DAYS - 1)
        if (to < from) return yield* new InvalidTo({ message: "to is before from" })
        if (daysBetween(from, to) >= MAX_DAYS)
          return yield* new InvalidTo({ message: `a window is at most ${MAX_DAYS} days` })
        const o = yield* offerings.known(offeringId)
        const start = toInstant(from, "00:00:00", org.timezone)
        const end = endOfLocalDay(to, org.timezone)
        // Closures near the window: a rental's return may fall days after its last pick-up.
        const reach = o.kind === "rental" ? o.duration_minutes * o.max_periods * MINUTE_MS + 2 * DAY_MS : DAY_MS
        const closures = yield* closuresOver(
          sql,
          o.id,
          new Date(start.getTime() - DAY_MS),
          new Date(end.getTime() + reach)
        )
        const rules: Rules = {
          now,
          closures,
          zone: org.timezone,
          from,
          to,
          min_notice_minutes: o.min_notice_minutes,
          max_advance_days: o.max_advance_days,
          active: o.state === "active"
        }
        const notices = closures
          .filter((c) => c.ends_on >= from && c.starts_on <= to)
          .map((c) => ({ starts_on: c.starts_on, ends_on: c.ends_on, open_hours: c.open_hours, note: c.note }))
        const base = { timezone: org.timezone, ...(notices.length > 0 ? { closures: notices } : {}) }
        if (!rules.active) return { ...base, data: [] }
        const onHours = o.kind === "rental" || (o.kind === "appointment" && o.schedule === "hours")
        if (onHours) {
          const input = {
            ...rules,
            hours: o.hours ?? DEFAULT_HOURS,
            duration_minutes: o.duration_minutes,
            slot_interval_minutes: o.slot_interval_minutes,
            buffer_minutes: o.buffer_minutes,
            capacity: o.capacity,
            busy: yield* busy(o, start, new Date(end.getTime() + o.duration_minutes * MINUTE_MS), now)
          }
          return { ...base, data: o.kind === "rental" ? rentalSlots(input) : hoursSlots(input) }
        }
        if (o.course) return { ...base, data: yield* courses(o, rules, now) }
        const rows = yield* times(o, start, end, now)
        return {
          ...base,
          data: sessionSlots(
            rules,
            rows.map((r) => ({ ...r, status: r.state }))
          )
        }
      },
      (effect) => Effect.catchTag(effect, "SqlError", Effect.die)
    )

    // Reads of the same window share their runs, each caller still answered by a run begun after it asked (coalesce.ts).
    const shared = makeCoalescer<
      Effect.Effect.Success<ReturnType<typeof compute>>,
      Effect.Effect.Error<ReturnType<typeof compute>>
    >()
    const get = (offeringId: string, query: { from?: string; to?: string }) =>
      Effect.flatMap(CurrentOrg, (org) =>
        shared(`${org.id} ${offeringId} ${query.from ?? ""} ${query.to ?? ""}`, compute(offeringId, query))
      )

    return { get } as const
  })
}) {}
