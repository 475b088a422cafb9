import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Cause, Effect, Option } from "effect"

/** Postgres broke a lock cycle (deadlock) or a serialization conflict by failing one side: running it again is safe. */
export const isTransient = (e: unknown) => {
  const cause = (e as { readonly cause?: { readonly code?: unknown } } | null)?.cause
  return cause?.code === "40P01" || cause?.code === "40001"
}

/** Such a failure as the error, or as the defect a statement that turns its SQL errors into defects made of it. */
const transientIn = (cause: Cause.Cause<unknown>) =>
  !Cause.isInterrupted(cause) &&
  (Option.exists(Cause.failureOption(cause), isTransient) || Option.exists(Cause.dieOption(cause), isTransient))

/**
 * Runs `effect` again, at most `times` more, while it fails or dies with a deadlock or a serialization failure.
 * Effect.retry does the same through a Schedule, which provides each try's iteration metadata as a service and so
 * copies the fiber's whole context at every try, the first included: once per booking.
 */
export const retryTransient =
  (times: number) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    times <= 0
      ? effect
      : Effect.catchAllCause(effect, (cause) =>
          transientIn(cause) ? retryTransient(times - 1)(effect) : Effect.failCause(cause)
        )

const inTransaction = Effect.map(Effect.serviceOption(SqlClient.TransactionConnection), Option.isSome)

/**
 * `body` in a transaction that runs again, at most `times` more, when Postgres ends it to break a deadlock: the body
 * must do nothing outside the database that cannot happen twice. Inside an outer transaction it is a savepoint and
 * runs once: the outer transaction, which holds locks taken before it, is the one to run again.
 */
export const transaction =
  (sql: SqlClient.SqlClient, times = 3) =>
  <A, E, R>(body: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
    Effect.flatMap(inTransaction, (nested) =>
      nested ? sql.withTransaction(body) : retryTransient(times)(sql.withTransaction(body))
    )
