import { SqlClient } from "@effect/sql"
import { Cause, Duration, Effect, Exit, Layer } from "effect"
import { type BusEvent, EventBus } from "../../engine/ports/Bus.ts"
import { waitForWake, Wakeups } from "../../engine/services/Wakeups.ts"

export interface RelayOptions {
  /**
   * Longest sleep when the outbox is drained and nothing wakes the relay; default 60 s. Writers of events wake it
   * (Wakeups), so this only bounds the wait for events another instance wrote and could not relay itself.
   */
  readonly pollMs?: number
  /** Events per batch (one transaction); default 1000. */
  readonly batchSize?: number
  /** Longest wait between retries while the bus is down; default 5 s, well below the 2-minute dedupe window. */
  readonly maxBackoffMs?: number
}

/** Advisory lock key (namespace, 0): the instance that takes it in a batch's transaction is that batch's relay. */
const RELAY_LOCK = 0x0e7f

interface Row {
  readonly id: number
  readonly org_id: string
  readonly type: string
  readonly data: unknown
  readonly created_at: Date
}

const toBusEvent = (r: Row): BusEvent => ({ id: r.id, org_id: r.org_id, type: r.type, data: r.data, created_at: r.created_at.toISOString() })

/**
 * Carries committed events to the bus in id order. Progress is per event (relayed_at): ids of different orgs
 * are not handed out in commit order, so a single cursor could pass an event still being written. One batch
 * = one transaction: leader check, lock the oldest unrelayed rows, publish, mark them. A crash after publish
 * re-publishes the batch and the bus dedupes on the event id (Nats-Msg-Id).
 */
export const RelayLive = (options: RelayOptions = {}) =>
  Layer.scopedDiscard(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const bus = yield* EventBus
    const size = options.batchSize ?? 1000
    const idle = Duration.millis(options.pollMs ?? 60_000)
    const wakeups = yield* Wakeups
    const maxBackoff = options.maxBackoffMs ?? 5_000

    const batch = Effect.gen(function*() {
      const [{ leader }] = yield* sql<{ leader: boolean }>`select pg_try_advisory_xact_lock(${RELAY_LOCK}, 0) as leader`
      if (!leader) return -1
      const rows = yield* sql<Row>`
        select id, org_id, type, data, created_at from events where relayed_at is null
        order by id limit ${size} for update skip locked`
      if (rows.length === 0) return 0
      yield* bus.publish(rows.map(toBusEvent))
      yield* sql`update events set relayed_at = clock_timestamp() where id in ${sql.in(rows.map((r) => r.id))}`
      return rows.length
    }).pipe(sql.withTransaction, Effect.withSpan("Relay.batch"))

    // Drained, it sleeps until woken; after a wake-up it looks once more a second later (a poke can come before its
    // writer commits). Another instance in the middle of a batch: try again shortly.
    const loop = Effect.gen(function*() {
      const wakes = yield* wakeups.subscribe
      let failures = 0
      let trailing = false
      while (true) {
        const result = yield* Effect.exit(batch)
        if (Exit.isFailure(result)) {
          failures++
          const wait = Math.min(maxBackoff, 50 * 2 ** Math.min(failures, 16))
          yield* Effect.logWarning(`relay: batch failed, retrying in ${wait} ms`, Cause.squash(result.cause))
          yield* Effect.sleep(Duration.millis(wait))
          continue
        }
        failures = 0
        if (result.value >= size) continue // a full batch: more are waiting, go again at once
        if (result.value < 0) {
          yield* Effect.sleep(Duration.millis(50))
          continue
        }
        trailing = yield* waitForWake(wakes, trailing ? Duration.seconds(1) : idle)
      }
    }).pipe(Effect.scoped)
    yield* Effect.forkScoped(loop)
  }))
