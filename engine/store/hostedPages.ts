import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Table `hosted_pages`: the org's widget key, the publishable key the engine keeps for each org's own booking page
 * (/book) and the console's preview of the widget, made on first use. This store is its only writer.
 */

/** The org's page key with its API key's id and when it was made, while that key is not revoked. */
export const pageKey = (sql: SqlClient.SqlClient, orgId: string) =>
  sql<{ publishable_key: string; id: string; prefix: string; created_at: Date }>`
    select h.publishable_key, k.id, k.prefix, k.created_at from hosted_pages h
    join api_keys k on k.org_id = h.org_id and k.hash = encode(sha256(convert_to(h.publishable_key, 'UTF8')), 'hex')
    where h.org_id = ${orgId} and k.revoked_at is null`.pipe(Effect.map((rows) => rows[0]))

/** Keeps `key` as the org's page key, in place of one revoked. */
export const keepPageKey = (sql: SqlClient.SqlClient, orgId: string, key: string) =>
  sql`insert into hosted_pages (org_id, publishable_key) values (${orgId}, ${key})
    on conflict (org_id) do update set publishable_key = excluded.publishable_key`.pipe(Effect.asVoid)
