import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Tables `oauth_clients`, `oauth_apps`, `oauth_codes` and `oauth_tokens`: the MCP connector clients that registered,
 * each org's approval of one (an app, reaching the org through a key of the owner who approved it), the one-time codes
 * of an approval and the tokens exchanged for them. This store is their only writer; the OAuth service keeps the
 * rules. Codes and tokens are stored as their hash only. Row types of clients and apps are the service's.
 */

export const insertClient = (sql: SqlClient.SqlClient, row: Record<string, unknown>) =>
  sql`insert into oauth_clients ${sql.insert(row)}`.pipe(Effect.asVoid)

export const clientById = <Row extends object>(sql: SqlClient.SqlClient, id: string) =>
  sql<Row>`select * from oauth_clients where id = ${id}`.pipe(Effect.map((rows) => rows[0] as Row | undefined))

/** The org's live app for a client, locked, with its key's member and whether that key was revoked. */
export const lockLiveApp = (sql: SqlClient.SqlClient, orgId: string, clientId: string) =>
  sql<{ id: string; api_key_id: string; user_id: string | null; key_revoked: Date | null }>`
    select a.id, a.api_key_id, k.user_id, k.revoked_at as key_revoked
    from oauth_apps a join api_keys k on k.id = a.api_key_id
    where a.org_id = ${orgId} and a.client_id = ${clientId} and a.revoked_at is null
    for update of a`.pipe(Effect.map((rows) => rows[0]))

export const insertApp = (sql: SqlClient.SqlClient, row: Record<string, unknown>) =>
  sql`insert into oauth_apps ${sql.insert(row)}`.pipe(Effect.asVoid)

/** A new grant of an app: through the key given, its tokens stopped and its unused codes expired at `at`. */
export const regrantApp = (sql: SqlClient.SqlClient, appId: string, keyId: string, at: Date) =>
  Effect.gen(function* () {
    yield* sql`update oauth_apps set api_key_id = ${keyId} where id = ${appId}`
    yield* sql`update oauth_tokens set revoked_at = ${at} where app_id = ${appId} and revoked_at is null`
    yield* sql`update oauth_codes set expires_at = ${at} where app_id = ${appId} and used_at is null and expires_at > ${at}`
  })

/** The org's apps, revoked ones too, with their client's name and redirect URIs. */
export const appsOf = <Row extends object>(sql: SqlClient.SqlClient, orgId: string) =>
  sql<Row>`
    select a.id, a.client_id, c.client_name, c.redirect_uris, a.created_at, a.revoked_at
    from oauth_apps a join oauth_clients c on c.id = a.client_id where a.org_id = ${orgId} order by a.created_at, a.id`

/** The org's app revoked at `at` (or when it was already), and every token it holds: no row when it has no such app. */
export const revokeApp = <Row extends { readonly id: string }>(
  sql: SqlClient.SqlClient,
  orgId: string,
  id: string,
  at: Date
) =>
  Effect.gen(function* () {
    const [app] = yield* sql<Row>`
      update oauth_apps a set revoked_at = coalesce(a.revoked_at, ${at}) from oauth_clients c
      where a.id::text = ${id} and a.org_id = ${orgId} and c.id = a.client_id
      returning a.id, a.client_id, c.client_name, c.redirect_uris, a.created_at, a.revoked_at`
    if (app !== undefined)
      yield* sql`update oauth_tokens set revoked_at = coalesce(revoked_at, ${at}) where app_id = ${app.id}`
    return app as Row | undefined
  })

export const insertCode = (sql: SqlClient.SqlClient, row: Record<string, unknown>) =>
  sql`insert into oauth_codes ${sql.insert(row)}`.pipe(Effect.asVoid)

/** A code by its hash, locked, with its app's client and whether the app was revoked. */
export const lockCode = (sql: SqlClient.SqlClient, hash: string) =>
  sql<{
    app_id: string
    client_id: string
    redirect_uri: string
    code_challenge: string
    resource: string | null
    expires_at: Date
    used_at: Date | null
    revoked_at: Date | null
  }>`
    select c.app_id, a.client_id, c.redirect_uri, c.code_challenge, c.resource, c.expires_at, c.used_at, a.revoked_at
    from oauth_codes c join oauth_apps a on a.id = c.app_id where c.hash = ${hash} for update of c`.pipe(
    Effect.map((rows) => rows[0])
  )

export const useCode = (sql: SqlClient.SqlClient, hash: string, now: Date) =>
  sql`update oauth_codes set used_at = ${now} where hash = ${hash}`.pipe(Effect.asVoid)

export const insertTokens = (sql: SqlClient.SqlClient, rows: ReadonlyArray<Record<string, unknown>>) =>
  sql`insert into oauth_tokens ${sql.insert(rows)}`.pipe(Effect.asVoid)

/** A refresh token by its hash, locked, with its app's client and whether the app was revoked. */
export const lockRefreshToken = (sql: SqlClient.SqlClient, hash: string) =>
  sql<{
    app_id: string
    client_id: string
    family: string
    resource: string | null
    expires_at: Date
    used_at: Date | null
    revoked_at: Date | null
    app_revoked: Date | null
  }>`
    select t.app_id, a.client_id, t.family, t.resource, t.expires_at, t.used_at, t.revoked_at, a.revoked_at as app_revoked
    from oauth_tokens t join oauth_apps a on a.id = t.app_id where t.hash = ${hash} and t.kind = 'refresh' for update of t`.pipe(
    Effect.map((rows) => rows[0])
  )

/** A client's token by its hash, or nothing. */
export const clientToken = (sql: SqlClient.SqlClient, hash: string, clientId: string) =>
  sql<{ app_id: string; kind: string; family: string }>`
    select t.app_id, t.kind, t.family from oauth_tokens t join oauth_apps a on a.id = t.app_id
    where t.hash = ${hash} and a.client_id = ${clientId}`.pipe(Effect.map((rows) => rows[0]))

export const useToken = (sql: SqlClient.SqlClient, hash: string, now: Date) =>
  sql`update oauth_tokens set used_at = ${now} where hash = ${hash}`.pipe(Effect.asVoid)

/** A token revoked at `at` (or when it was already). */
export const revokeToken = (sql: SqlClient.SqlClient, hash: string, at: Date) =>
  sql`update oauth_tokens set revoked_at = coalesce(revoked_at, ${at}) where hash = ${hash}`.pipe(Effect.asVoid)

/** Every token of a family revoked at `at` (or when it was already). */
export const revokeFamily = (sql: SqlClient.SqlClient, family: string, at: Date) =>
  sql`update oauth_tokens set revoked_at = coalesce(revoked_at, ${at}) where family = ${family}`.pipe(Effect.asVoid)
