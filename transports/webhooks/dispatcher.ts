import { SqlClient } from "@effect/sql"
import { Duration, Effect, Layer, Queue, Schedule, Stream } from "effect"
import { EventBus } from "../../engine/ports/Bus.ts"
import { Wakeups, waitForWake } from "../../engine/ports/Wakeups.ts"
import { Jobs } from "../../engine/services/Jobs.ts"
import { WebhookDispatch } from "../../engine/services/webhooks/Dispatch.ts"
import { nextWebhookRetry } from "../../engine/store/probes.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export interface DispatcherOptions {
  /**
   * How often healthy endpoints with events waiting (a missed wake-up) are looked for; default 30 s. Deliveries
   * are woken by the bus; this only catches what a wake-up missed (an instance that stopped mid-run).
   */
  readonly sweepMs?: number
}

/**
 * Wakes endpoints and runs them. A bus event wakes every live endpoint of its org; each endpoint runs in its own
 * fiber, one at a time on this instance (a wake during a run makes it run again) and on all instances (lease).
 * Failing endpoints also run every 5 minutes of the engine clock (job `webhooks.retry`).
 */
export const DispatcherLive = (options: DispatcherOptions = {}) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const dispatch = yield* WebhookDispatch
      const bus = yield* EventBus
      const jobs = yield* Jobs
      const sql = yield* SqlClient.SqlClient
      const scope = yield* Effect.scope
      /** Woken when a run finds its endpoint held by another instance: the sweep then waits for that lease. */
      const sweepNow = yield* Queue.sliding<true>(1)
      /** Endpoints running here -> woken again while running. */
      const running = new Map<string, boolean>()

      const loop = (id: string): Effect.Effect<void> =>
        Effect.gen(function* () {
          while (true) {
            const ran = yield* dispatch.run(id)
            if (ran === "held") yield* Queue.offer(sweepNow, true)
            const more = ran === true
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
            Effect.sync(() => running.delete(id)).pipe(
              Effect.zipRight(Effect.logError(`webhook endpoint ${id}: run failed`, cause))
            )
          )
        )

      const wake = (ids: ReadonlyArray<string>) =>
        Effect.forEach(
          ids,
          (id) =>
            Effect.suspend(() => {
              if (running.has(id)) {
                running.set(id, true)
                return Effect.void
              }
              running.set(id, false)
              return Effect.asVoid(Effect.forkIn(loop(id), scope))
            }),
          { discard: true }
        )

      // Chunk by chunk as the bus hands them over (a relayed batch is one chunk on the in-process bus), with no timer
      // or regrouping per event: an org's live endpoints are remembered (liveOf), so an event costs a lookup in memory.
      yield* bus.subscribe.pipe(
        Stream.runForEachChunk((chunk) => {
          // Only org ids that can be ours: a foreign message on the shared stream must not fail the whole batch.
          const orgs = new Set<string>()
          for (const e of chunk) if (UUID.test(e.org_id)) orgs.add(e.org_id)
          return orgs.size === 0 ? Effect.void : Effect.flatMap(dispatch.liveOf([...orgs]), wake)
        }),
        Effect.catchAllCause((cause) => Effect.logError("webhook dispatcher: bus subscription ended", cause)),
        Effect.repeat(Schedule.spaced("1 second")),
        Effect.forkScoped
      )
      // The sweep: endpoints a wake-up missed (an instance stopped mid-run, or the bus is down so no event comes back
      // to wake us). It looks again when a lease another instance holds runs out, a second after this instance wrote
      // something (at most once a second under load), else after sweepMs.
      const sweepMs = options.sweepMs ?? 30_000
      const written = yield* (yield* Wakeups).subscribe
      yield* Effect.gen(function* () {
        while (true) {
          yield* Queue.take(written)
          yield* Effect.sleep(Duration.seconds(1))
          yield* Queue.offer(sweepNow, true)
        }
      }).pipe(Effect.forkScoped)
      yield* Effect.gen(function* () {
        while (true) {
          const found = yield* dispatch.behind.pipe(
            Effect.tap((b) => wake(b.ids)),
            Effect.catchAllCause((cause) =>
              Effect.as(Effect.logWarning("webhook dispatcher: sweep failed", cause), { ids: [], heldMs: null })
            )
          )
          if (
            yield* waitForWake(
              sweepNow,
              Duration.millis(Math.min(sweepMs, found.heldMs === null ? sweepMs : found.heldMs + 50))
            )
          ) {
            yield* Effect.sleep(Duration.millis(50))
          }
        }
      }).pipe(Effect.forkScoped)
      yield* jobs.register({
        name: "webhooks.retry",
        run: Effect.flatMap(dispatch.due, wake),
        next: nextWebhookRetry(sql)
      })
    })
  )
