import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Table `calendar_feeds`: the secret iCalendar URLs of an org, one per team member or offering each, kept as the
 * SHA-256 of the secret only. This store is its only writer; the public feed finds its row by that hash.
 */

export type FeedKind = "member" | "offering"

export type FeedRow = {
  readonly id: string
  readonly org_id: string
  readonly kind: FeedKind
  readonly user_id: string | null
  readonly offering_id: string | null
  readonly created_at: Date
  readonly revoked_at: Date | null
}

const columns = (sql: SqlClient.SqlClient) => sql`id, org_id, kind, user_id, offering_id, created_at, revoked_at`

/** The org's feeds still open (one member's, when told), oldest first. */
export const feedsOf = (sql: SqlClient.SqlClient, orgId: string, userId?: string) =>
  sql<FeedRow>`select ${columns(sql)} from calendar_feeds where org_id = ${orgId} and revoked_at is null
    ${userId === undefined ? sql`` : sql`and user_id = ${userId}`}
    order by created_at, id limit 1000`

/** The org's feed by id, open or revoked. */
export const feedById = (sql: SqlClient.SqlClient, orgId: string, id: string) =>
  sql<FeedRow>`select ${columns(sql)} from calendar_feeds where org_id = ${orgId} and id = ${id}`.pipe(
    Effect.map((rows) => rows[0])
  )

/**
 * The open feed whose secret has this hash, with what it shows still there: a member still on the team, an offering
 * not deleted. Anything else is no feed.
 */
export const openFeedByHash = (sql: SqlClient.SqlClient, tokenHash: string) =>
  sql<FeedRow & { readonly timezone: string; readonly org_name: string; readonly label: string | null }>`
    select f.id, f.org_id, f.kind, f.user_id, f.offering_id, f.created_at, f.revoked_at, g.timezone, g.name as org_name,
      coalesce(m.name, m.email, o.name) as label
    from calendar_feeds f join orgs g on g.id = f.org_id
      left join members m on m.user_id = f.user_id and m.org_id = f.org_id
      left join offerings o on o.id = f.offering_id and o.org_id = f.org_id
    where f.token_hash = ${tokenHash} and f.revoked_at is null
      and (f.kind <> 'member' or (m.user_id is not null and m.removed_at is null))
      and (f.kind <> 'offering' or (o.id is not null and o.deleted_at is null))`.pipe(Effect.map((rows) => rows[0]))

/** A new feed. */
export const insertFeed = (sql: SqlClient.SqlClient, row: FeedRow & { readonly token_hash: string }) =>
  sql`insert into calendar_feeds ${sql.insert(row)}`.pipe(Effect.asVoid)

/** Revoked at `at`; answers the feed as it is now, if the org had it open. */
export const revokeFeed = (sql: SqlClient.SqlClient, orgId: string, id: string, at: Date) =>
  sql<FeedRow>`update calendar_feeds set revoked_at = ${at} where org_id = ${orgId} and id = ${id} and revoked_at is null
    returning ${columns(sql)}`.pipe(Effect.map((rows) => rows[0]))
