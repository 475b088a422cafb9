import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Cause, Context, Effect, Exit, Fiber, Layer, Option, Runtime, Stream } from "effect"
import { PgPool } from "../../adapters/db/pool.ts"
import { SandboxPages } from "../../adapters/payments/sandbox.ts"
import { type BusEvent, EventBus } from "../../engine/ports/Bus.ts"
import type { Assistant } from "../../engine/services/assistant/Assistant.ts"
import type { Auth } from "../../engine/services/auth/Auth.ts"
import type { InviteSignIn } from "../../engine/services/auth/Invites.ts"
import type { Passkeys } from "../../engine/services/auth/Passkeys.ts"
import type { Events } from "../../engine/services/Events.ts"
import type { Guest } from "../../engine/services/guest/Guest.ts"
import { Links } from "../../engine/services/Links.ts"
import { Messages } from "../../engine/services/messages/Messages.ts"
import { Orgs } from "../../engine/services/Orgs.ts"
import type { OAuth } from "../../engine/services/oauth/OAuth.ts"
import type { Photos } from "../../engine/services/offerings/Photos.ts"
import type { Payments } from "../../engine/services/payments/Payments.ts"
import type { Hosted } from "../../engine/services/public/Hosted.ts"
import type { Waitlist } from "../../engine/services/waitlist/Waitlist.ts"
import type { Waivers } from "../../engine/services/waivers/Waivers.ts"
import { AUTH_PATH, authRoutes } from "../auth/routes.ts"
import { CONSOLE_PATH, serveConsole } from "../console/serve.ts"
import { ASSISTANT_PATH, assistantMcp } from "../mcp/assistant.ts"
import { mcpHandler } from "../mcp/server.ts"
import { toolsOf } from "../mcp/tools.ts"
import { baseUrl, bearerChallenge, OAUTH_PATH, oauthRoutes } from "../oauth/routes.ts"
import type { Octo } from "../octo/Octo.ts"
import { OCTO_PATH, octoRoutes } from "../octo/routes.ts"
import { HOSTED_PATH, hostedPages } from "../pages/hosted.ts"
import { HTML, send as sendPage } from "../pages/html.ts"
import { PAGES_PATH, pageRoutes } from "../pages/routes.ts"
import { demoPage, serveWidget } from "../pages/widget.ts"
import { PAYMENT_PATH, paymentRoutes } from "../payments/routes.ts"
import { Api } from "./Api.ts"
import { type Dispatch, errorReply, type Incoming, makeDispatcher, type Reply } from "./dispatch.ts"
import { DOCS_BUNDLE_PATH, DOCS_PATH, serveDocs } from "./docs.ts"
import { INBOUND_PATH, InboundEmailSecret, inboundEmail } from "./inbound.ts"
import { clientAddress, makeLimiter, RateLimits, unlimited, type Verdict } from "./limits.ts"
import { makeMetrics } from "./metrics.ts"
import { PHOTO_PATH, photoRoutes } from "./photos.ts"
import { safeEqual } from "./security.ts"
import { eventStream, STREAM_PATH } from "./sse.ts"
import { makeStreamBudget, STREAM_RETRY_SECONDS, StreamLimits } from "./streams.ts"
import { databaseUnreachable, RETRY_AFTER_SECONDS } from "./unavailable.ts"

/** Where to listen, and the body limit (BODY_LIMIT, bytes; 2 MiB unless set). */
export class ListenOptions extends Context.Tag("ListenOptions")<
  ListenOptions,
  {
    readonly port: number
    readonly host: string
    readonly bodyLimit?: number | undefined
    /** MAX_INFLIGHT: requests served at once by this instance; more are answered 503 overloaded at once. */
    readonly maxInflight?: number | undefined
    /** SHUTDOWN_GRACE_MS: how long requests in flight may take to finish after SIGTERM. */
    readonly shutdownGraceMs?: number | undefined
  }
>() {}

export const DEFAULT_MAX_INFLIGHT = 512
/** Sign-in attempts (links asked, passkey sign-ins) per client address, and links per email, in a window. */
export const SIGN_IN_PER_ADDRESS = 30
export const SIGN_IN_PER_EMAIL = 5
export const SIGN_IN_WINDOW_SECONDS = 900
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000

