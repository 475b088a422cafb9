import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { InvalidTo } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { addDays, daysBetween, endOfLocalDay, todayIn, toInstant } from "../../time/local.ts"
import { fn } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { attendanceSql, occupancySql, revenueSql, roomy, type Scope, waitlistSql } from "./queries.ts"

const DEFAULT_DAYS = 30
const MAX_DAYS = 3660

/** reports.*: the figures an owner runs the business by, in the org's currency and zone, for any local dates. */
export class Reports extends Effect.Service<Reports>()("Reports", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock

    const scoped = (query: { from?: string; to?: string; offering_id?: string }) =>
      Effect.gen(function* () {
        const org = yield* CurrentOrg
        const to = query.to ?? todayIn(yield* clock.now, org.timezone)
        const from = query.from ?? addDays(to, -(DEFAULT_DAYS - 1))
        if (to < from) return yield* new InvalidTo({ message: "to is before from" })
        if (daysBetween(from, to) >= MAX_DAYS)
          return yield* new InvalidTo({ message: `a report spans at most ${MAX_DAYS} days` })
        const scope: Scope = {
          org: org.id,
          zone: org.timezone,
          start: toInstant(from, "00:00:00", org.timezone),
          end: endOfLocalDay(to, org.timezone),
          offering: query.offering_id
        }
        return { scope, frame: { currency: org.currency, timezone: org.timezone, from, to } }
      })

    const revenue = fn("Reports.revenue")(function* (query: {
      from?: string
      to?: string
      offering_id?: string
      by?: "day" | "week" | "month" | "offering"
    }) {
      const { scope, frame } = yield* scoped(query)
      const rows = yield* roomy(sql, revenueSql(sql, scope, query.by ?? "day")).pipe(Effect.orDie)
      return {
        ...frame,
        data: rows.map((r) => {
          const [charged, refunded] = [Number(r.charged_cents), Number(r.refunded_cents)]
          return {
            period: r.period,
            offering_id: r.offering_id,
            offering_name: r.offering_name,
            bookings: r.bookings,
            charged_cents: charged,
            refunded_cents: refunded,
            net_cents: charged - refunded,
            gift_card_cents: Number(r.gift_card_cents),
            discount_cents: Number(r.discount_cents),
            deposits_due_cents: Number(r.deposits_due_cents)
          }
        })
      }
    })

    const report =
      <A>(name: string, query: (sql: SqlClient.SqlClient, s: Scope) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
      (q: { from?: string; to?: string; offering_id?: string }) =>
        Effect.gen(function* () {
          const { scope, frame } = yield* scoped(q)
          return { ...frame, data: yield* Effect.orDie(query(sql, scope)) }
        }).pipe(Effect.withSpan(name))

    return {
      revenue,
      occupancy: report("Reports.occupancy", occupancySql),
      attendance: report("Reports.attendance", attendanceSql),
      waitlist: report("Reports.waitlist", waitlistSql)
    } as const
  })
}) {}
