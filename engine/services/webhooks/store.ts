import type { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { WebhookEndpointContext } from "../../machines/webhookEndpoint.ts"
import type { DeliveryRow, EndpointRow, EventRow, StoredState } from "./row.ts"
import { LOG_SIZE } from "./Settings.ts"

export interface Outcome {
  readonly cursor: number
  readonly state: StoredState
  readonly context: WebhookEndpointContext
  readonly retryAt: Date | null
  /** The attempts since the last save, oldest first (at least one). */
  readonly logs: ReadonlyArray<DeliveryRow>
}

const leaseFor = (ms: number) => `${Math.ceil(ms)} milliseconds`

/**
 * The dispatcher's SQL. Leases use the database's clock (shared by every instance); business times
 * (delivery `at`, retry_at) come from the engine clock. No transaction is held across an HTTP call.
 */
export const endpointStore = (sql: SqlClient.SqlClient) => ({
  /**
   * Takes the endpoint when nobody holds it (or their lease lapsed). With `now` (a run), a failing endpoint is
   * only taken when its retry is due or its org has an event newer than its last failure; without (a
   * redelivery), any live endpoint is.
   */
  claim: (id: string, token: string, leaseMs: number, now: Date | null) =>
    sql<EndpointRow>`
      update webhook_endpoints w set lease_owner = ${token}, leased_until = clock_timestamp() + ${leaseFor(leaseMs)}::interval
      where w.id = ${id} and w.state <> 'off' and (w.leased_until is null or w.leased_until < clock_timestamp())
      ${now === null ? sql`` : sql`and (w.state = 'active' or w.retry_at <= ${now} or exists (
        select 1 from events e where e.org_id = w.org_id and e.id > w.seen_event_id))`}
      returning *`.pipe(Effect.map((rows) => Option.fromNullable(rows[0]))),

  /** Gives the endpoint back; true when it is healthy and events wait for it (run again). */
  release: (id: string, token: string) =>
    sql<{ more: boolean }>`
      update webhook_endpoints w set lease_owner = null, leased_until = null
      where w.id = ${id} and w.lease_owner = ${token}
      returning (w.state = 'active' and exists (
        select 1 from events e where e.org_id = w.org_id and e.id > w.cursor_id and e.type = any(w.events))) as more`.pipe(
      Effect.map((rows) => rows[0]?.more === true)
    ),

  /** The next events the endpoint subscribes to, in id order (per org, ids are commit-ordered). */
  pending: (row: EndpointRow, limit: number) =>
    sql<EventRow>`
      select id, type, data, created_at from events
      where org_id = ${row.org_id} and id > ${row.cursor_id} and type = any(${row.events})
      order by id limit ${limit}`,

  /** Logs attempts and stores where they left the endpoint, while the lease is ours and the endpoint is still on. */
  record: (id: string, token: string, leaseMs: number, o: Outcome) =>
    sql<{ id: string }>`
      with log as (
        insert into webhook_deliveries (endpoint_id, event_id, status, duration_ms, error, at)
        select ${id}, l.event_id, l.status, l.duration_ms, l.error, l.at
        from jsonb_to_recordset(${JSON.stringify(o.logs)}::jsonb)
          as l(event_id bigint, status integer, duration_ms integer, error text, at timestamptz)
        where exists (select 1 from webhook_endpoints where id = ${id})
      )
      update webhook_endpoints w set cursor_id = ${o.cursor}, state = ${o.state}, context = ${JSON.stringify(o.context)},
        retry_at = ${o.retryAt}, last_delivery_at = ${o.logs[o.logs.length - 1].at}, leased_until = clock_timestamp() + ${leaseFor(leaseMs)}::interval,
        seen_event_id = (select coalesce(max(e.id), 0) from events e where e.org_id = w.org_id)
      where w.id = ${id} and w.lease_owner = ${token} and w.state <> 'off'
      returning w.id`.pipe(Effect.map((rows) => rows.length > 0)),

  /** Keeps the last LOG_SIZE attempts of an endpoint. */
  prune: (id: string) =>
    sql`
      delete from webhook_deliveries where endpoint_id = ${id} and id <= (
        select id from webhook_deliveries where endpoint_id = ${id} order by id desc offset ${LOG_SIZE} limit 1)`,

  /** Live endpoints of these orgs: woken when one of their events is published. */
  liveOf: (orgIds: ReadonlyArray<string>) =>
    orgIds.length === 0
      ? Effect.succeed([])
      : sql<{ id: string; org_id: string }>`select id, org_id from webhook_endpoints where org_id in ${sql.in(orgIds)} and state <> 'off'`,

  /** Failing endpoints whose retry time has come. */
  due: (now: Date) => sql<{ id: string }>`select id from webhook_endpoints where state = 'failing' and retry_at <= ${now}`,

  /** Healthy endpoints nobody holds that have events waiting: a safety net for a missed wake-up. */
  /** Healthy endpoints with events waiting; `wait_ms` is how long another instance still holds one (0: free now). */
  behind: () =>
    sql<{ id: string; wait_ms: number }>`
      select w.id, greatest(0, ceil(extract(epoch from coalesce(w.leased_until, clock_timestamp()) - clock_timestamp()) * 1000))::int as wait_ms
      from webhook_endpoints w
      where w.state = 'active' and exists (
        select 1 from events e where e.org_id = w.org_id and e.id > w.cursor_id and e.type = any(w.events))`
})

export type EndpointStore = ReturnType<typeof endpointStore>
