import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { PlanQuotaExceeded } from "../../errors/index.ts"
import { isTransient, type Refusal, refusalOf } from "../../store/refusals.ts"
import { monthIn } from "../../time/local.ts"
import type { CurrentOrg } from "../CurrentOrg.ts"
import type { Booked } from "./booked.ts"
import type { Placement } from "./placement.ts"
import { MONTHLY_QUOTA } from "./quota.ts"

export interface Refused {
  readonly _tag: "refused"
  readonly reason: Exclude<Refusal, "plan_quota_exceeded">
  readonly message: string
  readonly o: Booked
  readonly p: Placement
}
/** A refusal of WRITE as a value; the quota is 402; a deadlock stays an SqlError (to retry); anything else dies. */
export const refused =
  (org: CurrentOrg["Type"], now: Date, o: Booked, p: Placement) =>
  (e: SqlError): Effect.Effect<Refused, PlanQuotaExceeded | SqlError> => {
    const r = refusalOf(e)
    if (r === undefined) return isTransient(e) ? Effect.fail(e) : Effect.die(e)
    if (r.reason === "plan_quota_exceeded") {
      const month = monthIn(now, org.timezone)
      return Effect.fail(
        new PlanQuotaExceeded({
          message: `the ${org.plan} plan includes ${MONTHLY_QUOTA[org.plan]} bookings a month and ${month} has used them; upgrade the plan or wait for next month`
        })
      )
    }
    return Effect.succeed({ _tag: "refused" as const, reason: r.reason, message: r.message, o, p })
  }
