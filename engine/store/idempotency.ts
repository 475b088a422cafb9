import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Table `idempotency_keys`: each org's Idempotency-Keys with the request they were used with and the response it got.
 * This store is its only writer.
 */

export interface KeptResponse {
  readonly request_hash: string
  readonly status: number
  readonly headers: { "content-type": string }
  readonly body: string
}

export interface NewKey {
  readonly orgId: string
  readonly key: string
  readonly requestHash: string
  readonly status: number
  readonly contentType: string
  readonly body: string
  readonly at: Date
}

const LOCK_NAMESPACE = 0x1de0

/** The key's lock to the end of the caller's transaction, if no other transaction holds it. */
export const lockKey = (sql: SqlClient.SqlClient, orgId: string, key: string) =>
  sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${LOCK_NAMESPACE}, hashtext(${orgId + key})) as ok`.pipe(
    Effect.map((rows) => rows[0].ok)
  )

/** What a first use of the key answered, if it was used. */
export const keptResponse = (sql: SqlClient.SqlClient, orgId: string, key: string) =>
  sql<KeptResponse>`
    select request_hash, status, headers, body from idempotency_keys where org_id = ${orgId} and key = ${key}`.pipe(
    Effect.map((rows) => rows[0])
  )

/** Keeps the response of a key's first use. */
export const keepResponse = (sql: SqlClient.SqlClient, kept: NewKey) =>
  sql`insert into idempotency_keys ${sql.insert({
    org_id: kept.orgId,
    key: kept.key,
    request_hash: kept.requestHash,
    status: kept.status,
    headers: JSON.stringify({ "content-type": kept.contentType }),
    body: kept.body,
    created_at: kept.at
  })}`.pipe(Effect.asVoid)

/** Forgets keys used before `cutoff`. */
export const forgetKeys = (sql: SqlClient.SqlClient, cutoff: Date) =>
  sql`delete from idempotency_keys where created_at < ${cutoff}`.pipe(Effect.asVoid)
