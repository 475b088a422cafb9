import { SqlClient } from "@effect/sql"
import { Cause, Duration, Effect, Exit, Layer, Option } from "effect"
import { type BusEvent, BusUnavailable, DeploymentReused, EventBus } from "../../engine/ports/Bus.ts"
import { Wakeups, waitForWake } from "../../engine/ports/Wakeups.ts"
import { Deployment } from "../../engine/store/deployment.ts"
import { type QueuedEvent as Row, relayQueue } from "../../engine/store/events.ts"
import { vacuumRelayQueue } from "../../engine/store/probes.ts"
import { traced } from "../../engine/tracing.ts"

export interface RelayOptions {
  /**
   * Longest sleep when the outbox is drained and nothing wakes the relay; default 60 s. Writers of events wake it
   * (Wakeups), so this only bounds the wait for events another instance wrote and could not relay itself.
   */
  readonly pollMs?: number
  /** Events per batch (one transaction); default 1000. */
  readonly batchSize?: number
  /** Longest wait between retries of a batch that failed for another reason than the bus (the database); default 1 s. */
  readonly maxBackoffMs?: number
  /**
   * Wait before a batch the bus refused goes out again; default 200 ms, the same each time. While a NATS cluster elects
   * a stream leader (seconds) each try fails at once ("no responders"), so a short fixed wait costs little and resumes
   * publishing within this of the new leader; a growing back-off would add up to its longest wait to the pause.
   */
  readonly busRetryMs?: number
  /**
   * Shortest time from one batch's start to the next's when woken; default 50 ms. A lone event goes out at once;
   * under steady writes the events of those 50 ms share one transaction instead of one transaction each.
   */
  readonly minGapMs?: number
}

/**
 * Events an instance relays between two vacuums of the queue. Deleted queue rows stay in its index until a vacuum, and
 * each read walks past them: PGlite runs no autovacuum, and after 200,000 events a read of the empty queue took 1.7
 * against 0.9 ms (0.6 after a vacuum). On Postgres autovacuum does it too; this one costs a few ms per 10,000 events.
 */
export const VACUUM_EVERY = 10_000

/** Advisory lock key (namespace, 0): the instance that takes it in a batch's transaction is that batch's relay. */
const RELAY_LOCK = 0x0e7f

const toBusEvent = (r: Row): BusEvent => ({
  id: r.id,
  deployment: r.deployment,
  org_id: r.org_id,
  type: r.type,
  data: r.data,
  created_at: r.created_at.toISOString()
})

/**
 * Carries committed events to the bus in id order. Progress is per event: each writer of events queues their ids
 * (relay_queue) in the statement that writes them, and the relay takes them off the queue once published. Ids of
 * different orgs are not handed out in commit order, so a single cursor could pass an event still being written. One
 * batch = one transaction: leader check, read the oldest queued events, publish, take them off the queue. A crash after
 * publish re-publishes the batch and the bus dedupes on (deployment, event id) (Nats-Msg-Id). A batch the bus finds
 * already taken under this deployment's ids by other events (DeploymentReused: a copy or a restore of this database
 * published them) renews the deployment id and goes out again under the new one, so none is dropped as another's
 * duplicate. The rows are not locked: the advisory lock already makes one instance the relay for the batch's
 * transaction, and nothing else deletes from the queue; a row lock per event cost a quarter of the relay's work in
 * Postgres (22 against 17 µs of backend CPU an event, 25,000 events, when progress was a column of the events).
 */
export const RelayLive = (options: RelayOptions = {}) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const bus = yield* EventBus
      const queue = yield* relayQueue
      const size = options.batchSize ?? 1000
      const idle = Duration.millis(options.pollMs ?? 60_000)
      const wakeups = yield* Wakeups
      const maxBackoff = options.maxBackoffMs ?? 1_000
      const busRetry = options.busRetryMs ?? 200

      const minGap = options.minGapMs ?? 50
      const deployment = yield* Deployment
      const claimed = yield* deployment.claim
      yield* Effect.logInfo(`relay: deployment ${claimed.id}${claimed.renewed ? " (new for this database)" : ""}`)

      const batch = Effect.gen(function* () {
        const found = yield* queue.next(RELAY_LOCK, size)
        if (found.length > 0 && !found[0].leader) return -1
        const rows = found.filter((r) => r.id !== null)
        if (rows.length === 0) return 0
        if (rows[0].deployment === null) return yield* Effect.dieMessage("relay: the deployment table has no row")
        yield* bus.publish(rows.map(toBusEvent))
        yield* queue.done(rows.map((r) => r.id))
        return rows.length
      }).pipe(sql.withTransaction, traced("Relay.batch"))

      // Drained, it sleeps until woken; after a wake-up it looks once more a second later (a poke can come before its
      // writer commits). Another instance in the middle of a batch: try again shortly.
      const loop = Effect.gen(function* () {
        const wakes = yield* wakeups.subscribe
        let failures = 0
        let sinceVacuum = 0
        let trailing = false
        let startedAt = 0
        while (true) {
          startedAt = Date.now()
          const result = yield* Effect.exit(batch)
          const reused = Exit.isFailure(result)
            ? Option.filter(Cause.failureOption(result.cause), (e) => e instanceof DeploymentReused)
            : Option.none()
          if (Option.isSome(reused)) {
            const fresh = yield* deployment.renew(reused.value.deployment)
            yield* Effect.logError(
              `relay: ${reused.value.message}; this database is a copy or a restore of one that ` +
                `published under its deployment id, so it is now deployment ${fresh} and the batch goes out again under it`
            )
            continue
          }
          if (Exit.isFailure(result)) {
            failures++
            const busDown = Option.isSome(
              Option.filter(Cause.failureOption(result.cause), (e) => e instanceof BusUnavailable)
            )
            const wait = busDown ? busRetry : Math.min(maxBackoff, 50 * 2 ** Math.min(failures, 16))
            yield* Effect.logWarning(`relay: batch failed, retrying in ${wait} ms`, Cause.squash(result.cause))
            yield* Effect.sleep(Duration.millis(wait))
            continue
          }
          failures = 0
          sinceVacuum += Math.max(result.value, 0)
          if (sinceVacuum >= VACUUM_EVERY) {
            sinceVacuum = 0
            yield* vacuumRelayQueue(sql).pipe(
              Effect.catchAllCause((cause) =>
                Effect.logWarning("relay: vacuum of its queue failed", Cause.squash(cause))
              )
            )
          }
          if (result.value >= size) continue // a full batch: more are waiting, go again at once
          if (result.value < 0) {
            yield* Effect.sleep(Duration.millis(50))
            continue
          }
          trailing = yield* waitForWake(wakes, trailing ? Duration.seconds(1) : idle)
          // Woken soon after a batch that carried events: let that moment's other writers join the next batch.
          const early = result.value > 0 && trailing ? minGap - (Date.now() - startedAt) : 0
          if (early > 0) yield* Effect.sleep(Duration.millis(early))
        }
      }).pipe(Effect.scoped)
      yield* Effect.forkScoped(loop)
    })
  )
