import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { PaymentRequired } from "../../schema/errors.ts"
import { toLocal } from "../../time/local.ts"
import type { Plan } from "../CurrentOrg.ts"

/** Bookings per org per calendar month (org time), by plan. */
export const MONTHLY_QUOTA: Record<Plan, number> = { free: 25, pro: 1_000, growth: 5_000, scale: 15_000 }

/**
 * Counts one booking against the org's month, refusing past the plan's quota with 402 plan_quota_exceeded
 * (the whole booking rolls back). Every booking created counts, holds included; cancelling does not give
 * it back. Called once capacity is decided and before anything appends an event (the customer's included):
 * creates then take the counter row lock before the org's event lock, never the other way round.
 */
export const takeQuota = (org: { id: string; plan: Plan; timezone: string }, now: Date) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const month = toLocal(now, org.timezone).date.slice(0, 7)
    const [row] = yield* sql<{ used: number }>`
      insert into booking_quota (org_id, month, used) values (${org.id}, ${month}, 1)
      on conflict (org_id, month) do update set used = booking_quota.used + 1 returning used`.pipe(Effect.orDie)
    const quota = MONTHLY_QUOTA[org.plan]
    if (row.used > quota) {
      return yield* new PaymentRequired({
        code: "plan_quota_exceeded",
        message: `the ${org.plan} plan includes ${quota} bookings a month and ${month} has used them; upgrade the plan or wait for next month`
      })
    }
  })
