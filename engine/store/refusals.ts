import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { type ErrorOf, errorOf } from "../errors/index.ts"

export type Refusal = "sold_out" | "time_not_available" | "plan_quota_exceeded" | "too_many_holds" | "places_on_hold"
const REFUSALS: ReadonlySet<string> = new Set([
  "sold_out",
  "time_not_available",
  "plan_quota_exceeded",
  "too_many_holds",
  "places_on_hold"
])

/**
 * The database refused a change that would gain places where there is none, pass the plan's quota, or pass the caps on
 * guests' holds: a check_violation whose constraint names the reason (see migrations 0008_counters, 0088_hold_caps). Anything else is not a refusal.
 */
export const refusalOf = (e: SqlError): { readonly reason: Refusal; readonly message: string } | undefined => {
  const cause = e.cause as { readonly code?: unknown; readonly constraint?: unknown; readonly message?: unknown } | null
  if (cause === null || typeof cause !== "object" || cause.code !== "23514" || typeof cause.constraint !== "string")
    return undefined
  if (!REFUSALS.has(cause.constraint)) return undefined
  return {
    reason: cause.constraint as Refusal,
    message: typeof cause.message === "string" ? cause.message : cause.constraint
  }
}

/** Turns a capacity refusal raised inside an operation (confirm, move) into its 409; other SQL errors are defects. */
/** The refusals of a change inside an operation (the quota is the booking's own: see create). */
export type CapacityRefusal = ErrorOf<Exclude<Refusal, "plan_quota_exceeded">>

export const conflictOrDie = (e: SqlError): Effect.Effect<never, CapacityRefusal> => {
  const refused = refusalOf(e)
  return refused === undefined || refused.reason === "plan_quota_exceeded"
    ? Effect.die(e)
    : Effect.fail(errorOf(refused.reason as Exclude<Refusal, "plan_quota_exceeded">, refused.message))
}

export { isTransient, retryTransient } from "./transaction.ts"
