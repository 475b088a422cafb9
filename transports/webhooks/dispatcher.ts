import { Chunk, Duration, Effect, Layer, Schedule, Stream } from "effect"
import { EventBus } from "../../engine/ports/Bus.ts"
import { Jobs } from "../../engine/services/Jobs.ts"
import { WebhookDispatch } from "../../engine/services/webhooks/Dispatch.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export interface DispatcherOptions {
  /** How often healthy endpoints with events waiting (a missed wake-up) are looked for; default 1 s. */
  readonly sweepMs?: number
}

/**
 * Wakes endpoints and runs them. A bus event wakes every live endpoint of its org; each endpoint runs in its own
 * fiber, one at a time on this instance (a wake during a run makes it run again) and on all instances (lease).
 * Failing endpoints also run every 5 minutes of the engine clock (job `webhooks.retry`).
 */
export const DispatcherLive = (options: DispatcherOptions = {}) =>
  Layer.scopedDiscard(Effect.gen(function*() {
    const dispatch = yield* WebhookDispatch
    const bus = yield* EventBus
    const jobs = yield* Jobs
    const scope = yield* Effect.scope
    /** Endpoints running here -> woken again while running. */
    const running = new Map<string, boolean>()

    const loop = (id: string): Effect.Effect<void> =>
      Effect.gen(function*() {
        while (true) {
          const more = yield* dispatch.run(id)
          const again = yield* Effect.sync(() => {
            const woken = running.get(id) === true
            if (!woken && !more) running.delete(id)
            else running.set(id, false)
            return woken || more
          })
          if (!again) return
        }
      }).pipe(
        Effect.catchAllCause((cause) =>
          Effect.sync(() => running.delete(id)).pipe(Effect.zipRight(Effect.logError(`webhook endpoint ${id}: run failed`, cause)))
        )
      )

    const wake = (ids: ReadonlyArray<string>) =>
      Effect.forEach(ids, (id) =>
        Effect.suspend(() => {
          if (running.has(id)) {
            running.set(id, true)
            return Effect.void
          }
          running.set(id, false)
          return Effect.asVoid(Effect.forkIn(loop(id), scope))
        }), { discard: true })

    yield* bus.subscribe.pipe(
      Stream.groupedWithin(1000, Duration.millis(5)),
      // Only org ids that can be ours: a foreign message on the shared stream must not fail the whole batch.
      Stream.mapEffect((chunk) => dispatch.liveOf([...new Set(Chunk.map(chunk, (e) => e.org_id))].filter((id) => UUID.test(id)))),
      Stream.runForEach(wake),
      Effect.catchAllCause((cause) => Effect.logError("webhook dispatcher: bus subscription ended", cause)),
      Effect.repeat(Schedule.spaced("1 second")),
      Effect.forkScoped
    )
    yield* dispatch.behind.pipe(
      Effect.flatMap(wake),
      Effect.catchAllCause((cause) => Effect.logWarning("webhook dispatcher: sweep failed", cause)),
      Effect.repeat(Schedule.spaced(Duration.millis(options.sweepMs ?? 1_000))),
      Effect.forkScoped
    )
    yield* jobs.register({ name: "webhooks.retry", run: Effect.flatMap(dispatch.due, wake) })
  }))
