import type { IncomingMessage, ServerResponse } from "node:http"
import { Cause, Effect, Either, Exit, Option, Runtime } from "effect"
import { Auth } from "../../engine/services/auth/Auth.ts"
import { errorBody, OAuthError } from "../../engine/services/oauth/errors.ts"
import { OAuth } from "../../engine/services/oauth/OAuth.ts"
import { cookieNames, readCookie } from "../auth/cookies.ts"
import { sameOrigin } from "../auth/csrf.ts"
import { type Form, HTML, page, pageHeaders, readForm, send } from "../pages/html.ts"
import { CLOSE, readText } from "../shared/body.ts"
import { findBadQuery, printable } from "../shared/json.ts"
import { safeEqual } from "../shared/safeEqual.ts"
import { databaseUnreachable, RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from "../shared/unavailable.ts"
import { authorizationServer, baseUrl, protectedResource, resourceUrl } from "./metadata.ts"
import { type Approver, consentPage, errorPage, redirectTo, signInPage } from "./pages.ts"

/** Paths these routes answer: the discovery documents and the authorization server's endpoints. */
export const OAUTH_PATH =
  /^\/(\.well-known\/oauth-(protected-resource|authorization-server)(\/mcp)?|oauth\/(register|authorize|token|revoke))$/

const FORM = /^application\/x-www-form-urlencoded\s*(;.*)?$/i
const MAX_JSON = 64 * 1024
/** Connectors may run in a browser: the JSON endpoints answer any origin (no cookies are involved). */
const CORS = { "access-control-allow-origin": "*" }
/** The consent form's answer is a redirect to the connector's own (https, or loopback http) redirect URI. */
const FRAMING = pageHeaders({ forms: ["'self'", "https:", "http:"] })

/** A JSON body; undefined when it is not UTF-8 or not JSON (registration then says what it wants), "too_large" past MAX_JSON. */
const readJson = (req: IncomingMessage) =>
  readText(req, { limit: MAX_JSON, what: "the client metadata" }).then((read) => {
    if (!read.ok) return read.refusal.status === 413 ? "too_large" : undefined
    try {
      return JSON.parse(read.value ?? "") as unknown
    } catch {
      return undefined
    }
  })

export const oauthRoutes = (runtime: Runtime.Runtime<OAuth | Auth>, publicUrl: string) => {
  const run = Runtime.runPromiseExit(runtime)
  const names = cookieNames(publicUrl)
  /** The signed-in person approving, or undefined (no session, or not on any team now). */
  const approverOf = async (req: IncomingMessage): Promise<Approver | undefined> => {
    const token = readCookie(req, names.session)
    if (token === undefined) return undefined
    const exit = await run(Effect.flatMap(Auth, (a) => a.resolve(token)))
    if (Exit.isFailure(exit) || exit.value === undefined || exit.value.org === null) return undefined
    const s = exit.value
    return {
      orgId: s.org!.id,
      orgName: s.org!.name,
      memberId: s.memberId,
      role: s.role,
      email: s.user.email,
      csrf: s.session.csrf_token
    }
  }
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body)
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      "cache-control": "no-store",
      pragma: "no-cache",
      ...CORS,
      ...headers
    })
    res.end(text)
  }
  const oauthFailure = (res: ServerResponse, e: OAuthError) =>
    json(
      res,
      e.status,
      errorBody(e),
      e.status === 401 ? { "www-authenticate": `Basic realm="oauth", error="${e.error}"` } : {}
    )
  const retry = { "retry-after": String(RETRY_AFTER_SECONDS) }
  /** Whether a failure of ours is the database out of reach (logged as a warning) rather than a fault (logged as an error). */
  const unreachable = async (cause: Cause.Cause<unknown>, what: string) => {
    if (databaseUnreachable(cause)) {
      await run(Effect.logWarning("database unreachable", Cause.pretty(cause).split("\n")[0]))
      return true
    }
    await run(Effect.logError(what, cause))
    return false
  }
  /**
   * Runs an operation; its OAuthError is the answer, the database out of reach 503 temporarily_unavailable (RFC 6749's
   * word for it) with Retry-After, anything else a 500 in the same shape.
   */
  const answer = async <A>(res: ServerResponse, effect: Effect.Effect<A, OAuthError, OAuth>, ok: (a: A) => void) => {
    const exit = await run(effect)
    if (Exit.isSuccess(exit)) return ok(exit.value)
    const failure = Cause.failureOption(exit.cause)
    if (Option.isSome(failure)) return oauthFailure(res, failure.value)
    if (await unreachable(exit.cause, "OAuth request failed"))
      return json(res, 503, { error: "temporarily_unavailable", error_description: UNAVAILABLE_MESSAGE }, retry)
    json(res, 500, { error: "server_error", error_description: "something went wrong on our side" })
  }
  const credentials = (form: URLSearchParams) => ({
    clientId: form.get("client_id") ?? undefined,
    clientSecret: form.get("client_secret") ?? undefined
  })
  const formOf = async (req: IncomingMessage, res: ServerResponse) => {
    if (!FORM.test(String(req.headers["content-type"] ?? ""))) {
      json(res, 400, {
        error: "invalid_request",
        error_description: "send the body as application/x-www-form-urlencoded"
      })
      return undefined
    }
    const read = await readForm(req)
    if (!read.ok)
      return void json(
        res,
        read.status,
        { error: "invalid_request", error_description: read.message },
        read.status === 400 ? {} : CLOSE
      )
    return read.form
  }

  const authorize = async (req: IncomingMessage, res: ServerResponse, base: string, read: Form) => {
    const html = (status: number, body: string) => send(res, status, HTML, body, FRAMING)
    const failedPage = async (cause: Cause.Cause<unknown>, what: string) =>
      (await unreachable(cause, what))
        ? send(
            res,
            503,
            HTML,
            page(
              "Try again shortly",
              `<p role="alert">This service cannot reach its database just now. Try again in a few seconds.</p>`
            ),
            { ...FRAMING, ...retry }
          )
        : html(500, errorPage("Something went wrong on our side."))
    // The query or form as REST takes text: what is not (bad %-encoding, NUL, a lone surrogate) is shown here.
    if (!read.ok)
      return send(res, read.status, HTML, errorPage(`The request could not be read: ${read.message}.`), {
        ...FRAMING,
        ...(read.status === 400 ? {} : CLOSE)
      })
    const params = read.form
    const checked = await run(Effect.flatMap(OAuth, (o) => o.authorizeRequest(params, resourceUrl(base))))
    if (Exit.isFailure(checked)) return failedPage(checked.cause, "OAuth authorize failed")
    const c = checked.value
    // A wrong client or redirect URI: no one to send the answer to, so it is shown here, never redirected.
    if (c._tag === "Unsafe") return html(400, errorPage(c.message))
    const { redirectUri, state } = c
    const go = (to: string) => send(res, 303, "text/plain; charset=utf-8", "", { location: to })
    if (c._tag === "Refused") return go(redirectTo(redirectUri, state, errorBody(c.error)))
    const request = c.request
    const who = await approverOf(req)
    if (who === undefined) return html(401, signInPage("Only a signed-in owner of the org can connect an app."))
    if (req.method === "GET") return html(200, consentPage(request, params, who))
    // The form's answer must come from this page: this origin, and the session's CSRF token in the form.
    if (!sameOrigin(req.headers, base) || !safeEqual(params.get("csrf_token") ?? "", who.csrf))
      return html(
        403,
        consentPage(request, params, who, "This answer did not come from this page: approve again here.")
      )
    if (params.get("decision") !== "approve") {
      return go(
        redirectTo(redirectUri, state, {
          error: "access_denied",
          error_description: "the org owner denied the request"
        })
      )
    }
    const approved = await run(Effect.flatMap(OAuth, (o) => o.approve(request, who)))
    if (Exit.isFailure(approved)) return failedPage(approved.cause, "OAuth approval failed")
    if (Either.isLeft(approved.value)) return html(403, consentPage(request, params, who, approved.value.left))
    return go(redirectTo(redirectUri, state, { code: approved.value.right }))
  }

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://localhost")
    const base = baseUrl(publicUrl, req)
    const path = url.pathname
    const method = req.method ?? "GET"
    if (method === "OPTIONS") {
      res.writeHead(204, {
        ...CORS,
        "access-control-allow-methods": "GET, POST",
        "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
        "access-control-max-age": "600"
      })
      return void res.end()
    }
    const only = (m: string) => {
      if (method === m) return true
      json(res, 405, { error: "invalid_request", error_description: `${path} takes ${m}` }, { allow: m })
      return false
    }
    if (path.startsWith("/.well-known/oauth-protected-resource"))
      return void (only("GET") && json(res, 200, protectedResource(base), { "cache-control": "max-age=300" }))
    if (path.startsWith("/.well-known/oauth-authorization-server"))
      return void (only("GET") && json(res, 200, authorizationServer(base), { "cache-control": "max-age=300" }))
    if (path === "/oauth/register") {
      if (!only("POST")) return
      const body = await readJson(req)
      if (body === "too_large")
        return json(
          res,
          413,
          {
            error: "invalid_client_metadata",
            error_description: `the client metadata is larger than ${MAX_JSON / 1024} KiB`
          },
          CLOSE
        )
      return answer(
        res,
        Effect.flatMap(OAuth, (o) => o.register(body)),
        (client) => json(res, 201, client)
      )
    }
    if (path === "/oauth/authorize") {
      if (method === "GET") {
        const bad = findBadQuery(url.search.slice(1))
        return authorize(
          req,
          res,
          base,
          bad === undefined
            ? { ok: true, form: url.searchParams }
            : {
                ok: false,
                status: 400,
                message: `${bad.name === undefined ? "a parameter name" : printable(bad.name)}: ${bad.problem}`
              }
        )
      }
      if (!only("POST")) return
      return authorize(req, res, base, await readForm(req))
    }
    if (path === "/oauth/token") {
      if (!only("POST")) return
      const form = await formOf(req, res)
      if (form === undefined) return
      const grant = form.get("grant_type")
      const op: Effect.Effect<unknown, OAuthError, OAuth> =
        grant === "authorization_code"
          ? Effect.flatMap(OAuth, (o) => o.exchangeCode(credentials(form), form))
          : grant === "refresh_token"
            ? Effect.flatMap(OAuth, (o) => o.refresh(credentials(form), form))
            : Effect.fail(
                new OAuthError({
                  status: 400,
                  error: "unsupported_grant_type",
                  description: "grant_type: authorization_code or refresh_token"
                })
              )
      return answer(res, op, (tokens) => json(res, 200, tokens))
    }
    if (path === "/oauth/revoke") {
      if (!only("POST")) return
      const form = await formOf(req, res)
      if (form === undefined) return
      const token = form.get("token") ?? ""
      if (token === "") return json(res, 400, { error: "invalid_request", error_description: "token is required" })
      return answer(
        res,
        Effect.flatMap(OAuth, (o) => o.revoke(credentials(form), token)),
        () => json(res, 200, {})
      )
    }
    json(res, 404, { error: "invalid_request", error_description: "no such OAuth endpoint" })
  }
}
