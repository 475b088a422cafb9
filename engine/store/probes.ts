import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Whether the database answers a trivial statement (readiness); fails as the statement does. */
export const databaseAnswers = (sql: SqlClient.SqlClient) => sql`select 1`.pipe(Effect.asVoid)

/** Bookings by status, held ones split by whether they still keep their place (the `bookings` gauge). */
export const bookingCounts = (sql: SqlClient.SqlClient) =>
  sql<{ status: string; n: number }>`
    select case when status = 'held' and not keeps_place then 'held_lapsed' else status end as status, count(*)::int as n
    from bookings group by 1`

/** Work waiting: events not yet relayed, mail not yet sent (the `outbox_backlog` gauge). */
export const outboxBacklog = (sql: SqlClient.SqlClient) =>
  sql<{ events: number; mail: number }>`
    select (select count(*)::int from relay_queue) as events, (select count(*)::int from mail_queue) as mail`

/** Webhook delivery attempts by outcome (the `webhook_deliveries` gauge). */
export const deliveryOutcomes = (sql: SqlClient.SqlClient) =>
  sql<{ ok: number; failed: number }>`
    select count(*) filter (where status between 200 and 299)::int as ok,
           count(*) filter (where status is null or status not between 200 and 299)::int as failed
    from webhook_deliveries`

/** Reclaims the relay queue's dead rows (the relay runs it every so many events). */
export const vacuumRelayQueue = (sql: SqlClient.SqlClient) => sql.unsafe("vacuum relay_queue")

/** When the next failing webhook endpoint is due again: a subquery for the job scheduler's `next`. */
export const nextWebhookRetry = (sql: SqlClient.SqlClient) =>
  sql`(select min(retry_at) from webhook_endpoints where state = 'failing')`

/**
 * Whether a transaction of this database other than the caller's began before `at`: one that read before a
 * commit at `at` and has not ended may still write what that commit forbids (closures waits them out).
 */
export const olderTransactions = (sql: SqlClient.SqlClient, at: Date) =>
  sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() and xact_start < ${at}`.pipe(
    Effect.map((rows) => (rows[0]?.n ?? 0) > 0)
  )

/** The database's own time now (not the transaction's start). */
export const databaseNow = (sql: SqlClient.SqlClient) =>
  sql<{ at: Date }>`select clock_timestamp() as at`.pipe(Effect.map((rows) => rows[0]?.at ?? new Date()))