export const DEFAULT_BODY_LIMIT = 2 * 1024 * 1024
/** Request line and headers together; the URL alone past MAX_URL is 414 in the error shape, past this it is 431. */
export const MAX_HEADER_SIZE = 32 * 1024

const JSON_BODY = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"])

const send = (res: ServerResponse, reply: Reply, close = false) => {
  if (res.headersSent) return
  res.writeHead(reply.status, {
    ...reply.headers,
    "content-length": Buffer.byteLength(reply.body),
    ...(close ? { connection: "close" } : {})
  })
  res.end(reply.body)
}

/** Raw replies for what Node refuses before a request exists (headers too large, unparsable request line). */
const rawError = (status: number, reason: string, code: string, message: string) => {
  const body = JSON.stringify({ error: { code, message } })
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
}

const fatal = new TextDecoder("utf-8", { fatal: true })

type Body = { readonly ok: true; readonly text: string | undefined } | { readonly ok: false; readonly reply: Reply }

/**
 * Reads a body within the limit: only JSON is accepted (415 at once, without waiting for the body), more than the
 * limit is 413 (on Content-Length, or as soon as the stream passes it), bytes that are not UTF-8 are 400.
 */
const readBody = (req: IncomingMessage, limit: number): Promise<Body> => {
  const length = req.headers["content-length"]
  const chunked = req.headers["transfer-encoding"] !== undefined
  if (!BODY_METHODS.has(req.method ?? "") || ((length === undefined || length === "0") && !chunked))
    return Promise.resolve({ ok: true, text: undefined })
  const type = req.headers["content-type"] ?? ""
  if (!JSON_BODY.test(type.trim())) {
    return Promise.resolve({
      ok: false,
      reply: errorReply(
        415,
        "unsupported_media_type",
        `send the body as JSON with Content-Type: application/json${type === "" ? "" : ` (not ${type.slice(0, 100)})`}`
      )
    })
  }
  const tooLarge = {
    ok: false,
    reply: errorReply(413, "payload_too_large", `the body is larger than ${limit} bytes`)
  } as const
  if (length !== undefined && Number(length) > limit) return Promise.resolve(tooLarge)
  return new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    let size = 0
    let done = false
    const finish = (body: Body) => {
      if (done) return
      done = true
      req.off("data", onData)
      resolve(body)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) return finish(tooLarge)
      chunks.push(chunk)
    }
    req.on("data", onData)
    req.on("end", () => {
      try {
        finish({ ok: true, text: fatal.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) })
      } catch {
        finish({
          ok: false,
          reply: errorReply(
            400,
            "invalid_json",
            "the body is not UTF-8: send a JSON document with Content-Type: application/json"
          )
        })
      }
    })
    req.on("error", () => finish({ ok: false, reply: errorReply(400, "invalid_body", "the body could not be read") }))
  })
}

/**
 * The MCP endpoint: a Web request to the SDK's transport; tool calls run through the same dispatcher as REST. The
 * bus feeds sessions' booking subscriptions; orgOf is the org a secret key or an OAuth access token acts for.
 */
