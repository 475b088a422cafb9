import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Option, Ref } from "effect"
import { traced } from "../tracing.ts"

export interface Job {
  readonly name: string
  /** Does whatever has become due by the engine clock; safe to run on several instances at once. */
  readonly run: Effect.Effect<void>
  /**
   * When it next has work, as a SQL expression of type timestamptz (null: nothing waiting), e.g. the earliest
   * expires_at of holds still keeping their place. A job without it runs on every pass of the scheduler.
   */
  readonly next?: Statement.Fragment
}

/**
 * Background work (hold expiry, choose_by, repeats, retries...). Services register their jobs; the scheduler runs
 * them all when woken or when the earliest `next` comes, and CLOCK=test runs them whenever the clock is advanced.
 */
export class Jobs extends Effect.Service<Jobs>()("Jobs", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const registry = yield* Ref.make<ReadonlyArray<Job>>([])
    const register = (job: Job) => Ref.update(registry, (jobs) => [...jobs.filter((j) => j.name !== job.name), job])
    const runDue = Effect.gen(function* () {
      for (const job of yield* Ref.get(registry)) {
        yield* job.run.pipe(
          traced(`Job.${job.name}`),
          Effect.catchAllCause((cause) => Effect.logError(`job ${job.name} failed`, cause))
        )
      }
    })
    /** The earliest time any job has work, by the engine clock, in one query; none when nothing is waiting. */
    const nextDue = Effect.gen(function* () {
      const fragments = (yield* Ref.get(registry)).flatMap((j) => (j.next === undefined ? [] : [j.next]))
      if (fragments.length === 0) return Option.none<Date>()
      const [row] = yield* sql<{ at: Date | null }>`select least(${sql.csv(fragments)}) as at`
      return Option.fromNullable(row.at)
    }).pipe(
      Effect.catchAllCause((cause) =>
        Effect.as(Effect.logWarning("jobs: next due time unknown", cause), Option.none<Date>())
      )
    )
    return { register, runDue, nextDue } as const
  })
}) {}
