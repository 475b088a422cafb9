import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Prepared, type PreparedStatement } from "../ports/Prepared.ts"
import type { Actor } from "../schema/event.ts"

/**
 * Tables `events`, `org_events` and `relay_queue`: each org's events, its event clock row, and the ids the relay has
 * yet to carry to the bus. This store is their only writer. The org's row is updated in the statement that writes the
 * events and stays locked until commit, so within an org ids are handed out in commit order and a reader can never see
 * id N+1 before N; its last_at, never lower than the last one, stamps the events, so created_at never goes down as ids
 * go up. Each event's id goes into relay_queue in the same statement. A new booking writes its events in its own one
 * statement (engine/store/bookings.ts) with the parts of bookingEventsText.
 */

/** Takes the org's event row lock until commit without writing an event ($1 the org, $2 now). */
export const LOCK_ORG: PreparedStatement = {
  name: "events_lock_org",
  text: `insert into org_events as x (org_id, last_at) values ($1::uuid, $2::timestamptz)
    on conflict (org_id) do update set last_at = greatest(x.last_at, excluded.last_at)`
}

/** Events of an org ($1), stamped under its clock row at $2 or later: types $3 and data $4 (as text), in order, made by actor $5. */
export const APPEND: PreparedStatement = {
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

/** The values a new booking's events are written with, as the placeholders of its statement name them. */
export interface BookingEventsValues {
  readonly org: string
  readonly at: string
  readonly month: string
  readonly quota: string
  readonly types: string
  readonly data: string
  readonly actor: string
}

/**
 * A new booking's events, as common table expressions that follow its row's (`after`, one row when it was written):
 * t, the org's event clock row, which also counts the month's bookings against the plan's quota (refused past it;
 * engine/store/rules/quota.sql), e, the events stamped under it, r, their ids queued for the relay.
 */
export const bookingEventsText = (after: string, v: BookingEventsValues) => `t as (
      insert into org_events as x (org_id, last_at, month, used, quota) select ${v.org}, ${v.at}, ${v.month}, 1, ${v.quota} from ${after}
      on conflict (org_id) do update set last_at = greatest(x.last_at, excluded.last_at),
        used = case when excluded.month > x.month then 1 else x.used + 1 end, month = greatest(x.month, excluded.month), quota = excluded.quota
      returning last_at
    ), e as (
      insert into events (org_id, type, data, created_at, actor)
      select ${v.org}, v.type, v.data, t.last_at, ${v.actor} from t, rows from (unnest(${v.types}), jsonb_array_elements(${v.data})) with ordinality as v(type, data, n)
      order by v.n
      returning id
    ), r as (
      insert into relay_queue (event_id) select id from e
    )`

export interface EventRow {
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
  sql<EventRow>`
    select id, type, data, created_at, actor from events
    where org_id = ${orgId} and id > ${q.after ?? 0} and created_at <= ${cutoff}
    ${q.type === undefined ? sql`` : sql`and type = ${q.type}`}
    ${q.booking_id === undefined ? sql`` : sql`and (case when left(type, 8) = 'booking.' then data->>'id' else data->>'booking_id' end) = ${q.booking_id}`}
    order by id ${q.order === "desc" ? sql`desc` : sql`asc`} limit ${q.limit ?? 50}`

/** A queued event as the relay reads it, with the deployment id in force. */
export interface QueuedEvent {
  readonly leader: boolean
  readonly id: number
  readonly deployment: string
  readonly org_id: string
  readonly type: string
  readonly data: unknown
  readonly created_at: Date
}

/**
 * The relay's two statements, prepared (in its batch's transaction). READ: the leader check and the oldest queued
 * events in one statement ($1 the lock key, $2 how many): a row with leader false (and no event) when another instance
 * holds the relay's lock, one row with leader true and no event when there is nothing to do. The queue's ids are taken
 * first and the events looked up by them: joined, the planner merged the queue with the whole events table in id
 * order, and each batch read every event written so far. Each row carries the deployment id in force (read once per
 * statement), so an instance publishes under the id another instance renewed. DONE: the batch off the queue ($1 its
 * ids, one array: one text whatever their number).
 */
const RELAY_READ: PreparedStatement = {
  name: "relay_read",
  text: `with l as (select pg_try_advisory_xact_lock($1::int, 0) as leader)
    select l.leader, (select d.id from deployment d) as deployment, e.id, e.org_id, e.type, e.data, e.created_at
    from l left join lateral (
      select e.id, e.org_id, e.type, e.data, e.created_at from events e
      where l.leader and e.id = any(array(select q.event_id from relay_queue q order by q.event_id limit $2::int))
      order by e.id
    ) e on true`
}
const RELAY_DONE: PreparedStatement = {
  name: "relay_done",
  text: `delete from relay_queue where event_id = any($1::bigint[])`
}

/** The relay's queue: the oldest queued events for whoever holds the lock key, and a batch taken off once published. */
export const relayQueue = Effect.map(Prepared, (prepared) => ({
  next: (lockKey: number, size: number) => prepared.run<QueuedEvent>(RELAY_READ, [lockKey, size]),
  done: (ids: ReadonlyArray<number>) => prepared.run(RELAY_DONE, [ids]).pipe(Effect.asVoid)
}))
