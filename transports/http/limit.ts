import type { IncomingMessage, ServerResponse } from "node:http"
import type { SqlClient } from "@effect/sql"
import { Effect, Exit, Option, Runtime } from "effect"
import { ACCESS_TOKEN_PREFIX, Orgs } from "../../engine/services/Orgs.ts"
import { clientAddress, type Verdict } from "../shared/client.ts"
import type { Credentials } from "../shared/credentials.ts"
import { UNAVAILABLE } from "../shared/failure.ts"
import { bearerOf, errorReply, NO_HEADERS, send } from "../shared/reply.ts"
import { makeLimiter, RateLimits, unlimited } from "./limits.ts"
import type { Metrics } from "./metrics.ts"

/** The prefixes of the credentials a key lookup can match (API keys of the three kinds, OAuth access tokens). */
const KEY_PREFIXES = ["bk_live_", "pk_live_", "rk_live_", ACCESS_TOKEN_PREFIX]

/** Whether a Bearer string is shaped like a key or token, so worth a lookup. */
const mayBeKey = (bearer: string) => bearer.length <= 128 && KEY_PREFIXES.some((p) => bearer.startsWith(p))

/** Holds one client address may make on one org's assistant channel per hour. */
export const ASSISTANT_HOLDS_PER_HOUR = 10

/**
 * The rate limits in front of every mount: a key or token that resolves counts against itself (looked up first when this
 * instance has not seen it lately); anything else (no credential, a string no key matches, a wrong admin token) against
 * its client address, so guessing costs the guesser
 * and adds no rows. The platform's admin token is not limited. None for probes and signed events.
 */
export const makeRateLimit = (sql: SqlClient.SqlClient, credentials: Credentials, metrics: Metrics) =>
  Effect.gen(function* () {
    const runtime = yield* Effect.runtime<never>()
    const orgs = yield* Orgs
    const limits = yield* RateLimits
    const window = limits.windowSeconds ?? 60
    const perKey = makeLimiter(sql, runtime, "key", { limit: limits.perKey, windowSeconds: window })
    const perAddress = makeLimiter(sql, runtime, "address", { limit: limits.perAddress, windowSeconds: window })
    const assistantHolds = makeLimiter(sql, runtime, "assistant_holds", {
      limit: ASSISTANT_HOLDS_PER_HOUR,
      windowSeconds: 3600
    })

    const limitFor = (req: IncomingMessage) => {
      const url = req.url ?? "/"
      if (unlimited(url)) return undefined
      const bearer = bearerOf(req.headers)
      if (url.startsWith("/admin/")) {
        if (credentials.isAdmin(bearer)) return undefined
        return perAddress.off ? undefined : perAddress.check(clientAddress(req))
      }
      if (bearer === undefined) return perAddress.off ? undefined : perAddress.check(clientAddress(req))
      if (orgs.isKnown(bearer)) return perKey.off ? undefined : perKey.check(bearer)
      const byAddress = () => (perAddress.off ? undefined : perAddress.check(clientAddress(req)))
      // With no limit to apply, nothing is looked up: the surface authenticates the key itself.
      if (perKey.off && perAddress.off) return undefined
      // A string that cannot be a key is not looked up: it counts against its address at once.
      if (!mayBeKey(bearer)) return byAddress()
      // A key this instance has not seen lately is looked up before anything is counted, so a known key counts only
      // against itself, whatever its address spent (behind a balancer every caller shares one address); a string no
      // key matches counts against the address.
      return Runtime.runPromiseExit(runtime)(orgs.authenticate(bearer)).then((known): Promise<Verdict> | Verdict => {
        // The lookup failed (the database unreachable): count against the address, and let the surface meet the outage
        // and answer it in its own error shape (OCTO's, OAuth's, the API's).
        if (Exit.isFailure(known)) return byAddress() ?? { ok: true, headers: {} }
        if (Option.isSome(known.value)) return perKey.off ? { ok: true, headers: {} } : perKey.check(bearer)
        return byAddress() ?? { ok: true, headers: {} }
      })
    }

    /** The handler behind the limits: a refusal is 429 (or 503 when the count cannot be read), with its headers. */
    const gate =
      (
        handle: (req: IncomingMessage, res: ServerResponse, limited: Record<string, string>) => void,
        failed: (res: ServerResponse, e: unknown) => void
      ) =>
      (req: IncomingMessage, res: ServerResponse) => {
        const verdict = limitFor(req)
        if (verdict === undefined) return handle(req, res, NO_HEADERS)
        verdict.then(
          (v) => {
            if (v.ok) return handle(req, res, v.headers)
            if ("unavailable" in v) return send(res, UNAVAILABLE({ "retry-after": String(v.retryAfter) }))
            metrics.observe("rate_limited", 429, 0)
            send(
              res,
              errorReply(429, "rate_limited", `too many requests; try again in ${v.retryAfter} s`, v.headers),
              true
            )
          },
          (e) => failed(res, e)
        )
      }
    return { gate, assistantHolds }
  })
