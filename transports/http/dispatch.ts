import { createHash } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Cause, Context, Effect, Either, Exit, Option, type ParseResult, Runtime } from "effect"
import { Forbidden } from "../../engine/errors/index.ts"
import { Links } from "../../engine/ports/Links.ts"
import { Tracing } from "../../engine/ports/Tracing.ts"
import { Auth } from "../../engine/services/auth/Auth.ts"
import { CurrentOrg, RequestSurface, type Surface } from "../../engine/services/CurrentOrg.ts"
import { CsvExport } from "../../engine/services/exports/plan.ts"
import { Idempotency } from "../../engine/services/Idempotency.ts"
import { Orgs } from "../../engine/services/Orgs.ts"
import { databaseAnswers } from "../../engine/store/probes.ts"
import { sessionCredential } from "../auth/apiSession.ts"
import { bearerFrom, makeCredentials } from "../shared/credentials.ts"
import { canonicalJson, clip, type Documented, parseBody, refuseBadQuery } from "../shared/json.ts"
import { errorReply, type Incoming, JSON_CONTENT, json, type Reply } from "../shared/reply.ts"
import { databaseUnreachable, RETRY_AFTER_SECONDS } from "../shared/unavailable.ts"
import { Api } from "./Api.ts"
import { toBadRequest } from "./decodeErrors.ts"
import { BadRequest, expectedError, Unauthorized } from "./errors.ts"
import { exportAnswer, toReply } from "./exportReply.ts"
import { adminDocument, openApiDocument } from "./openapi.ts"
import { operations } from "./operations.ts"
import { makeQuickRefusals } from "./quick.ts"
import { collect, decodeError, type Handler, matcher, routesOf } from "./routes.ts"

/** Control characters (NUL among them) and lone surrogates: no key a client can mean, and Postgres refuses NUL. */
const CONTROL_OR_BROKEN = /[\u0000-\u001f\u007f]|\p{Cs}/u

export type { Dispatch, Incoming, Reply } from "../shared/reply.ts"
export { errorReply, json } from "../shared/reply.ts"

/** Path parameters longer than this are refused before decoding (no id is that long). */
export const MAX_PARAM = 100
/** URLs longer than this are 414. */
export const MAX_URL = 8 * 1024

const JSON_TYPE = JSON_CONTENT

const internal = () => errorReply(500, "internal_error", "something went wrong on our side")

const expected = (e: unknown): Reply | undefined => {
  const known = expectedError(e)
  // A refused credential says how to authenticate (RFC 9110 §11.6.1), as /mcp does.
  return (
    known &&
    errorReply(known.status, known.code, known.message, known.status === 401 ? CHALLENGE : undefined, known.param)
  )
}

const CHALLENGE = { "www-authenticate": 'Bearer realm="api"' }
const refused = (message: string) => new Unauthorized({ code: "unauthorized", message })

const header = (headers: Incoming["headers"], name: string) => {
  const v = headers[name]
  return typeof v === "string" ? v : v?.[0]
}

/**
 * The lean request path: a route table built once from the contract, then per request only what the request
 * needs (match, decode with the endpoint's Schemas, authenticate, run the handler, encode with its success
 * Schema). No router, middleware stack, spans or per-request Layer; the handlers run on the app's runtime.
 */
