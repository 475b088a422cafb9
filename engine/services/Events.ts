import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { Event } from "../schema/event.ts"
import { EngineClock } from "./Clock.ts"
import { CurrentOrg } from "./CurrentOrg.ts"

export interface NewEvent {
  readonly type: string
  readonly data: unknown
}

/** Events are served only once this old, so a cursor never passes one still being written. */
export const SETTLE_MS = 2000
/** Per-org event lock (key 2 = hashtext(org_id)); held by append until commit. */
export const LOCK_NAMESPACE = 0x0e7e

interface Row {
  readonly id: number
  readonly type: string
  readonly data: unknown
  readonly created_at: Date
}

const toEvent = (r: Row): Event => ({ id: r.id, type: r.type, data: r.data, created_at: r.created_at.toISOString() })

export class Events extends Effect.Service<Events>()("Events", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock

    /** The caller's transaction as it is (no savepoint: a failure here is a defect that rolls it all back), else a new one. */
    const inTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (open) => (Option.isSome(open) ? effect : sql.withTransaction(effect)))

    /**
     * Writes events in the caller's transaction. The org's event lock is held until commit, so within an
     * org ids are handed out in commit order and a reader can never see id N+1 before N. Call it last in a
     * transaction (after every row lock) so lock order is always rows -> org events.
     */
    const append = (orgId: string, events: ReadonlyArray<NewEvent>) =>
      Effect.gen(function*() {
        if (events.length === 0) return
        yield* sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}, hashtext(${orgId}))`
        // Stamped under the lock, so created_at never goes down as ids go up and the 2 second cutoff cannot skip one.
        const at = yield* clock.now
        yield* sql`insert into events ${
          sql.insert(events.map((e) => ({ org_id: orgId, type: e.type, data: JSON.stringify(e.data), created_at: at })))
        }`
      }).pipe(inTransaction, Effect.orDie, Effect.withSpan("Events.append"))

    const list = Effect.fn("Events.list")(function*(q: {
      after?: number
      limit?: number
      type?: string
      order?: "asc" | "desc"
    }) {
      const org = yield* CurrentOrg
      const after = q.after ?? 0
      const cutoff = new Date((yield* clock.now).getTime() - SETTLE_MS)
      const typeFilter = q.type === undefined ? sql`` : sql`and type = ${q.type}`
      const order = q.order === "desc" ? sql`desc` : sql`asc`
      const rows = yield* sql<Row>`
        select id, type, data, created_at from events
        where org_id = ${org.id} and id > ${after} and created_at <= ${cutoff} ${typeFilter}
        order by id ${order} limit ${q.limit ?? 50}`.pipe(Effect.orDie)
      const data = rows.map(toEvent)
      const next_after = data.reduce((m, e) => Math.max(m, e.id), after)
      return { data, next_after }
    })

    return { append, list } as const
  })
}) {}
