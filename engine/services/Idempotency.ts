import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { IdempotencyInProgress, IdempotencyKeyReused } from "../errors/index.ts"
import { EngineClock } from "../ports/Clock.ts"
import { forgetKeys, keepResponse, keptResponse, lockKey } from "../store/idempotency.ts"
import { transaction } from "../store/transaction.ts"
import { Jobs } from "./Jobs.ts"

export interface StoredResponse {
  readonly status: number
  readonly contentType: string
  readonly body: string
}

/** Keys are kept at least 24 hours; the purge job removes them after 48. */
const KEEP_MS = 48 * 3600_000

/**
 * Idempotency-Key per org. The first request runs inside one transaction with its key's lock, so the work
 * and the stored response commit together or not at all. A retry with the same key and body gets the
 * stored response; another body is 422; a retry while the first still runs is 409.
 */
export class Idempotency extends Effect.Service<Idempotency>()("Idempotency", {
  dependencies: [Jobs.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const jobs = yield* Jobs

    const run = <E, R>(
      orgId: string,
      key: string,
      requestHash: string,
      work: Effect.Effect<StoredResponse & { store: boolean }, E, R>
    ) =>
      Effect.gen(function* () {
        const locked = yield* lockKey(sql, orgId, key).pipe(Effect.orDie)
        if (!locked)
          return yield* new IdempotencyInProgress({
            message: "a request with this Idempotency-Key is still running; retry later"
          })
        const previous = Option.fromNullable(yield* keptResponse(sql, orgId, key).pipe(Effect.orDie))
        if (Option.isSome(previous)) {
          if (previous.value.request_hash !== requestHash) {
            return yield* new IdempotencyKeyReused({ message: "this Idempotency-Key was used with another request" })
          }
          const p = previous.value
          return { replayed: true, status: p.status, contentType: p.headers["content-type"], body: p.body }
        }
        const response = yield* work
        if (response.store) {
          const at = yield* clock.now
          yield* keepResponse(sql, { orgId, key, requestHash, ...response, at }).pipe(Effect.orDie)
        }
        return { replayed: false, ...response }
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))

    yield* jobs.register({
      name: "idempotency.purge",
      run: Effect.gen(function* () {
        const cutoff = new Date((yield* clock.now).getTime() - KEEP_MS)
        yield* forgetKeys(sql, cutoff)
      }).pipe(Effect.orDie)
    })

    return { run } as const
  })
}) {}
