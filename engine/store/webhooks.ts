import type { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { Accepted } from "../machines/decide.ts"
import {
  decideWebhookEndpoint,
  RETRY_INTERVAL_MS,
  type WebhookEndpointContext,
  type WebhookEndpointEvent,
  type WebhookEndpointRow,
  type WebhookEndpointState,
  type webhookEndpointMachine
} from "../machines/webhookEndpoint.ts"
import { conflict } from "../schema/errors.ts"
import { traced } from "../tracing.ts"

// The store of `webhook_endpoints` and `webhook_deliveries`: the only code that writes them. An endpoint's lifecycle
// columns change only through the endpoint machine, and `columnsOf` is the one place they are derived from its result.

/** Delivery attempts kept per endpoint. */
export const LOG_SIZE = 50

export type StoredState = Exclude<WebhookEndpointState, "deleted">

export interface EndpointRow {
  readonly id: string
  readonly org_id: string
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly secret: string
  readonly api_key_id: string | null
  readonly state: StoredState
  readonly context: WebhookEndpointContext
  /** The last event id delivered (2xx) or skipped at creation; delivery resumes after it. */
  readonly cursor_id: number
  readonly retry_at: Date | null
  readonly last_delivery_at: Date | null
  readonly created_at: Date
}

export interface DeliveryRow {
  readonly event_id: number
  readonly status: number | null
  readonly duration_ms: number
  readonly error: string | null
  readonly at: Date
}

export interface EventRow {
  readonly id: number
  readonly type: string
  readonly data: unknown
  readonly created_at: Date
}

/** What the endpoint machine decides of a row: its state, its context, and when a failing one is tried again. */
export interface EndpointColumns {
  readonly state: StoredState
  readonly context: WebhookEndpointContext
  readonly retry_at: Date | null
}

/**
 * The columns of a machine state reached at `at`: the one derivation of an endpoint's lifecycle columns. A failing
 * endpoint is tried again RETRY_INTERVAL_MS after its last failure. Null: the machine deleted it (its row goes).
 */
export const columnsOf = (
  state: WebhookEndpointState,
  context: WebhookEndpointContext,
  at: Date
): EndpointColumns | null =>
  state === "deleted"
    ? null
    : { state, context, retry_at: state === "failing" ? new Date(at.getTime() + RETRY_INTERVAL_MS) : null }

/** The machine's row restored from the table's columns. */
export const machineRow = (r: Pick<EndpointRow, "state" | "context">): WebhookEndpointRow => ({
  value: r.state,
  context: r.context
})

type Decided = Accepted<typeof webhookEndpointMachine>

export interface NewEndpoint {
  readonly id: string
  readonly org_id: string
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly secret: string
  readonly api_key_id: string | null
  readonly cursor_id: number
  readonly created_at: Date
}

export interface Outcome extends EndpointColumns {
  readonly cursor: number
  /** The attempts since the last save, oldest first (at least one). */
  readonly logs: ReadonlyArray<DeliveryRow>
}

const leaseFor = (ms: number) => `${Math.ceil(ms)} milliseconds`

/**
 * The endpoints' SQL. Leases use the database's clock (shared by every instance); business times (delivery `at`,
 * retry_at) come from the engine clock. No transaction is held across an HTTP call.
 */
export const webhookStore = (sql: SqlClient.SqlClient) => {
  /** Writes an accepted result: the columns it decides, or the row's deletion. */
  const persist = (id: string, decided: Decided, at: Date) => {
    const columns = columnsOf(decided.state, decided.context, at)
    return (
      columns === null
        ? sql`delete from webhook_endpoints where id = ${id}`
        : sql`update webhook_endpoints set ${sql.update({ ...columns, context: JSON.stringify(columns.context) })} where id = ${id}`
    ).pipe(Effect.asVoid)
  }

  return {
    /** A new endpoint, as the machine starts it. */
    insert: (row: NewEndpoint, started: Decided) => {
      const columns = columnsOf(started.state, started.context, row.created_at)
      return columns === null
        ? Effect.void
        : sql`insert into webhook_endpoints ${sql.insert({ ...row, ...columns, context: JSON.stringify(columns.context) })}`.pipe(
            Effect.asVoid
          )
    },

    /** One machine event on the row: refused is 409 with the machine's code; accepted is written (persist). */
    apply: (row: Pick<EndpointRow, "id" | "state" | "context">, event: WebhookEndpointEvent, at: Date) =>
      Effect.gen(function* () {
        const decided = decideWebhookEndpoint(machineRow(row), event)
        if (!decided.ok) return yield* conflict(decided.code, decided.message)
        yield* persist(row.id, decided, at)
        return decided
      }),

    /**
     * Revoking an API key switches off every endpoint it created, at once (spec "Key revocation"). Run it in the
     * transaction that revokes the key; each endpoint goes through its machine (key_revoked -> off).
     */
    switchOffForKey: (keyId: string, at: Date) =>
      Effect.gen(function* () {
        const rows = yield* sql<Pick<EndpointRow, "id" | "state" | "context">>`
          select id, state, context from webhook_endpoints where api_key_id = ${keyId} and state <> 'off' order by id for update`
        for (const row of rows) {
          const decided = decideWebhookEndpoint(machineRow(row), { type: "key_revoked", at: at.toISOString() })
          if (decided.ok) yield* persist(row.id, decided, at)
        }
      }).pipe(traced("Webhooks.switchOffForKey")),

    /**
     * Takes the endpoint when nobody holds it (or their lease lapsed). With `now` (a run), a failing endpoint is
     * only taken when its retry is due or its org has an event newer than its last failure; without (a
     * redelivery), any live endpoint is.
     */
    claim: (id: string, token: string, leaseMs: number, now: Date | null) =>
      sql<EndpointRow>`
        update webhook_endpoints w set lease_owner = ${token}, leased_until = clock_timestamp() + ${leaseFor(leaseMs)}::interval
        where w.id = ${id} and w.state <> 'off' and (w.leased_until is null or w.leased_until < clock_timestamp())
        ${
          now === null
            ? sql``
            : sql`and (w.state = 'active' or w.retry_at <= ${now} or exists (
          select 1 from events e where e.org_id = w.org_id and e.id > w.seen_event_id))`
        }
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
          retry_at = ${o.retry_at}, last_delivery_at = ${o.logs[o.logs.length - 1].at}, leased_until = clock_timestamp() + ${leaseFor(leaseMs)}::interval,
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
        : sql<{
            id: string
            org_id: string
          }>`select id, org_id from webhook_endpoints where org_id in ${sql.in(orgIds)} and state <> 'off'`,

    /** Failing endpoints whose retry time has come. */
    due: (now: Date) =>
      sql<{ id: string }>`select id from webhook_endpoints where state = 'failing' and retry_at <= ${now}`,

    /**
     * Healthy endpoints with events waiting (a safety net for a missed wake-up); `wait_ms` is how long another
     * instance still holds one (0: free now).
     */
    behind: () =>
      sql<{ id: string; wait_ms: number }>`
        select w.id, greatest(0, ceil(extract(epoch from coalesce(w.leased_until, clock_timestamp()) - clock_timestamp()) * 1000))::int as wait_ms
        from webhook_endpoints w
        where w.state = 'active' and exists (
          select 1 from events e where e.org_id = w.org_id and e.id > w.cursor_id and e.type = any(w.events))`
  } as const
}

export type WebhookStore = ReturnType<typeof webhookStore>
