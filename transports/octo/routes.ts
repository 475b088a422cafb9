import type { IncomingMessage, ServerResponse } from "node:http"
import { Cause, Effect, Exit, Option, ParseResult, Runtime, Schema } from "effect"
import { CurrentOrg, RequestSurface } from "../../engine/services/CurrentOrg.ts"
import type { Orgs } from "../../engine/services/Orgs.ts"
import { traced } from "../../engine/tracing.ts"
import { CLOSE, readText } from "../shared/body.ts"
import { bearerFrom, type Credentials } from "../shared/credentials.ts"
import { findBadQuery, parseBody, pathSegment, printable } from "../shared/json.ts"
import { databaseUnreachable, RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from "../shared/unavailable.ts"
import * as E from "./errors.ts"
import { Octo } from "./Octo.ts"
import * as O from "./requests.ts"

/** Paths these routes answer: the OCTO core API for resellers. */
export const OCTO_PATH = /^\/api\/octo(\/|$)/
const MAX_BODY = 512 * 1024
/** Capabilities this supplier implements; a reseller asks for them in Octo-Capabilities, none is required. */
export const CAPABILITIES = ["octo/pricing"] as const

type Handler = (input: {
  params: ReadonlyArray<string>
  body: unknown
  query: URLSearchParams
  pricing: boolean
}) => Effect.Effect<unknown, E.OctoFailure, Octo | CurrentOrg>
type Route = readonly [method: string, path: RegExp, params: ReadonlyArray<string>, handler: Handler]

const decode = <A, I>(schema: Schema.Schema<A, I>, value: unknown) =>
  Schema.decodeUnknown(schema, { errors: "first", onExcessProperty: "ignore" })(value).pipe(
    Effect.mapError((e) =>
      E.badRequest(
        ParseResult.ArrayFormatter.formatErrorSync(e)
          .map((i) => `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`)
          .join("; ")
      )
    )
  )

/** Path parameters arrive decoded (and refused as REST refuses them when they are not text): `[uuid]`, `[productId]`. */
const routes: ReadonlyArray<Route> = [
  ["GET", /^\/supplier$/, [], () => Effect.flatMap(Octo, (o) => o.supplier)],
  ["GET", /^\/products$/, [], ({ pricing }) => Effect.flatMap(Octo, (o) => o.products(pricing))],
  [
    "GET",
    /^\/products\/([^/]+)$/,
    ["productId"],
    ({ params, pricing }) => Effect.flatMap(Octo, (o) => o.product(params[0], pricing))
  ],
  [
    "POST",
    /^\/availability\/calendar$/,
    [],
    ({ body, pricing }) =>
      Effect.flatMap(decode(O.CalendarBody, body), (b) => Effect.flatMap(Octo, (o) => o.calendar(b, pricing)))
  ],
  [
    "POST",
    /^\/availability$/,
    [],
    ({ body, pricing }) =>
      Effect.flatMap(decode(O.AvailabilityBody, body), (b) => Effect.flatMap(Octo, (o) => o.availability(b, pricing)))
  ],
  [
    "POST",
    /^\/bookings$/,
    [],
    ({ body, pricing }) =>
      Effect.flatMap(decode(O.ReserveBody, body), (b) => Effect.flatMap(Octo, (o) => o.reserve(b, pricing)))
  ],
  [
    "GET",
    /^\/bookings$/,
    [],
    ({ query, pricing }) =>
      Effect.flatMap(decode(O.BookingsQuery, Object.fromEntries(query)), (q) =>
        Effect.flatMap(Octo, (o) => o.list(q, pricing))
      )
  ],
  [
    "GET",
    /^\/bookings\/([^/]+)$/,
    ["uuid"],
    ({ params, pricing }) => Effect.flatMap(Octo, (o) => o.get(params[0], pricing))
  ],
  [
    "PATCH",
    /^\/bookings\/([^/]+)$/,
    ["uuid"],
    ({ params, body, pricing }) =>
      Effect.flatMap(decode(O.UpdateBody, body), (b) => Effect.flatMap(Octo, (o) => o.update(params[0], b, pricing)))
  ],
  [
    "POST",
    /^\/bookings\/([^/]+)\/confirm$/,
    ["uuid"],
    ({ params, body, pricing }) =>
      Effect.flatMap(decode(O.ConfirmBody, body), (b) => Effect.flatMap(Octo, (o) => o.confirm(params[0], b, pricing)))
  ],
  [
    "POST",
    /^\/bookings\/([^/]+)\/extend$/,
    ["uuid"],
    ({ params, body, pricing }) =>
      Effect.flatMap(decode(O.ExtendBody, body ?? {}), (b) =>
        Effect.flatMap(Octo, (o) => o.extend(params[0], b, pricing))
      )
  ],
  [
    "POST",
    /^\/bookings\/([^/]+)\/cancel$/,
    ["uuid"],
    ({ params, body, pricing }) =>
      Effect.flatMap(decode(O.CancelBody, body ?? {}), (b) =>
        Effect.flatMap(Octo, (o) => o.cancel(params[0], b, pricing))
      )
  ]
]

type Body = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly failure: E.OctoFailure }

/**
 * A JSON body read through the one body reader (at most MAX_BODY: past it 413, with Connection: close; not UTF-8 400),
 * then as REST reads one: at most MAX_DEPTH deep, no NUL or lone surrogate in any string or key.
 */
