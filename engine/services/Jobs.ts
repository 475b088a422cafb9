import { Effect, Ref } from "effect"

export interface Job {
  readonly name: string
  /** Does whatever has become due by the engine clock; safe to run on several instances at once. */
  readonly run: Effect.Effect<void>
}

/**
 * Background work (hold expiry, choose_by, repeats, retries...). Services register their jobs; the
 * scheduler runs them all on an interval, and CLOCK=test runs them whenever the clock is advanced.
 */
export class Jobs extends Effect.Service<Jobs>()("Jobs", {
  effect: Effect.gen(function*() {
    const registry = yield* Ref.make<ReadonlyArray<Job>>([])
    const register = (job: Job) => Ref.update(registry, (jobs) => [...jobs.filter((j) => j.name !== job.name), job])
    const runDue = Effect.gen(function*() {
      for (const job of yield* Ref.get(registry)) {
        yield* job.run.pipe(
          Effect.withSpan(`Job.${job.name}`),
          Effect.catchAllCause((cause) => Effect.logError(`job ${job.name} failed`, cause))
        )
      }
    })
    return { register, runDue } as const
  })
}) {}