const makeMcp = (
  dispatch: Dispatch,
  orgOf: (key: string) => Promise<string | undefined>,
  publicUrl: string,
  runtime: Runtime.Runtime<EventBus>
) => {
  const events = (listener: (e: BusEvent) => void) => {
    const fiber = Runtime.runFork(runtime)(
      Effect.flatMap(EventBus, (bus) => bus.subscribe.pipe(Stream.runForEach((e) => Effect.sync(() => listener(e)))))
    )
    return () => void Runtime.runFork(runtime)(Fiber.interrupt(fiber))
  }
  const handle = mcpHandler(
    toolsOf(Api),
    (call) =>
      dispatch({
        method: call.method,
        url: call.url,
        headers: {
          authorization: `Bearer ${call.bearer}`,
          ...(call.body !== undefined ? { "content-type": "application/json" } : {}),
          ...(call.idempotencyKey !== undefined ? { "idempotency-key": call.idempotencyKey } : {})
        },
        body: call.body,
        surface: "mcp"
      }),
    { events, orgOf }
  )
  const respond = async (req: IncomingMessage, body: string | undefined): Promise<Reply | Response> => {
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1]
    const org = bearer === undefined ? undefined : await orgOf(bearer)
    // The challenge names the resource metadata, where a connector finds how to sign in with OAuth (RFC 9728).
    if (bearer === undefined || org === undefined) {
      return errorReply(401, "unauthorized", "send Authorization: Bearer <API_KEY or OAuth access token>", {
        "www-authenticate": bearerChallenge(baseUrl(publicUrl, req))
      })
    }
    const headers = new Headers()
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v)
    return handle(new Request(`http://mcp.internal${req.url}`, { method: req.method, headers, body }), bearer, org)
  }
  const headersOf = (response: Response) => {
    const out: Record<string, string> = {}
    response.headers.forEach((v, k) => (out[k] = v))
    delete out["content-length"]
    return out
  }
  /** POST and DELETE: one answer, as a Reply. */
  const buffered = async (req: IncomingMessage, body: string | undefined): Promise<Reply> => {
    const response = await respond(req, body)
    if (!(response instanceof Response)) return response
    return { status: response.status, headers: headersOf(response), body: await response.text() }
  }
  /** GET: a session's stream of server messages (notifications/resources/updated), written as it comes. */
  const stream = async (
    req: IncomingMessage,
    res: ServerResponse,
    write: (res: ServerResponse, reply: Reply) => void
  ) => {
    const response = await respond(req, undefined)
    if (!(response instanceof Response)) return write(res, response)
    if (response.body === null || !(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      return write(res, { status: response.status, headers: headersOf(response), body: await response.text() })
    }
    res.writeHead(response.status, headersOf(response))
    res.flushHeaders()
    const reader = response.body.getReader()
    req.on("close", () => void reader.cancel().catch(() => undefined))
    try {
      for (;;) {
        const chunk = await reader.read()
        if (chunk.done) break
        res.write(chunk.value)
      }
    } catch {
      // the client went away
    } finally {
      if (!res.writableEnded) res.end()
    }
  }
  return { buffered, stream }
}

/**
 * The engine's requests as a plain node:http handler: REST under /api/v1, admin under /admin/v1, MCP at /mcp,
 * payments pages and events, health probes; every answer, also a failure outside the dispatcher, in the spec's
 * error shape. ServeLive mounts it on its own listener; createEngine hands it to a host app.
 */
export class RequestHandler extends Context.Tag("RequestHandler")<
  RequestHandler,
  (req: IncomingMessage, res: ServerResponse) => void
>() {}

const NO_HEADERS: Record<string, string> = {}

/** Holds one client address may make on one org's assistant channel per hour. */
export const ASSISTANT_HOLDS_PER_HOUR = 10

/** The public booking surface, which web pages call from their own origin (CORS). */
const PUBLIC_PATH = /^\/api\/v1\/public\//
/**
 * A browser's preflight carries no key, so it cannot know the org: it is answered for any origin, and the request that
 * follows is refused (403) unless its Origin is among the org's allowed_origins.
 */
const preflight = (req: IncomingMessage): Reply => ({
  status: 204,
  headers: {
    "access-control-allow-origin": String(req.headers.origin ?? "*"),
    "access-control-allow-methods": "GET, POST",
    "access-control-allow-headers": "authorization, content-type, idempotency-key",
    "access-control-max-age": "600",
    vary: "Origin"
  },
  body: ""
})
/** An answer on the public surface readable by the page that asked (the handler refused other origins with 403). */
const corsFor = (req: IncomingMessage, status: number) =>
  typeof req.headers.origin === "string" && status !== 403 && PUBLIC_PATH.test(req.url ?? "")
    ? {
        "access-control-allow-origin": req.headers.origin,
        "access-control-expose-headers": "ratelimit, ratelimit-policy, retry-after",
        vary: "Origin"
      }
    : undefined

