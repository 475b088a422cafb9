import { Effect } from "effect"
import { Forbidden, Unauthorized } from "../../engine/schema/errors.ts"
import type { Auth } from "../../engine/services/auth/Auth.ts"
import type { CurrentOrg } from "../../engine/services/CurrentOrg.ts"
import { cookieNames, readCookie } from "./cookies.ts"
import { csrfRefusal } from "./csrf.ts"

type Headers = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/**
 * The session cookie as a credential of /api/v1: it acts for the session's current org with the role the person has
 * there now (read at every request). A state-changing request must pass the CSRF check (403 csrf_failed). Undefined
 * when the request carries no session cookie; MCP, OCTO and the admin API never ask.
 */
export const sessionCredential = (auth: Auth, publicUrl: string) => {
  const names = cookieNames(publicUrl)
  return (
    method: string,
    headers: Headers
  ): Effect.Effect<CurrentOrg["Type"], Unauthorized | Forbidden> | undefined => {
    const token = readCookie({ headers: headers as never }, names.session)
    if (token === undefined) return undefined
    return Effect.flatMap(
      auth.resolve(token),
      (signed): Effect.Effect<CurrentOrg["Type"], Unauthorized | Forbidden> => {
        if (signed === undefined)
          return Effect.fail(
            new Unauthorized({ code: "unauthorized", message: "the session has ended: sign in again" })
          )
        const refusal = csrfRefusal(method, headers, publicUrl, signed.session.csrf_token)
        if (refusal !== undefined) return Effect.fail(new Forbidden({ code: "csrf_failed", message: refusal }))
        if (signed.org === null || signed.role === null)
          return Effect.fail(
            new Forbidden({
              code: "forbidden",
              message: "you are not on this org's team (any more): choose another org with POST /auth/v1/session/org"
            })
          )
        return Effect.succeed({
          id: signed.org.id,
          timezone: signed.org.timezone,
          currency: signed.org.currency,
          plan: signed.org.plan,
          apiKeyId: `session:${signed.session.id}`,
          sessionId: signed.session.id,
          role: signed.role,
          userId: signed.memberId,
          keyKind: "secret",
          allowedOrigins: [...(signed.org.allowed_origins ?? [])]
        })
      }
    )
  }
}
