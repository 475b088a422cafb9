import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { EngineClock } from "../ports/Clock.ts"
import { Prepared, type PreparedStatement } from "../ports/Prepared.ts"
import { Wakeups } from "../ports/Wakeups.ts"
import type { Actor, Event, NewEvent } from "../schema/event.ts"
import { fn, traced } from "../tracing.ts"
import { currentActor } from "./actor.ts"
import { CurrentOrg } from "./CurrentOrg.ts"

export type { NewEvent } from "../schema/event.ts"

/** Events are served only once this old, so a cursor never passes one still being written. */
export const SETTLE_MS = 2000
const LOCK: PreparedStatement = {
  name: "events_lock_org",
  text: `insert into org_events as x (org_id, last_at) values ($1::uuid, $2::timestamptz)
    on conflict (org_id) do update set last_at = greatest(x.last_at, excluded.last_at)`
}

const APPEND: PreparedStatement = {
  name: "events_append",
  text: `with t as (
      insert into org_events as x (org_id, last_at) values ($1::uuid, $2::timestamptz)
      on conflict (org_id) do update set last_at = greatest(x.last_at, excluded.last_at)
      returning last_at
    ), e as (
      insert into events (org_id, type, data, created_at, actor)
      select $1::uuid, v.type, v.data::jsonb, t.last_at, $5::jsonb from t, unnest($3::text[], $4::text[]) with ordinality as v(type, data, n)
      order by v.n
      returning id
    )
    insert into relay_queue (event_id) select id from e`
}

export interface Row {
  readonly id: number
  readonly type: string
  readonly data: unknown
  readonly created_at: Date
  readonly actor: Actor | null
}

export interface EventsFilter {
  readonly after?: number
  readonly limit?: number
  readonly type?: string
  readonly order?: "asc" | "desc"
  readonly booking_id?: string
}

/**
 * The statement of events.list (events/history.test.ts reads its plan). A booking's events are matched by the
 * expression of the index events_booking (migration 0121), written the same way so the planner uses it.
 */
export const listStatement = (sql: SqlClient.SqlClient, orgId: string, q: EventsFilter, cutoff: Date) =>
  sql<Row>`
    select id, type, data, created_at, actor from events
    where org_id = ${orgId} and id > ${q.after ?? 0} and created_at <= ${cutoff}
    ${q.type === undefined ? sql`` : sql`and type = ${q.type}`}
    ${q.booking_id === undefined ? sql`` : sql`and (case when left(type, 8) = 'booking.' then data->>'id' else data->>'booking_id' end) = ${q.booking_id}`}
    order by id ${q.order === "desc" ? sql`desc` : sql`asc`} limit ${q.limit ?? 50}`

const toEvent = (r: Row): Event => ({
  id: r.id,
  type: r.type,
  data: r.data,
  created_at: r.created_at.toISOString(),
  actor: r.actor
})

export class Events extends Effect.Service<Events>()("Events", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const prepared = yield* Prepared
    const wakeups = yield* Wakeups

    /**
     * Writes events in the caller's transaction (or alone). The org's event row (org_events) is updated in the same
     * statement and stays locked until commit, so within an org ids are handed out in commit order and a reader can
     * never see id N+1 before N; its last_at, never lower than the last one, stamps the events, so created_at never
     * goes down as ids go up and the 2 second cutoff cannot skip one. Call it last in a transaction (after every row
     * lock) so lock order is always rows -> org events. Each event's id goes into relay_queue in the same statement,
     * for the relay (every writer of events does so: transports/events/relay.ts reads only the queue). Each event
     * carries who made the change: `actor` when the caller knows better (a guest's mail), else the request's.
     */
    const append = (orgId: string, events: ReadonlyArray<NewEvent>, actor?: Actor) =>
      Effect.gen(function* () {
        if (events.length === 0) return
        yield* prepared.run(APPEND, [
          orgId,
          yield* clock.now,
          events.map((e) => e.type),
          events.map((e) => JSON.stringify(e.data)),
          JSON.stringify(actor ?? (yield* currentActor))
        ])
        yield* wakeups.poke
      }).pipe(Effect.orDie, traced("Events.append"))

    /**
     * Takes the org's event row lock until commit without writing an event: whoever holds it knows that no event
     * of the org is in flight, so the newest id is final (webhooks.create starts an endpoint after it).
     */
    const lockOrg = (orgId: string) =>
      Effect.gen(function* () {
        yield* prepared.run(LOCK, [orgId, yield* clock.now])
      }).pipe(Effect.orDie)

    const list = fn("Events.list")(function* (q: EventsFilter) {
      const org = yield* CurrentOrg
      const after = q.after ?? 0
      const cutoff = new Date((yield* clock.now).getTime() - SETTLE_MS)
      const rows = yield* listStatement(sql, org.id, { ...q, after }, cutoff).pipe(Effect.orDie)
      const data = rows.map(toEvent)
      const next_after = data.reduce((m, e) => Math.max(m, e.id), after)
      return { data, next_after }
    })

    return { append, lockOrg, list } as const
  })
}) {}