export const RequestHandlerLive = (adminToken: Option.Option<string>, bodyLimit: number = DEFAULT_BODY_LIMIT) =>
  Layer.effect(
    RequestHandler,
    Effect.gen(function* () {
      const limit = bodyLimit
      const dispatch = yield* makeDispatcher(adminToken)
      const orgs = yield* Orgs
      const runtime = yield* Effect.runtime<never>()
      /** A request that failed outside the dispatcher's own error handling: logged with its cause, 500 in the error shape. */
      const failed = (res: ServerResponse, cause: unknown) => {
        // The plain routes (pages, photos, the event stream...) answer a database outage as the dispatcher does: 503.
        const why = Runtime.isFiberFailure(cause) ? cause[Runtime.FiberFailureCauseId] : Cause.die(cause)
        if (databaseUnreachable(why)) {
          Runtime.runFork(runtime)(Effect.logWarning("database unreachable", Cause.pretty(why).split("\n")[0]))
          return send(
            res,
            errorReply(503, "unavailable", "the service cannot reach its database just now; try again shortly", {
              "retry-after": String(RETRY_AFTER_SECONDS)
            })
          )
        }
        Runtime.runFork(runtime)(Effect.logError("request failed", cause))
        send(res, errorReply(500, "internal_error", "something went wrong on our side"))
      }
      // MCP is for secret keys (and OAuth access tokens): a publishable key reaches only the public booking surface.
      const orgOf = (key: string) =>
        Effect.runPromise(
          Effect.provide(
            Effect.map(orgs.authenticate(key), (o) =>
              Option.isSome(o) && o.value.keyKind === "secret" ? o.value.id : undefined
            ),
            runtime
          )
        )
      const links = yield* Links
      const mcp = makeMcp(dispatch, orgOf, links.publicUrl, yield* Effect.runtime<EventBus>())
      const oauth = oauthRoutes(yield* Effect.runtime<OAuth>(), links.publicUrl)

      const octo = octoRoutes(yield* Effect.runtime<Octo | Orgs>())
      const payments = paymentRoutes(yield* Effect.runtime<Payments>(), yield* Effect.serviceOption(SandboxPages))
      const pages = pageRoutes(yield* Effect.runtime<Guest | Waivers>())
      const photos = photoRoutes(yield* Effect.runtime<Orgs | Photos>(), (res, reply) => send(res, reply))
      const hosted = hostedPages(yield* Effect.runtime<Hosted | Waitlist>())
      const budget = makeStreamBudget(yield* StreamLimits)
      const stream = eventStream(
        yield* Effect.runtime<Orgs | Events | EventBus>(),
        (res, reply) => send(res, reply),
        budget
      )
      const pool = yield* Effect.serviceOption(PgPool)
      const sqlClient = yield* SqlClient.SqlClient
      const metrics = makeMetrics(sqlClient, Option.getOrUndefined(Option.map(pool, (p) => p.pool)), runtime)
      const limits = yield* RateLimits
      // People signing in (/auth/v1): links limited per client address and per email, whatever RATE_LIMIT says.
      const signInLimit = (name: string, limit: number) => {
        const limiter = makeLimiter(sqlClient, runtime, name, { limit, windowSeconds: SIGN_IN_WINDOW_SECONDS })
        return (key: string) =>
          limiter
            .check(key)
            .then((v) => (v.ok ? ({ ok: true } as const) : { ok: false as const, retryAfter: v.retryAfter }))
      }
      const byAddress = signInLimit("sign_in_address", SIGN_IN_PER_ADDRESS)
      const auth = authRoutes(yield* Effect.runtime<Auth | InviteSignIn | Passkeys>(), links.publicUrl, {
        address: (req) => byAddress(clientAddress(req)),
        email: signInLimit("sign_in_email", SIGN_IN_PER_EMAIL)
      })
      const inbound = inboundEmail(yield* Messages, (yield* InboundEmailSecret).secret, runtime)
      const perKey = makeLimiter(sqlClient, runtime, "key", {
        limit: limits.perKey,
        windowSeconds: limits.windowSeconds ?? 60
      })
      const perAddress = makeLimiter(sqlClient, runtime, "address", {
        limit: limits.perAddress,
        windowSeconds: limits.windowSeconds ?? 60
      })
      const assistant = assistantMcp(
        yield* Effect.runtime<Assistant>(),
        makeLimiter(sqlClient, runtime, "assistant_holds", { limit: ASSISTANT_HOLDS_PER_HOUR, windowSeconds: 3600 })
      )
      /**
       * The limit a request counts against: a credential this instance knows counts against itself; anything else (no
       * credential, a string no key matches, a wrong admin token) against its client address, so guessing costs the
       * guesser and adds no rows. The platform's admin token is not limited. None for probes and signed events.
       */
      const limitFor = (req: IncomingMessage) => {
        const url = req.url ?? "/"
        if (unlimited(url)) return undefined
        const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1]
        if (url.startsWith("/admin/")) {
          if (bearer !== undefined && Option.isSome(adminToken) && safeEqual(bearer, adminToken.value)) return undefined
          return perAddress.off ? undefined : perAddress.check(clientAddress(req))
        }
        if (bearer === undefined) return perAddress.off ? undefined : perAddress.check(clientAddress(req))
        if (orgs.isKnown(bearer)) return perKey.off ? undefined : perKey.check(bearer)
        // A credential not seen lately counts against the address first; if it is a key, against itself as well.
        const address = perAddress.off
          ? Promise.resolve<Verdict>({ ok: true, headers: {} })
          : perAddress.check(clientAddress(req))
        return address.then(async (v): Promise<Verdict> => {
          if (!v.ok || perKey.off) return v
          const known = await Runtime.runPromiseExit(runtime)(orgs.authenticate(bearer))
          if (Exit.isFailure(known))
            return { ok: false, unavailable: true, retryAfter: RETRY_AFTER_SECONDS, headers: {} }
          return Option.isSome(known.value) ? perKey.check(bearer) : v
        })
      }
      /** GET /metrics: Prometheus text, for the admin token only (the same Bearer as /admin/v1). */
      const scrape = (req: IncomingMessage, res: ServerResponse) => {
        const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1]
        if (Option.isNone(adminToken))
          return send(res, errorReply(404, "not_found", "metrics are served with ADMIN_TOKEN set"))
        if (bearer === undefined || !safeEqual(bearer, adminToken.value))
          return send(res, errorReply(401, "unauthorized", "send Authorization: Bearer <ADMIN_TOKEN>"))
        metrics.scrape().then(
          (text) => send(res, { status: 200, headers: { "content-type": metrics.contentType }, body: text }),
          (e) => failed(res, e)
        )
      }

      const sendHtml = (res: ServerResponse, status: number, html: string) => sendPage(res, status, HTML, html)
      const handle = (req: IncomingMessage, res: ServerResponse, limited: Record<string, string>) => {
        if (req.method === "GET" && req.url === "/metrics") return scrape(req, res)
        if (req.method === "OPTIONS" && PUBLIC_PATH.test(req.url ?? "")) return send(res, preflight(req))
        const path = (req.url ?? "/").split("?")[0]
        if (path === "/widget.js" && (req.method === "GET" || req.method === "HEAD")) return serveWidget(req, res)
        if (CONSOLE_PATH.test(path) && (req.method === "GET" || req.method === "HEAD")) return serveConsole(req, res)
        if ((path === DOCS_PATH || path === DOCS_BUNDLE_PATH) && (req.method === "GET" || req.method === "HEAD"))
          return serveDocs(req, res, path)
        if (PHOTO_PATH.test(path)) {
          for (const [k, v] of Object.entries(limited)) res.setHeader(k, v)
          photos(req, res).catch((e) => failed(res, e))
          return
        }
        if (HOSTED_PATH.test(path)) {
          for (const [k, v] of Object.entries(limited)) res.setHeader(k, v)
          hosted(req, res).catch((e) => failed(res, e))
          return
        }
        if (path === "/mcp" && req.method === "GET") {
          for (const [k, v] of Object.entries(limited)) res.setHeader(k, v)
          const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1]
          void (bearer === undefined ? Promise.resolve(undefined) : orgOf(bearer))
            .then((org) => {
              // Unauthenticated, the MCP handler answers 401 with its challenge; a known caller takes a stream's place.
              const release =
                org === undefined || bearer === undefined ? () => undefined : budget.enter(org, `mcp:${bearer}`)
              if (release === undefined) {
                return send(
                  res,
                  errorReply(
                    429,
                    "too_many_streams",
                    "this key or org has as many streams open as it may: close one, or try again later",
                    {
                      "retry-after": String(STREAM_RETRY_SECONDS)
                    }
                  )
                )
              }
              res.once("close", release)
              return mcp.stream(req, res, send)
            })
            .catch((e) => (res.headersSent ? res.end() : failed(res, e)))
          return
        }
        if (path === STREAM_PATH && req.method === "GET") {
          for (const [k, v] of Object.entries(limited)) res.setHeader(k, v)
          stream(req, res).catch((e) => (res.headersSent ? res.end() : failed(res, e)))
          return
        }
        if (path === "/demo" && req.method === "GET") {
          Runtime.runPromise(runtime)(
            Effect.orDie(sqlClient<{ publishable_key: string }>`select publishable_key from demo_site where id = 1`)
          ).then(
            (rows) => sendHtml(res, rows.length === 0 ? 404 : 200, demoPage(rows[0]?.publishable_key)),
            (e) => failed(res, e)
          )
          return
        }
        // The guest's pages, the processor's events and the checkout pages read their own (raw or form) bodies.
        if (PAGES_PATH.test((req.url ?? "/").split("?")[0])) {
          for (const [k, v] of Object.entries(limited)) res.setHeader(k, v)
          pages(req, res).catch((e) => failed(res, e))
          return
        }
        if (PAYMENT_PATH.test((req.url ?? "/").split("?")[0])) {
          for (const [k, v] of Object.entries(limited)) res.setHeader(k, v)
          payments(req, res).then(
            (handled) => (handled ? undefined : send(res, errorReply(404, "not_found", "no such route"))),
            (e) => failed(res, e)
          )
          return
        }
        if (OAUTH_PATH.test(path)) {
          for (const [k, v] of Object.entries(limited)) res.setHeader(k, v)
          return void oauth(req, res).catch((e) => failed(res, e))
        }
        if (AUTH_PATH.test(path)) {
          for (const [k, v] of Object.entries(limited)) res.setHeader(k, v)
          return void auth(req, res).catch((e) => (res.headersSent ? res.end() : failed(res, e)))
        }
        if (OCTO_PATH.test((req.url ?? "/").split("?")[0])) {
          for (const [k, v] of Object.entries(limited)) res.setHeader(k, v)
          return void octo(req, res).catch((e) => failed(res, e))
        }
        readBody(req, limit)
          .then((body) => {
            if (!body.ok) return send(res, body.reply, true)
            const url = req.url ?? "/"
            const incoming: Incoming = {
              method: req.method ?? "GET",
              url,
              headers: req.headers,
              body: body.text,
              surface: "api"
            }
            const started = performance.now()
            const isMcp = url === "/mcp" || url.startsWith("/mcp?")
            const book = ASSISTANT_PATH.exec(url)
            const reply = isMcp
              ? mcp.buffered(req, body.text)
              : book !== null
                ? assistant(req, body.text, book[1])
                : url === INBOUND_PATH && req.method === "POST"
                  ? inbound(
                      typeof req.headers["x-inbound-signature"] === "string"
                        ? req.headers["x-inbound-signature"]
                        : undefined,
                      body.text
                    )
                  : dispatch(incoming)
            return reply.then(
              (r) => {
                metrics.observe(
                  isMcp ? "mcp" : book !== null ? "assistant" : (r.operation ?? "unmatched"),
                  r.status,
                  (performance.now() - started) / 1000
                )
                const cors = corsFor(req, r.status)
                send(
                  res,
                  limited === NO_HEADERS && cors === undefined
                    ? r
                    : { ...r, headers: { ...r.headers, ...limited, ...cors } }
                )
              },
              (e) => failed(res, e)
            )
          })
          .catch((e) => failed(res, e))
      }

      const onRequest = (req: IncomingMessage, res: ServerResponse) => {
        const verdict = limitFor(req)
        if (verdict === undefined) return handle(req, res, NO_HEADERS)
        verdict.then(
          (v) => {
            if (v.ok) return handle(req, res, v.headers)
            if ("unavailable" in v)
              return send(
                res,
                errorReply(503, "unavailable", "the service cannot reach its database just now; try again shortly", {
                  "retry-after": String(v.retryAfter)
                })
              )
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

      return onRequest
    })
  )

