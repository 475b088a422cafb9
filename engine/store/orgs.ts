import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Tables `orgs` and `api_keys`: each org's settings, and the keys that reach it (stored as a hash only). This store is
 * their only writer: the orgs service creates orgs and changes their settings and waiver, keys are made and revoked
 * here, and the team revokes a removed member's keys through `revokeKeysOf`. The row types are the caller's (the
 * service's OrgRow and KeyRow), so the store knows the columns only as SQL does.
 */

/** The org's row, or nothing. */
export const orgById = <Row extends object>(sql: SqlClient.SqlClient, id: string) =>
  sql<Row>`select * from orgs where id = ${id}`.pipe(Effect.map((rows) => rows[0] as Row | undefined))

/** A page of every org, ordered by id, one more than `limit` when there are more. */
export const orgsPage = <Row extends object>(sql: SqlClient.SqlClient, after: string | undefined, limit: number) =>
  sql<Row>`select * from orgs ${after === undefined ? sql`` : sql`where id > ${after}`} order by id limit ${limit + 1}`

/** The org's name (the team's invite mail names it). */
export const orgName = (sql: SqlClient.SqlClient, id: string) =>
  sql<{ name: string }>`select name from orgs where id = ${id}`.pipe(Effect.map((rows) => rows[0].name))

export const insertOrg = (sql: SqlClient.SqlClient, row: Record<string, unknown>) =>
  sql`insert into orgs ${sql.insert(row)}`.pipe(Effect.asVoid)

/** The org with the changes given, stamped `now`; no row when there is no such org. */
export const updateOrg = <Row extends object>(
  sql: SqlClient.SqlClient,
  id: string,
  changes: Record<string, unknown>,
  now: Date
) =>
  sql<Row>`update orgs set ${sql.update({ ...changes, updated_at: now })} where id = ${id} returning *`.pipe(
    Effect.map((rows) => rows[0] as Row | undefined)
  )

/** Whether another org has the slug. */
export const slugTaken = (sql: SqlClient.SqlClient, slug: string, orgId: string) =>
  sql`select 1 from orgs where slug = ${slug} and id <> ${orgId}`.pipe(Effect.map((rows) => rows.length > 0))

/** The org's currency, its row locked to the end of the transaction, and whether money has moved in it. */
export const lockCurrency = (sql: SqlClient.SqlClient, orgId: string) =>
  sql<{ currency: string; moved: boolean }>`
    select currency, exists (select 1 from bookings where org_id = ${orgId} and (total_cents > 0 or gift_cents > 0 or paid_cents > 0))
      or exists (select 1 from payments where org_id = ${orgId}) or exists (select 1 from gift_cards where org_id = ${orgId})
      or exists (select 1 from gift_purchases where org_id = ${orgId}) as moved
    from orgs where id = ${orgId} for update`.pipe(Effect.map((rows) => rows[0]))

export const waiverOf = (sql: SqlClient.SqlClient, orgId: string) =>
  sql<{ waiver_text: string | null; waiver_version: number }>`
    select waiver_text, waiver_version from orgs where id = ${orgId}`.pipe(Effect.map((rows) => rows[0]))

/** The org's new waiver text under the next version; answers that version. */
export const setWaiverText = (sql: SqlClient.SqlClient, orgId: string, text: string | null) =>
  sql<{ waiver_version: number }>`
    update orgs set waiver_text = ${text}, waiver_version = waiver_version + 1 where id = ${orgId} returning waiver_version`.pipe(
    Effect.map((rows) => rows[0].waiver_version)
  )

export const insertKey = (sql: SqlClient.SqlClient, row: Record<string, unknown>) =>
  sql`insert into api_keys ${sql.insert(row)}`.pipe(Effect.asVoid)

/** Every key of the org, revoked ones too, with the role of its member (an org's own key is an owner's). */
export const keysOf = <Row extends object>(sql: SqlClient.SqlClient, orgId: string) =>
  sql<Row>`
    select k.id, k.prefix, k.name, k.user_id, coalesce(m.role, 'owner') as role, k.kind, k.created_at, k.revoked_at
    from api_keys k left join members m on m.user_id = k.user_id
    where k.org_id = ${orgId} order by k.created_at, k.id`

/** The key revoked (at `at`, or when it was already); scoped to one org when orgId is given. No row: no such key. */
export const revokeKey = (sql: SqlClient.SqlClient, id: string, orgId: string | undefined, at: Date) =>
  sql<{ id: string; revoked_at: Date }>`
    update api_keys set revoked_at = coalesce(revoked_at, ${at})
    where id = ${id} ${orgId === undefined ? sql`` : sql`and org_id = ${orgId}`} returning id, revoked_at`

/** Every live key of a member revoked at `now`: their ids. */
export const revokeKeysOf = (sql: SqlClient.SqlClient, userId: string, now: Date) =>
  sql<{
    id: string
  }>`update api_keys set revoked_at = ${now} where user_id = ${userId} and revoked_at is null returning id`
