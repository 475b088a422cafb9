import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Either, Option } from "effect"
import { Forbidden, notFound } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import {
  appsOf,
  clientById,
  insertApp,
  insertClient,
  insertCode,
  lockLiveApp,
  regrantApp,
  revokeApp as revokeAppRow
} from "../../store/oauth.ts"
import { transaction } from "../../store/transaction.ts"
import { fn, traced } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Orgs } from "../Orgs.ts"
import { invalidRequest, type OAuthError, oauthError } from "./errors.ts"
import {
  type AppRow,
  type AuthorizeRequest,
  type Checked,
  type Client,
  type ClientRow,
  CODE_PREFIX,
  toApp,
  toClient
} from "./rows.ts"
import { CODE_SECONDS, parseClientMetadata, secret, sha256, validChallenge } from "./rules.ts"
import { oauthTokens } from "./tokens.ts"

export type { AuthorizeRequest, Checked, Client, ClientCredentials } from "./rows.ts"
export { REFRESH_TOKEN_PREFIX } from "./rows.ts"

export class OAuth extends Effect.Service<OAuth>()("OAuth", {
  dependencies: [Orgs.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const orgs = yield* Orgs
    const _after = (seconds: number) => Effect.map(clock.now, (now) => new Date(now.getTime() + seconds * 1000))
    const { exchangeCode, refresh, revoke } = yield* oauthTokens

    const register = fn("OAuth.register")(function* (body: unknown) {
      const meta = parseClientMetadata(body)
      if (Either.isLeft(meta)) return yield* meta.left
      const m = meta.right
      const id = `mcp_client_${randomUUID().replaceAll("-", "")}`
      const clientSecret = m.token_endpoint_auth_method === "client_secret_post" ? secret("mcp_cs_") : undefined
      const at = yield* clock.now
      yield* insertClient(sql, {
        id,
        client_name: m.client_name,
        redirect_uris: JSON.stringify(m.redirect_uris),
        client_uri: m.client_uri,
        secret_hash: clientSecret === undefined ? null : sha256(clientSecret),
        auth_method: m.token_endpoint_auth_method,
        metadata: JSON.stringify(m),
        created_at: at
      }).pipe(Effect.orDie)
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
      clientById<ClientRow>(sql, id).pipe(
        Effect.orDie,
        Effect.map((r) => Option.map(Option.fromNullable(r), toClient))
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
     * the team or stops being an owner, or the key is revoked), and a one-time code for it. A new grant replaces the
     * previous one of the same app (docs/oauth.md): its tokens and unused codes stop, and its key is kept when the same
     * owner approves again, else revoked for a new one of the new approver's. Left: why not.
     */
    const approve = fn("OAuth.approve")(function* (
      request: AuthorizeRequest,
      approver: { readonly orgId: string; readonly memberId: string | null; readonly role: string | null }
    ) {
      if (approver.role !== "owner" || approver.memberId === null)
        return Either.left("Only an owner of the org can connect an app: ask an owner to approve it.")
      const memberId = approver.memberId
      const at = yield* clock.now
      const code = secret(CODE_PREFIX)
      const { appId, replaced, retired } = yield* Effect.gen(function* () {
        const previous = yield* lockLiveApp(sql, approver.orgId, request.client.id)
        const kept = previous !== undefined && previous.key_revoked === null && previous.user_id === memberId
        const keyId = kept
          ? previous.api_key_id
          : (yield* orgs
              .createKey(approver.orgId, { user_id: memberId, name: `OAuth: ${request.client.name}`.slice(0, 100) })
              .pipe(Effect.orDie)).id
        const appId = previous?.id ?? randomUUID()
        if (previous === undefined) {
          yield* insertApp(sql, {
            id: appId,
            org_id: approver.orgId,
            client_id: request.client.id,
            api_key_id: keyId,
            created_at: at
          })
        } else {
          yield* regrantApp(sql, appId, keyId, at)
        }
        yield* insertCode(sql, {
          hash: sha256(code),
          app_id: appId,
          redirect_uri: request.redirectUri,
          code_challenge: request.codeChallenge,
          resource: request.resource ?? null,
          expires_at: new Date(at.getTime() + CODE_SECONDS * 1000),
          created_at: at
        })
        const retired = previous !== undefined && !kept && previous.key_revoked === null ? previous.api_key_id : null
        return { appId, replaced: previous !== undefined, retired }
      }).pipe(transaction(sql), Effect.orDie)
      if (retired !== null) yield* orgs.revokeKey(retired, approver.orgId).pipe(Effect.orDie)
      if (replaced) yield* orgs.keysChanged(`app:${appId}`)
      return Either.right(code)
    })

    const ownerOnly = Effect.flatMap(CurrentOrg, (org) =>
      org.role === "owner"
        ? Effect.succeed(org)
        : Effect.fail(new Forbidden({ message: "only an owner's API key may manage the org's connector apps" }))
    )

    /** The connector apps the org approved, revoked ones too; owners only. */
    const listApps = Effect.gen(function* () {
      const org = yield* ownerOnly
      const rows = yield* appsOf<AppRow>(sql, org.id).pipe(Effect.orDie)
      return { data: rows.map(toApp) }
    }).pipe(traced("OAuth.listApps"))

    /** Revokes an app: every token it holds stops at once, on every instance; owners only. */
    const revokeApp = fn("OAuth.revokeApp")(function* (id: string) {
      const org = yield* ownerOnly
      const at = yield* clock.now
      const app = yield* revokeAppRow<AppRow>(sql, org.id, id, at).pipe(transaction(sql), Effect.orDie)
      if (app === undefined) return yield* notFound("oauth app")
      yield* orgs.keysChanged(`app:${app.id}`)
      return toApp(app)
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
