import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Table `hosted_pages`: the publishable key the engine's own booking page (/book) uses for each org, made on first
 * use. This store is its only writer.
 */

/** The org's page key, while the key is not revoked. */
export const pageKey = (sql: SqlClient.SqlClient, orgId: string) =>
  sql<{ publishable_key: string }>`
    select h.publishable_key from hosted_pages h join api_keys k on k.org_id = h.org_id and k.prefix = left(h.publishable_key, 12)
    where h.org_id = ${orgId} and k.revoked_at is null`.pipe(Effect.map((rows) => rows[0]?.publishable_key))

/** Keeps `key` as the org's page key, in place of one revoked. */
export const keepPageKey = (sql: SqlClient.SqlClient, orgId: string, key: string) =>
  sql`insert into hosted_pages (org_id, publishable_key) values (${orgId}, ${key})
    on conflict (org_id) do update set publishable_key = excluded.publishable_key`.pipe(Effect.asVoid)
