import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import { EngineClock } from "../../ports/Clock.ts"
import {
  clientById,
  clientToken,
  insertTokens,
  lockCode,
  lockRefreshToken,
  revokeFamily as revokeFamilyRows,
  revokeToken,
  useCode,
  useToken
} from "../../store/oauth.ts"
import { transaction } from "../../store/transaction.ts"
import { fn } from "../../tracing.ts"
import { ACCESS_TOKEN_PREFIX, Orgs } from "../Orgs.ts"
import {
  invalidClient,
  invalidGrant,
  invalidRequest,
  type OAuthError,
  OAuthError as OAuthErrorClass,
  oauthError
} from "./errors.ts"
import { type ClientCredentials, type ClientRow, REFRESH_TOKEN_PREFIX, type Tokens, toClient } from "./rows.ts"
import { ACCESS_SECONDS, REFRESH_SECONDS, secret, sha256, verifierMatches } from "./rules.ts"

/** The token endpoint (codes and refresh tokens exchanged) and RFC 7009 revocation, for a client by its credentials. */
export const oauthTokens = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const clock = yield* EngineClock
  const orgs = yield* Orgs

  /** The client as its credentials prove it: a public client by its id, a confidential one by its secret too. */
  const authenticateClient = fn("OAuth.authenticateClient")(function* (creds: ClientCredentials) {
    if (creds.clientId === undefined || creds.clientId === "") return yield* invalidClient("client_id is required")
    const row = yield* clientById<ClientRow>(sql, creds.clientId).pipe(Effect.orDie)
    if (row === undefined) return yield* invalidClient("unknown client_id")
    if (row.auth_method === "client_secret_post") {
      if (creds.clientSecret === undefined || row.secret_hash !== sha256(creds.clientSecret))
        return yield* invalidClient("client_secret does not match")
    }
    return toClient(row)
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
      yield* insertTokens(sql, [
        row(sha256(access), "access", ACCESS_SECONDS),
        row(sha256(refresh), "refresh", REFRESH_SECONDS)
      ])
      return { access_token: access, token_type: "Bearer", expires_in: ACCESS_SECONDS, refresh_token: refresh }
    })

  /** Revokes every token of a family (a code presented twice, a rotated refresh token presented again). */
  const revokeFamily = (family: string, appId: string) =>
    Effect.flatMap(clock.now, (at) => revokeFamilyRows(sql, family, at)).pipe(
      Effect.orDie,
      Effect.zipRight(orgs.keysChanged(`app:${appId}`))
    )

  const exchangeCode = fn("OAuth.exchangeCode")(function* (creds: ClientCredentials, form: URLSearchParams) {
    const client = yield* authenticateClient(creds)
    const code = form.get("code") ?? ""
    const verifier = form.get("code_verifier") ?? ""
    if (code === "") return yield* invalidRequest("code is required")
    if (verifier === "") return yield* invalidRequest("code_verifier is required (PKCE)")
    const family = sha256(code)
    const outcome: Either.Either<Tokens, OAuthError | { readonly reused: string }> = yield* Effect.gen(function* () {
      const now = yield* clock.now
      const c = yield* lockCode(sql, family)
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
      yield* useCode(sql, family, now)
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
      const t = yield* lockRefreshToken(sql, sha256(token))
      if (t === undefined || t.client_id !== client.id) return Either.left(invalidGrant("the refresh token is unknown"))
      if (t.revoked_at !== null || t.app_revoked !== null)
        return Either.left(invalidGrant("the refresh token was revoked"))
      if (t.used_at !== null) return Either.left({ reused: t })
      if (t.expires_at.getTime() <= now.getTime()) return Either.left(invalidGrant("the refresh token has expired"))
      yield* useToken(sql, sha256(token), now)
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
    const t = yield* clientToken(sql, sha256(token), client.id).pipe(Effect.orDie)
    if (t === undefined) return
    if (t.kind === "refresh") return yield* revokeFamily(t.family, t.app_id)
    const at = yield* clock.now
    yield* revokeToken(sql, sha256(token), at).pipe(Effect.orDie)
    yield* orgs.keysChanged(`app:${t.app_id}`)
  })

  return { exchangeCode, refresh, revoke } as const
})
