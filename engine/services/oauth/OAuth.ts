import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Either, Option } from "effect"
import { Forbidden, notFound } from "../../errors/index.ts"
import { transaction } from "../../store/transaction.ts"
import { fn, traced } from "../../tracing.ts"
import { EngineClock } from "../Clock.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { ACCESS_TOKEN_PREFIX, Orgs } from "../Orgs.ts"
import {
  invalidClient,
  invalidGrant,
  invalidRequest,
  type OAuthError,
  OAuthError as OAuthErrorClass,
  oauthError
} from "./errors.ts"
import {
  ACCESS_SECONDS,
  type AuthMethod,
  CODE_SECONDS,
  parseClientMetadata,
  REFRESH_SECONDS,
  secret,
  sha256,
  validChallenge,
  verifierMatches
} from "./rules.ts"

export const REFRESH_TOKEN_PREFIX = "mcp_rt_"
const CODE_PREFIX = "mcp_ac_"

interface ClientRow {
  readonly id: string
  readonly client_name: string
  readonly redirect_uris: ReadonlyArray<string> | string
  readonly client_uri: string | null
  readonly secret_hash: string | null
  readonly auth_method: AuthMethod
  readonly created_at: Date
}

export interface Client {
  readonly id: string
  readonly name: string
  readonly redirectUris: ReadonlyArray<string>
  readonly clientUri: string | null
  readonly authMethod: AuthMethod
}

const toClient = (r: ClientRow): Client => ({
  id: r.id,
  name: r.client_name,
  clientUri: r.client_uri,
  authMethod: r.auth_method,
  redirectUris: typeof r.redirect_uris === "string" ? JSON.parse(r.redirect_uris) : r.redirect_uris
})

/** What the authorization endpoint was asked, checked: the consent page shows it and the approval carries it. */
export interface AuthorizeRequest {
  readonly client: Client
  readonly redirectUri: string
  readonly state: string | undefined
  readonly codeChallenge: string
  readonly resource: string | undefined
}

export type Checked =
  | { readonly _tag: "Unsafe"; readonly message: string }
  | {
      readonly _tag: "Refused"
      readonly redirectUri: string
      readonly state: string | undefined
      readonly error: OAuthError
    }
  | {
      readonly _tag: "Ok"
      readonly redirectUri: string
      readonly state: string | undefined
      readonly request: AuthorizeRequest
    }

interface AppRow {
  readonly id: string
  readonly client_id: string
  readonly client_name: string
  readonly redirect_uris: ReadonlyArray<string> | string
  readonly created_at: Date
  readonly revoked_at: Date | null
}

type Tokens = {
  readonly access_token: string
  readonly token_type: string
  readonly expires_in: number
  readonly refresh_token: string
}

const toApp = (r: AppRow) => ({
  id: r.id,
  client_id: r.client_id,
  client_name: r.client_name,
  redirect_uris:
    typeof r.redirect_uris === "string" ? (JSON.parse(r.redirect_uris) as Array<string>) : [...r.redirect_uris],
  created_at: r.created_at.toISOString(),
  revoked_at: r.revoked_at?.toISOString() ?? null
})

/** Client credentials as the token and revocation endpoints received them (client_secret_post or a public client). */
export interface ClientCredentials {
  readonly clientId: string | undefined
  readonly clientSecret: string | undefined
}

/**
 * OAuth 2.1 for MCP connector clients: dynamic registration, an owner's approval (the org's "app"), codes bound to
 * PKCE S256, and access and refresh tokens stored hashed. An access token authenticates through Orgs.authenticate as
 * an owner key of the org; revoking a token or an app drops it from every instance's key cache at once.
 */