/** A request that holds its answer open (Server-Sent Events): the event stream and MCP sessions' GET streams. */
const isStream = (req: IncomingMessage) => {
  if (req.method !== "GET") return false
  const path = (req.url ?? "/").split("?")[0]
  return path === STREAM_PATH || path === "/mcp"
}

/**
 * One node:http server over the request handler. It listens only once everything it needs is built (migrations
 * included), and Node's own refusals (headers too large, unparsable requests) are in the spec's error shape too.
 */
export const ServeLive = (adminToken: Option.Option<string>) =>
  Layer.scoped(
    HttpServer.HttpServer,
    Effect.gen(function* () {
      const options = yield* ListenOptions
      const onRequest = yield* Effect.provide(
        RequestHandler,
        RequestHandlerLive(adminToken, options.bodyLimit ?? DEFAULT_BODY_LIMIT)
      )
      // Requests being served; past maxInflight new ones are shed (503 overloaded) instead of queueing without end.
      let inflight = 0
      let draining = false
      const maxInflight = options.maxInflight ?? DEFAULT_MAX_INFLIGHT
      // Long-lived streams have a budget of their own (StreamLimits): they never fill the one of requests.
      let streams = 0
      const maxStreams = (yield* StreamLimits).max
      const probe = (url: string | undefined) => url === "/healthz" || url === "/readyz" || url === "/metrics"
      const serve = (req: IncomingMessage, res: ServerResponse) => {
        if (draining) {
          return send(
            res,
            errorReply(503, "shutting_down", "this instance is shutting down; try again", { "retry-after": "1" }),
            true
          )
        }
        const streaming = isStream(req)
        if (streaming ? streams >= maxStreams : inflight >= maxInflight && !probe(req.url)) {
          return send(
            res,
            errorReply(503, "overloaded", "too many requests in progress; try again shortly", { "retry-after": "1" }),
            true
          )
        }
        // Readiness tells a load balancer the truth: an instance whose request budget is spent cannot serve more.
        if (req.url === "/readyz" && inflight >= maxInflight) {
          return send(
            res,
            errorReply(503, "not_ready", "this instance is serving as many requests as it may", { "retry-after": "1" })
          )
        }
        if (streaming) streams++
        else inflight++
        let done = false
        const finish = () => {
          if (done) return
          done = true
          if (streaming) streams--
          else inflight--
          if (draining && inflight === 0) idle?.()
        }
        res.once("finish", finish)
        res.once("close", finish)
        onRequest(req, res)
      }
      let idle: (() => void) | undefined
      const graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS
      const server: Server = yield* Effect.acquireRelease(
        Effect.sync(() =>
          createServer({ maxHeaderSize: MAX_HEADER_SIZE, requestTimeout: 60_000, headersTimeout: 30_000 }, serve)
        ),
        // Drain: stop taking connections, answer new requests on open ones 503, let those in flight finish (up to the
        // grace period), then close what is left. The engine's jobs stop after this, at their next safe point.
        (s) =>
          Effect.async<void>((resume) => {
            draining = true
            s.close(() => resume(Effect.void))
            s.closeIdleConnections()
            const timer = setTimeout(() => s.closeAllConnections(), graceMs)
            timer.unref()
            idle = () => {
              clearTimeout(timer)
              s.closeAllConnections()
            }
            if (inflight === 0) idle()
          })
      )
      server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
        if (!socket.writable) return socket.destroy()
        if (err.code === "HPE_HEADER_OVERFLOW") {
          return socket.end(
            rawError(
              431,
              "Request Header Fields Too Large",
              "headers_too_large",
              `the request line and headers are larger than ${MAX_HEADER_SIZE} bytes`
            )
          )
        }
        if (err.code === "ERR_HTTP_REQUEST_TIMEOUT")
          return socket.end(rawError(408, "Request Timeout", "request_timeout", "the request took too long to arrive"))
        socket.end(rawError(400, "Bad Request", "bad_request", "the request could not be parsed as HTTP/1.1"))
      })
      yield* Effect.async<void, Error>((resume) => {
        const onError = (e: Error) => resume(Effect.fail(e))
        server.once("error", onError)
        server.listen(options.port, options.host, () => {
          server.off("error", onError)
          resume(Effect.void)
        })
      }).pipe(
        Effect.mapError((e) => new Error(`cannot listen on ${options.host}:${options.port}: ${e.message}`)),
        Effect.orDie
      )
      const address = server.address()
      return HttpServer.make({
        address:
          typeof address === "string" || address === null
            ? { _tag: "UnixAddress", path: String(address) }
            : { _tag: "TcpAddress", hostname: address.address, port: address.port },
        serve: () => Effect.dieMessage("this server runs the lean dispatcher; it serves no HttpApp")
      })
    })
  )