export const makeDispatcher = (adminToken: Option.Option<string>) =>
  Effect.gen(function* () {
    const handlers = new Map<string, Handler>()
    for (const { name, build } of Object.values(operations)) {
      const built = build(collect(name, handlers) as never)
      if (Effect.isEffect(built)) yield* built as Effect.Effect<unknown, never, never>
    }
    const routes = routesOf(Api, handlers)
    const match = matcher(routes)
    const orgs = yield* Orgs
    const idempotency = yield* Idempotency
    const sql = yield* SqlClient.SqlClient
    const runtime = yield* Effect.runtime<never>()
    const run = Runtime.runPromiseExit(runtime)
    const document = openApiDocument((yield* Links).publicUrl)
    const openapi = JSON.stringify(document)
    /** Each operation's documented 400 codes: a refusal's code is one of them (see codeFor). */
    const documented = new Map<string, Documented>()
    for (const doc of [document, adminDocument()]) {
      for (const item of Object.values<
        Record<string, { operationId: string; "x-error-codes"?: Record<string, Array<string>> }>
      >(doc.paths)) {
        for (const op of Object.values(item))
          documented.set(op.operationId, new Set(op["x-error-codes"]?.["400"] ?? []))
      }
    }
    const tracing = (yield* Tracing).enabled
    // A person's session cookie: one more credential of /api/v1 (transports/auth), never of MCP or the admin API.
    const session = sessionCredential(yield* Auth, (yield* Links).publicUrl)

    /**
     * The context a handler runs in: the app's, with the request's surface and org. Providing them copies the whole
     * context (one Map of some fifty services) at every request, so the result is kept per org and surface while the
     * key's org stays cached (the same object until it is read again). Only for the app's own context: under a
     * server span or an Idempotency-Key's transaction the parent carries more, and is copied.
     */
    const base = runtime.context as Context.Context<never>
    const contexts = new WeakMap<object, Map<Surface, Context.Context<never>>>()
    const anonymous = new Map<Surface, Context.Context<never>>()
    const withRequest = (parent: Context.Context<never>, surface: Surface, org: CurrentOrg["Type"] | undefined) => {
      const withSurface = Context.add(parent, RequestSurface, surface)
      return org === undefined ? withSurface : Context.add(withSurface, CurrentOrg, org)
    }
    const requestContext = (parent: Context.Context<never>, surface: Surface, org: CurrentOrg["Type"] | undefined) => {
      if (parent !== base) return withRequest(parent, surface, org)
      let bySurface = org === undefined ? anonymous : contexts.get(org)
      if (bySurface === undefined) contexts.set(org!, (bySurface = new Map()))
      let context = bySurface.get(surface)
      if (context === undefined) bySurface.set(surface, (context = withRequest(base, surface, org)))
      return context
    }

    const refuseAtOnce = yield* makeQuickRefusals(runtime, requestContext, expected)
    const credentials = makeCredentials(orgs, adminToken)
    /** The org a request acts for (none for admin and open routes), or Unauthorized as the contract words it. */
    const authenticate = (route: { auth: string; method: string }, headers: Incoming["headers"], surface: Surface) => {
      if (route.auth === "none") return Effect.succeed(undefined)
      const bearer = bearerFrom(header(headers, "authorization"))
      if (route.auth === "admin") {
        const admitted = credentials.admin(bearer)
        return admitted.ok ? Effect.succeed(undefined) : Effect.fail(refused(admitted.message))
      }
      if (bearer === "") {
        // A person's session cookie (transports/auth): one more credential of /api/v1, never of MCP or the admin API.
        const viaSession = route.auth === "org" && surface === "api" ? session(route.method, headers) : undefined
        if (viaSession !== undefined) return viaSession
      }
      return Effect.flatMap(
        credentials.authenticate(surface === "mcp" ? "mcp" : route.auth === "public" ? "public" : "api", bearer),
        (admitted) => (admitted.ok ? Effect.succeed(admitted.org) : Effect.fail(refused(admitted.message)))
      )
    }

    const special = (method: string, pathname: string): Promise<Reply> | undefined => {
      if (method !== "GET") return undefined
      if (pathname === "/healthz") return Promise.resolve(json(200, { status: "ok" }))
      if (pathname === "/api/v1/openapi.json")
        return Promise.resolve({ status: 200, headers: { "content-type": JSON_TYPE }, body: openapi })
      if (pathname === "/readyz") {
        return run(databaseAnswers(sql)).then((exit) =>
          Exit.isSuccess(exit)
            ? json(200, { status: "ready" })
            : errorReply(503, "not_ready", "the database does not answer", {
                "retry-after": String(RETRY_AFTER_SECONDS)
              })
        )
      }
      return undefined
    }

    const dispatch = (req: Incoming, quickly = true): Promise<Reply> => {
      if (req.url.length > MAX_URL)
        return Promise.resolve(errorReply(414, "uri_too_long", `the URL is longer than ${MAX_URL} characters`))
      const q = req.url.indexOf("?")
      const pathname = q === -1 ? req.url : req.url.slice(0, q)
      const fixed = special(req.method, pathname)
      if (fixed !== undefined) return fixed.then((reply) => ({ ...reply, route: pathname }))
      const found = match(req.method, pathname)
      if (found === undefined)
        return Promise.resolve(errorReply(404, "not_found", `no route for ${req.method} ${clip(pathname)}`))
      if ("allow" in found) {
        return Promise.resolve(
          errorReply(
            405,
            "method_not_allowed",
            `${pathname.length > 100 ? "this path" : pathname} takes ${found.allow.join(", ")}`,
            { allow: found.allow.join(", ") }
          )
        )
      }
      const { params, route } = found
      const codes = documented.get(route.operationId)
      const search = q === -1 ? "" : req.url.slice(q + 1)
      const query = new URLSearchParams(search)
      const badQuery = refuseBadQuery(search, codes)
      if (badQuery) return Promise.resolve(expected(badQuery)!)
      for (const [name, value] of Object.entries(params)) {
        if (value.length > MAX_PARAM) {
          return Promise.resolve(
            errorReply(
              404,
              "not_found",
              `${name}: no such ${name === "id" ? "resource" : name} (ids are at most ${MAX_PARAM} characters)`
            )
          )
        }
      }

      // A booking of a time this instance knows is full is refused without the request's fiber (quick.ts); what that
      // cannot answer for sure is served from the start.
      const quick = quickly && !tracing ? refuseAtOnce(route, req, search, codes) : undefined
      if (quick !== undefined) {
        return quick.then((r) =>
          r === undefined
            ? dispatch(req, false)
            : { ...r.reply, operation: route.operationId, route: route.template, org: r.org }
        )
      }
      let orgId: string | undefined
      const work = Effect.gen(function* () {
        const org = yield* authenticate(route, req.headers, req.surface)
        orgId = org?.id
        // A person's session is the console: what it books has source "dashboard" (keys stay "api").
        const surface: Surface = req.surface === "api" && org?.sessionId !== undefined ? "dashboard" : req.surface
        // The role the operation declares (RequiredRole), for keys and sessions alike.
        if (route.role === "owner" && org !== undefined && org.role !== "owner")
          return yield* new Forbidden({
            message: `only an owner may ${route.operationId.replace(".", " ")}: this credential is staff's`
          })
        // Bad input never reaches a handler: body, path, headers and query decoded with the endpoint's Schemas.
        const text = req.body ?? ""
        let body: unknown
        if (text.trim() !== "") {
          const parsed = parseBody(text, codes)
          if (!parsed.ok) return yield* parsed.error
          body = parsed.value
        }
        const input: { path?: unknown; urlParams?: unknown; payload?: unknown; headers?: unknown } = {}
        const decodeOrFail = <A>(r: Either.Either<A, ParseResult.ParseError>, generic: string) =>
          Either.isRight(r) ? Effect.succeed(r.right) : Effect.fail(toBadRequest(decodeError(r.left), codes, generic))
        if (route.decodePath) input.path = yield* decodeOrFail(route.decodePath(params), "invalid_query")
        if (route.decodePayload)
          input.payload = yield* decodeOrFail(
            route.decodePayload(req.bytes ?? (text.trim() === "" ? {} : body)),
            "invalid_body"
          )
        const key = header(req.headers, "idempotency-key")
        if (
          key !== undefined &&
          req.method === "POST" &&
          (key.length === 0 || key.length > 255 || CONTROL_OR_BROKEN.test(key))
        ) {
          return yield* new BadRequest({
            code: "invalid_idempotency_key",
            message: "Idempotency-Key must be 1 to 255 printable characters"
          })
        }
        if (route.decodeHeaders) input.headers = yield* decodeOrFail(route.decodeHeaders(req.headers), "invalid_query")
        if (route.decodeQuery) input.urlParams = yield* decodeOrFail(route.decodeQuery(query), "invalid_query")
        const respond = route.handler(input).pipe(
          Effect.flatMap((value) => {
            if (value instanceof CsvExport) return exportAnswer(value, surface)
            const encoded = route.encodeSuccess(value)
            return Either.isRight(encoded)
              ? Effect.succeed({
                  status: route.status,
                  contentType: JSON_TYPE,
                  body: JSON.stringify(encoded.right),
                  store: route.status < 300
                })
              : Effect.die(encoded.left)
          })
        )
        const withOrg = Effect.mapInputContext(
          respond,
          (parent: Context.Context<never>) => requestContext(parent, surface, org) as Context.Context<unknown>
        )
        if (req.method !== "POST" || key === undefined || org === undefined) return toReply(yield* withOrg, false)
        // The same JSON with its keys in another order is the same request.
        const hash = createHash("sha256")
          .update(`${req.method} ${req.url}\n${body === undefined ? "" : canonicalJson(body)}`)
          .digest("hex")
        const result = yield* idempotency.run(org.id, key, hash, withOrg)
        return toReply(result, result.replayed)
      })

      const traced = tracing
        ? Effect.withSpan(work, route.operationId, {
            kind: "server",
            attributes: { "http.request.method": req.method, "http.route": route.segments.join("/") }
          })
        : work
      const answered = run(traced as Effect.Effect<Reply, unknown>).then((exit) => {
        if (Exit.isSuccess(exit)) return exit.value
        const failure = Cause.failureOption(exit.cause)
        const reply = Option.isSome(failure) ? expected(failure.value) : undefined
        if (reply !== undefined) return reply
        if (databaseUnreachable(exit.cause)) {
          return run(Effect.logWarning("database unreachable", Cause.pretty(exit.cause).split("\n")[0])).then(() =>
            errorReply(503, "unavailable", "the service cannot reach its database just now; try again shortly", {
              "retry-after": String(RETRY_AFTER_SECONDS)
            })
          )
        }
        return run(Effect.logError("unexpected failure", exit.cause)).then(internal)
      })
      return answered.then((reply) => ({ ...reply, operation: route.operationId, route: route.template, org: orgId }))
    }

    return dispatch
  })