export class OAuth extends Effect.Service<OAuth>()("OAuth", {
  dependencies: [Orgs.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const orgs = yield* Orgs
    const _after = (seconds: number) => Effect.map(clock.now, (now) => new Date(now.getTime() + seconds * 1000))

    const register = fn("OAuth.register")(function* (body: unknown) {
      const meta = parseClientMetadata(body)
      if (Either.isLeft(meta)) return yield* meta.left
      const m = meta.right
      const id = `mcp_client_${randomUUID().replaceAll("-", "")}`
      const clientSecret = m.token_endpoint_auth_method === "client_secret_post" ? secret("mcp_cs_") : undefined
      const at = yield* clock.now
      yield* sql`insert into oauth_clients ${sql.insert({
        id,
        client_name: m.client_name,
        redirect_uris: JSON.stringify(m.redirect_uris),
        client_uri: m.client_uri,
        secret_hash: clientSecret === undefined ? null : sha256(clientSecret),
        auth_method: m.token_endpoint_auth_method,
        metadata: JSON.stringify(m),
        created_at: at
      })}`.pipe(Effect.orDie)
      return {
        client_id: id,
        client_id_issued_at: Math.floor(at.getTime() / 1000),
        ...(clientSecret === undefined ? {} : { client_secret: clientSecret, client_secret_expires_at: 0 }),
        client_name: m.client_name,
        redirect_uris: m.redirect_uris,
        ...(m.client_uri === null ? {} : { client_uri: m.client_uri }),
        grant_types: m.grant_types,
        response_types: m.response_types,
        token_endpoint_auth_method: m.token_endpoint_auth_method,
        ...(m.scope === null ? {} : { scope: m.scope })
      }
    })

    const findClient = (id: string) =>
      sql<ClientRow>`select * from oauth_clients where id = ${id}`.pipe(
        Effect.orDie,
        Effect.map((r) => Option.map(Option.fromNullable(r[0]), toClient))
      )

    /**
     * The authorization request checked. A wrong client or redirect URI is Unsafe: there is no one safe to redirect to,
     * so it becomes an error page; what is wrong beyond them is Refused, an OAuthError sent to the redirect URI.
     */
    const authorizeRequest = fn("OAuth.authorizeRequest")(function* (q: URLSearchParams, resourceUrl: string) {
      const clientId = q.get("client_id") ?? ""
      const client = clientId === "" ? Option.none<Client>() : yield* findClient(clientId)
      if (Option.isNone(client))
        return { _tag: "Unsafe", message: "This connector is not registered here (unknown client_id)." } as Checked
      const redirectUri =
        q.get("redirect_uri") ?? (client.value.redirectUris.length === 1 ? client.value.redirectUris[0] : "")
      if (!client.value.redirectUris.includes(redirectUri))
        return { _tag: "Unsafe", message: "The redirect URI is not one this connector registered." } as Checked
      const state = q.get("state") ?? undefined
      const refuse = (error: OAuthError): Checked => ({ _tag: "Refused", redirectUri, state, error })
      if (q.get("response_type") !== "code")
        return refuse(oauthError("unsupported_response_type", "response_type must be code"))
      const challenge = q.get("code_challenge") ?? ""
      if (q.get("code_challenge_method") !== "S256")
        return refuse(invalidRequest("PKCE is required with code_challenge_method S256 (plain is refused)"))
      if (!validChallenge(challenge))
        return refuse(invalidRequest("code_challenge: the base64url SHA-256 of the code verifier (43 characters)"))
      const resource = q.get("resource") ?? undefined
      if (resource !== undefined && resource !== resourceUrl)
        return refuse(oauthError("invalid_target", `resource: this server is ${resourceUrl}`))
      return {
        _tag: "Ok",
        redirectUri,
        state,
        request: { client: client.value, redirectUri, state, codeChallenge: challenge, resource }
      } as Checked
    })

    /**
     * A signed-in owner approves (the consent page, docs/auth.md): the org's app for this client (made, or the live one
     * kept) approved through a key of the owner's own, made for the app (so the app's reach ends when the owner leaves
     * the team or stops being an owner, or the key is revoked), and a one-time code for it. Left: why not.
     */
    const approve = fn("OAuth.approve")(function* (
      request: AuthorizeRequest,
      approver: { readonly orgId: string; readonly memberId: string | null; readonly role: string | null }
    ) {
      if (approver.role !== "owner" || approver.memberId === null)
        return Either.left("Only an owner of the org can connect an app: ask an owner to approve it.")
      const key = yield* orgs
        .createKey(approver.orgId, { user_id: approver.memberId, name: `OAuth: ${request.client.name}`.slice(0, 100) })
        .pipe(Effect.orDie)
      const at = yield* clock.now
      const code = secret(CODE_PREFIX)
      yield* Effect.gen(function* () {
        const live = yield* sql<{ id: string }>`
          update oauth_apps set api_key_id = ${key.id}
          where org_id = ${approver.orgId} and client_id = ${request.client.id} and revoked_at is null returning id`
        const appId = live[0]?.id ?? randomUUID()
        if (live.length === 0) {
          yield* sql`insert into oauth_apps ${sql.insert({ id: appId, org_id: approver.orgId, client_id: request.client.id, api_key_id: key.id, created_at: at })}`
        }
        yield* sql`insert into oauth_codes ${sql.insert({
          hash: sha256(code),
          app_id: appId,
          redirect_uri: request.redirectUri,
          code_challenge: request.codeChallenge,
          resource: request.resource ?? null,
          expires_at: new Date(at.getTime() + CODE_SECONDS * 1000),
          created_at: at
        })}`
      }).pipe(transaction(sql), Effect.orDie)
      return Either.right(code)
    })

    /** The client as its credentials prove it: a public client by its id, a confidential one by its secret too. */
    const authenticateClient = fn("OAuth.authenticateClient")(function* (creds: ClientCredentials) {
      if (creds.clientId === undefined || creds.clientId === "") return yield* invalidClient("client_id is required")
      const row = yield* sql<ClientRow>`select * from oauth_clients where id = ${creds.clientId}`.pipe(Effect.orDie)
      if (row.length === 0) return yield* invalidClient("unknown client_id")
      if (row[0].auth_method === "client_secret_post") {
        if (creds.clientSecret === undefined || row[0].secret_hash !== sha256(creds.clientSecret))
          return yield* invalidClient("client_secret does not match")
      }
      return toClient(row[0])
    })

    /** A new access and refresh token for the app, in the family of the code they descend from. */
    const issue = (appId: string, family: string, resource: string | null) =>
      Effect.gen(function* () {
        const at = yield* clock.now
        const access = secret(ACCESS_TOKEN_PREFIX)
        const refresh = secret(REFRESH_TOKEN_PREFIX)
        const row = (hash: string, kind: string, seconds: number) => ({
          hash,
          kind,
          app_id: appId,
          family,
          resource,
          expires_at: new Date(at.getTime() + seconds * 1000),
          created_at: at
        })
        yield* sql`insert into oauth_tokens ${sql.insert([row(sha256(access), "access", ACCESS_SECONDS), row(sha256(refresh), "refresh", REFRESH_SECONDS)])}`
        return { access_token: access, token_type: "Bearer", expires_in: ACCESS_SECONDS, refresh_token: refresh }
      })

    /** Revokes every token of a family (a code presented twice, a rotated refresh token presented again). */
    const revokeFamily = (family: string, appId: string) =>
      Effect.flatMap(
        clock.now,
        (at) => sql`update oauth_tokens set revoked_at = coalesce(revoked_at, ${at}) where family = ${family}`
      ).pipe(Effect.orDie, Effect.zipRight(orgs.keysChanged(`app:${appId}`)))

    const exchangeCode = fn("OAuth.exchangeCode")(function* (creds: ClientCredentials, form: URLSearchParams) {
      const client = yield* authenticateClient(creds)
      const code = form.get("code") ?? ""
      const verifier = form.get("code_verifier") ?? ""
      if (code === "") return yield* invalidRequest("code is required")
      if (verifier === "") return yield* invalidRequest("code_verifier is required (PKCE)")
      const family = sha256(code)
      const outcome: Either.Either<Tokens, OAuthError | { readonly reused: string }> = yield* Effect.gen(function* () {
        const now = yield* clock.now
        const rows = yield* sql<{
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
          from oauth_codes c join oauth_apps a on a.id = c.app_id where c.hash = ${family} for update of c`
        const c = rows[0]
        if (c === undefined || c.client_id !== client.id)
          return Either.left(invalidGrant("the authorization code is unknown"))
        if (c.used_at !== null) return Either.left({ reused: c.app_id })
        if (c.expires_at.getTime() <= now.getTime())
          return Either.left(invalidGrant("the authorization code has expired"))
        if (c.revoked_at !== null) return Either.left(invalidGrant("the app was revoked"))
        if ((form.get("redirect_uri") ?? "") !== c.redirect_uri)
          return Either.left(invalidGrant("redirect_uri does not match the authorization request"))
        if (!verifierMatches(verifier, c.code_challenge))
          return Either.left(invalidGrant("code_verifier does not match the code_challenge"))
        const resource = form.get("resource")
        if (resource !== null && c.resource !== null && resource !== c.resource)
          return Either.left(oauthError("invalid_target", "resource differs from the authorization request"))
        yield* sql`update oauth_codes set used_at = ${now} where hash = ${family}`
        return Either.right(yield* issue(c.app_id, family, c.resource))
      }).pipe(transaction(sql), Effect.orDie)
      if (Either.isRight(outcome)) return outcome.right
      const failure = outcome.left
      if (!(failure instanceof OAuthErrorClass)) {
        // A code presented twice may have been stolen: what was issued from it stops working.
        yield* revokeFamily(family, failure.reused)
        return yield* invalidGrant("the authorization code was already used; the tokens issued from it are revoked")
      }
      return yield* failure
    })

    const refresh = fn("OAuth.refresh")(function* (creds: ClientCredentials, form: URLSearchParams) {
      const client = yield* authenticateClient(creds)
      const token = form.get("refresh_token") ?? ""
      if (token === "") return yield* invalidRequest("refresh_token is required")
      const outcome: Either.Either<
        Tokens,
        OAuthError | { readonly reused: { readonly family: string; readonly app_id: string } }
      > = yield* Effect.gen(function* () {
        const now = yield* clock.now
        const rows = yield* sql<{
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
          from oauth_tokens t join oauth_apps a on a.id = t.app_id where t.hash = ${sha256(token)} and t.kind = 'refresh' for update of t`
        const t = rows[0]
        if (t === undefined || t.client_id !== client.id)
          return Either.left(invalidGrant("the refresh token is unknown"))
        if (t.revoked_at !== null || t.app_revoked !== null)
          return Either.left(invalidGrant("the refresh token was revoked"))
        if (t.used_at !== null) return Either.left({ reused: t })
        if (t.expires_at.getTime() <= now.getTime()) return Either.left(invalidGrant("the refresh token has expired"))
        yield* sql`update oauth_tokens set used_at = ${now} where hash = ${sha256(token)}`
        return Either.right(yield* issue(t.app_id, t.family, t.resource))
      }).pipe(transaction(sql), Effect.orDie)
      if (Either.isRight(outcome)) return outcome.right
      const failure = outcome.left
      if (!(failure instanceof OAuthErrorClass)) {
        // Refresh tokens rotate: an old one presented again may have been stolen, so its whole family is revoked.
        yield* revokeFamily(failure.reused.family, failure.reused.app_id)
        return yield* invalidGrant("the refresh token was already used; the tokens of this grant are revoked")
      }
      return yield* failure
    })

    /** RFC 7009: the client's own token stops working (a refresh token takes its grant's tokens with it); unknown tokens are no error. */
    const revoke = fn("OAuth.revoke")(function* (creds: ClientCredentials, token: string) {
      const client = yield* authenticateClient(creds)
      const rows = yield* sql<{ app_id: string; kind: string; family: string }>`
        select t.app_id, t.kind, t.family from oauth_tokens t join oauth_apps a on a.id = t.app_id
        where t.hash = ${sha256(token)} and a.client_id = ${client.id}`.pipe(Effect.orDie)
      const t = rows[0]
      if (t === undefined) return
      if (t.kind === "refresh") return yield* revokeFamily(t.family, t.app_id)
      const at = yield* clock.now
      yield* sql`update oauth_tokens set revoked_at = coalesce(revoked_at, ${at}) where hash = ${sha256(token)}`.pipe(
        Effect.orDie
      )
      yield* orgs.keysChanged(`app:${t.app_id}`)
    })

    const ownerOnly = Effect.flatMap(CurrentOrg, (org) =>
      org.role === "owner"
        ? Effect.succeed(org)
        : Effect.fail(new Forbidden({ message: "only an owner's API key may manage the org's connector apps" }))
    )

    /** The connector apps the org approved, revoked ones too; owners only. */
    const listApps = Effect.gen(function* () {
      const org = yield* ownerOnly
      const rows = yield* sql<AppRow>`
        select a.id, a.client_id, c.client_name, c.redirect_uris, a.created_at, a.revoked_at
        from oauth_apps a join oauth_clients c on c.id = a.client_id where a.org_id = ${org.id} order by a.created_at, a.id`.pipe(
        Effect.orDie
      )
      return { data: rows.map(toApp) }
    }).pipe(traced("OAuth.listApps"))

    /** Revokes an app: every token it holds stops at once, on every instance; owners only. */
    const revokeApp = fn("OAuth.revokeApp")(function* (id: string) {
      const org = yield* ownerOnly
      const at = yield* clock.now
      const rows = yield* Effect.gen(function* () {
        const apps = yield* sql<AppRow>`
          update oauth_apps a set revoked_at = coalesce(a.revoked_at, ${at}) from oauth_clients c
          where a.id::text = ${id} and a.org_id = ${org.id} and c.id = a.client_id
          returning a.id, a.client_id, c.client_name, c.redirect_uris, a.created_at, a.revoked_at`
        if (apps.length > 0)
          yield* sql`update oauth_tokens set revoked_at = coalesce(revoked_at, ${at}) where app_id = ${apps[0].id}`
        return apps
      }).pipe(transaction(sql), Effect.orDie)
      if (rows.length === 0) return yield* notFound("oauth app")
      yield* orgs.keysChanged(`app:${rows[0].id}`)
      return toApp(rows[0])
    })

    return {
      register,
      findClient,
      authorizeRequest,
      approve,
      exchangeCode,
      refresh,
      revoke,
      listApps,
      revokeApp
    } as const
  })
}) {}
