import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Table `hosted_pages`: the org's widget key, the publishable key the engine keeps for each org's own booking page
 * (/book) and the console's preview of the widget, made on first use. This store is its only writer.
 */

/**
 * The org's page key beside the org's keys not revoked that share its prefix, each with its hash: the one whose hash is
 * the page key's (hashed as every key is, by the caller) is the page key's own row.
 */
export const pageKeyCandidates = (sql: SqlClient.SqlClient, orgId: string) =>
  sql<{ publishable_key: string; id: string; prefix: string; hash: string; created_at: Date }>`
    select h.publishable_key, k.id, k.prefix, k.hash, k.created_at from hosted_pages h
    join api_keys k on k.org_id = h.org_id and k.prefix = left(h.publishable_key, 12)
    where h.org_id = ${orgId} and k.revoked_at is null`

/** Keeps `key` as the org's page key, in place of one revoked. */
export const keepPageKey = (sql: SqlClient.SqlClient, orgId: string, key: string) =>
  sql`insert into hosted_pages (org_id, publishable_key) values (${orgId}, ${key})
    on conflict (org_id) do update set publishable_key = excluded.publishable_key`.pipe(Effect.asVoid)