const readJson = (req: IncomingMessage) =>
  readText(req, { limit: MAX_BODY }).then((read): Body => {
    if (!read.ok) return { ok: false, failure: E.refused(read.refusal.status, read.refusal.message) }
    const text = read.value ?? ""
    if (text.trim() === "") return { ok: true, value: undefined }
    const parsed = parseBody(text)
    return parsed.ok ? { ok: true, value: parsed.value } : { ok: false, failure: E.badRequest(parsed.error.message) }
  })

/** The route's path parameters decoded, or the refusal of the first that is not text. */
const paramsOf = (
  names: ReadonlyArray<string>,
  raw: ReadonlyArray<string>
): { ok: true; params: ReadonlyArray<string> } | { ok: false; failure: E.OctoFailure } => {
  const params: Array<string> = []
  for (let i = 0; i < names.length; i++) {
    const segment = pathSegment(raw[i])
    if (!segment.ok) return { ok: false, failure: E.badRequest(`${names[i]} (in the path): ${segment.problem}`) }
    params.push(segment.value)
  }
  return { ok: true, params }
}

/**
 * The OCTO API at /api/octo as a plain node handler: Bearer with a reseller key (rk_live_…; any other key is 403),
 * JSON bodies, OCTO's error shape `{error, errorMessage}` and its codes; capabilities asked for in Octo-Capabilities
 * that this supplier has are echoed in the same response header.
 */
export const octoRoutes = (runtime: Runtime.Runtime<Octo | Orgs>, credentials: Credentials) => {
  const run = Runtime.runPromiseExit(runtime)
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://localhost")
    const path = url.pathname.replace(/^\/api\/octo/, "").replace(/\/+$/, "") || "/"
    const asked = String(req.headers["octo-capabilities"] ?? "")
      .split(",")
      .map((c) => c.trim().toLowerCase())
      .filter((c) => c !== "")
    const granted = CAPABILITIES.filter((c) => asked.includes(c))
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const text = JSON.stringify(body)
      res.writeHead(status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
        "cache-control": "no-store",
        "octo-capabilities": granted.join(", "),
        ...headers
      })
      res.end(text)
    }
    const refuse = (f: E.OctoFailure) => send(f.status, E.errorBody(f), f.status === 413 ? CLOSE : {})
    /**
     * A failure of ours: 503 with Retry-After when the database cannot be reached (OCTO's own code, the status says
     * it is passing), else 500; logged either way, without details on the wire.
     */
    const failed = async (cause: Cause.Cause<unknown>, what: string) => {
      if (databaseUnreachable(cause)) {
        await run(Effect.logWarning("database unreachable", Cause.pretty(cause).split("\n")[0]))
        return send(
          503,
          { error: "INTERNAL_SERVER_ERROR", errorMessage: UNAVAILABLE_MESSAGE },
          { "retry-after": String(RETRY_AFTER_SECONDS) }
        )
      }
      await run(Effect.logError(what, cause))
      return refuse(
        new E.OctoFailure({
          status: 500,
          error: "INTERNAL_SERVER_ERROR",
          errorMessage: "something went wrong on our side"
        })
      )
    }

    // A reseller key only: transports/shared/credentials.ts, door "octo" (another valid key is 403).
    const found = await run(credentials.authenticate("octo", bearerFrom(req.headers.authorization)))
    if (Exit.isFailure(found)) return failed(found.cause, "OCTO authentication failed")
    if (!found.value.ok)
      return refuse(
        found.value.status === 403 ? E.forbiddenKey(found.value.message) : E.unauthorized(found.value.message)
      )
    const org = found.value.org

    const method = req.method ?? "GET"
    const badQuery = findBadQuery(url.search.slice(1))
    if (badQuery !== undefined)
      return refuse(
        E.badRequest(`${badQuery.name === undefined ? "query" : printable(badQuery.name)}: ${badQuery.problem}`)
      )
    const matched = routes
      .map(([m, re, names, h]) => [m, re.exec(path), names, h] as const)
      .filter(([, match]) => match !== null)
    const route = matched.find(([m]) => m === method)
    if (route === undefined) {
      return matched.length === 0
        ? send(404, { error: "BAD_REQUEST", errorMessage: `no OCTO endpoint ${path.slice(0, 200)}` })
        : send(405, {
            error: "BAD_REQUEST",
            errorMessage: `${path.slice(0, 200)} takes ${matched.map(([m]) => m).join(", ")}`
          })
    }
    const body = method === "GET" ? { ok: true as const, value: undefined } : await readJson(req)
    if (!body.ok) return refuse(body.failure)
    const [, match, names, handler] = route
    const params = paramsOf(names, match!.slice(1))
    if (!params.ok) return refuse(params.failure)
    const exit = await run(
      handler({
        params: params.params,
        body: body.value,
        query: url.searchParams,
        pricing: granted.includes("octo/pricing")
      }).pipe(
        Effect.provideService(CurrentOrg, org),
        Effect.provideService(RequestSurface, "octo"),
        traced(
          `octo ${method} ${path.replace(/\/bookings\/[^/]+/, "/bookings/{uuid}").replace(/\/products\/[^/]+/, "/products/{id}")}`
        )
      )
    )
    if (Exit.isSuccess(exit)) return send(200, exit.value)
    const failure = Cause.failureOption(exit.cause)
    if (Option.isSome(failure)) return refuse(failure.value)
    return failed(exit.cause, "OCTO request failed")
  }
}
