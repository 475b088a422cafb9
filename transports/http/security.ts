import crypto from "node:crypto"
import { HttpApiMiddleware, HttpApiSecurity, HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Option, Redacted } from "effect"
import { CurrentOrg } from "../../engine/services/CurrentOrg.ts"
import { Orgs } from "../../engine/services/Orgs.ts"
import { Unauthorized, UnauthorizedWire } from "./errors.ts"

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: UnauthorizedWire,
  provides: CurrentOrg,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

const refused = (message: string) => new Unauthorized({ code: "unauthorized", message })

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const orgs = yield* Orgs
    return {
      bearer: (token) =>
        Effect.gen(function* () {
          // The platform takes whatever follows the first 7 characters; only the Bearer scheme is accepted.
          const request = yield* HttpServerRequest.HttpServerRequest
          const key = Redacted.value(token)
          if (key === "" || !/^Bearer /i.test(request.headers.authorization ?? "")) {
            return yield* refused("send Authorization: Bearer <API_KEY>")
          }
          return yield* orgs.authenticate(key).pipe(
            Effect.flatMap(
              Option.match({
                onNone: () => Effect.fail(refused("the API key is unknown or revoked")),
                onSome: Effect.succeed
              })
            )
          )
        })
    }
  })
)

/** The public booking surface (/api/v1/public): Bearer with a publishable key (pk_live_…) or a secret one. */
export class PublicAuth extends HttpApiMiddleware.Tag<PublicAuth>()("PublicAuth", {
  failure: UnauthorizedWire,
  provides: CurrentOrg,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** Admin API: Bearer ADMIN_TOKEN; every call refused when ADMIN_TOKEN is unset. */
export class AdminAuth extends HttpApiMiddleware.Tag<AdminAuth>()("AdminAuth", {
  failure: UnauthorizedWire,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

export const AdminAuthLive = (adminToken: Option.Option<string>) =>
  Layer.succeed(AdminAuth, {
    bearer: (token) =>
      Option.match(adminToken, {
        onNone: () => Effect.fail(refused("the admin API is disabled: set ADMIN_TOKEN")),
        onSome: (expected) =>
          Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
            /^Bearer /i.test(request.headers.authorization ?? "") && safeEqual(Redacted.value(token), expected)
              ? Effect.void
              : Effect.fail(refused("bad admin token"))
          )
      })
  })

const SECRET_COMPARE_KEY = crypto.randomBytes(32)
/** Compares keyed digests of the two, so the time taken says nothing of either's length or content. */
export const safeEqual = (a: string, b: string) => {
  const digest = (s: string) => crypto.createHmac("sha256", SECRET_COMPARE_KEY).update(s).digest()
  return crypto.timingSafeEqual(digest(a), digest(b))
}
