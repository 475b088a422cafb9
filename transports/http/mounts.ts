import type { IncomingMessage, ServerResponse } from "node:http"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Option, Runtime } from "effect"
import type { EventBus } from "../../engine/ports/Bus.ts"
import { Links } from "../../engine/ports/Links.ts"
import { PoolStats } from "../../engine/ports/PoolStats.ts"
import { SandboxPages } from "../../engine/ports/SandboxPages.ts"
import type { Texter } from "../../engine/ports/Texter.ts"
import type { Assistant } from "../../engine/services/assistant/Assistant.ts"
import { Auth } from "../../engine/services/auth/Auth.ts"
import type { InviteSignIn } from "../../engine/services/auth/Invites.ts"
import type { Passkeys } from "../../engine/services/auth/Passkeys.ts"
import type { Profile } from "../../engine/services/auth/Profile.ts"
import type { Events } from "../../engine/services/Events.ts"
import type { Feeds } from "../../engine/services/feeds/Feeds.ts"
import type { Guest } from "../../engine/services/guest/Guest.ts"
import type { Inbox } from "../../engine/services/messages/Inbox.ts"
import { Messages } from "../../engine/services/messages/Messages.ts"
import { Orgs } from "../../engine/services/Orgs.ts"
import type { OAuth } from "../../engine/services/oauth/OAuth.ts"
import type { Photos } from "../../engine/services/offerings/Photos.ts"
import type { Payments } from "../../engine/services/payments/Payments.ts"
import type { Hosted } from "../../engine/services/public/Hosted.ts"
import type { Texts } from "../../engine/services/texts/Texts.ts"
import type { Waitlist } from "../../engine/services/waitlist/Waitlist.ts"
import type { Waivers } from "../../engine/services/waivers/Waivers.ts"
import { demoKey } from "../../engine/store/demoSite.ts"
import { sessionCredential } from "../auth/apiSession.ts"
import { AUTH_PATH, authRoutes } from "../auth/routes.ts"
import { SIGN_IN_PER_ADDRESS, SIGN_IN_PER_EMAIL, SIGN_IN_WINDOW_SECONDS } from "../auth/shared.ts"
import { CONSOLE_PATH, serveConsole } from "../console/serve.ts"
import { assistantMcp } from "../mcp/assistant.ts"
import { makeMcp } from "../mcp/http.ts"
import { toolsOf } from "../mcp/tools.ts"
import { OAUTH_PATH, oauthRoutes } from "../oauth/routes.ts"
import type { Octo } from "../octo/Octo.ts"
import { OCTO_PATH, octoRoutes } from "../octo/routes.ts"
import { FEED_PATH, feedRoutes } from "../pages/feeds.ts"
import { HOSTED_PATH, hostedPages } from "../pages/hosted.ts"
import { escapeHtml, HTML, page, readForm, send as sendPage } from "../pages/html.ts"
import { PAGES_PATH, pageRoutes } from "../pages/routes.ts"
import { demoPage, serveWidget } from "../pages/widget.ts"
import { PAYMENT_PATH, paymentRoutes } from "../payments/routes.ts"
import { clientAddress } from "../shared/client.ts"
import { makeCredentials } from "../shared/credentials.ts"
import { makeFailed } from "../shared/failure.ts"
import { errorReply, send } from "../shared/reply.ts"
import { note } from "../shared/requestLog.ts"
import { makeStreamBudget, StreamLimits } from "../shared/streams.ts"
import { TEXTS_PATH, textRoutes } from "../texts/routes.ts"
import { Api } from "./Api.ts"
import { PUBLIC_PATH, preflight } from "./cors.ts"
import { makeDispatcher } from "./dispatch.ts"
import { DOCS_BUNDLE_PATH, DOCS_PATH, serveDocs } from "./docs.ts"
import { FAVICON_PATH, serveFavicon } from "./favicon.ts"
import { wrongMethod } from "./fixed.ts"
import { InboundEmailSecret, inboundEmail } from "./inbound.ts"
import { makeRateLimit } from "./limit.ts"
import { makeLimiter } from "./limits.ts"
import { type Load, makeMetrics } from "./metrics.ts"
import { PHOTO_UPLOAD_PATH, photoRoutes, SERVED_PHOTO_PATH } from "./photos.ts"
import { DEFAULT_BODY_LIMIT, makeJsonSurfaces } from "./rest.ts"
import { eventStream, STREAM_PATH } from "./sse.ts"

/**
 * The engine's requests as a plain node:http handler: every surface is a mount; every answer, also a failure outside a
 * surface's own handling, in the spec's error shape. ServeLive mounts it on its own listener; createEngine hands it to
 * a host app.
 */
export class RequestHandler extends Context.Tag("RequestHandler")<
  RequestHandler,
  (req: IncomingMessage, res: ServerResponse) => void
>() {}

/** One surface: which requests it takes, and how it answers them (`limited`: the rate limit's headers to add). */
export interface Mount {
  /** What the request's log line calls the route when no finer one is noted (never the path: it may hold a token). */
  readonly name: string
  readonly match: (path: string, method: string, req: IncomingMessage) => boolean
  readonly handle: (req: IncomingMessage, res: ServerResponse, limited: Record<string, string>) => void
}

/** Holds one client address may make on one org's assistant channel per hour. */
export { ASSISTANT_HOLDS_PER_HOUR } from "./limit.ts"

const withHeaders = (res: ServerResponse, headers: Record<string, string>) => {
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v)
}

export const RequestHandlerLive = (
  adminToken: Option.Option<string>,
  bodyLimit: number = DEFAULT_BODY_LIMIT,
  load?: () => Load
) =>
  Layer.effect(
    RequestHandler,
    Effect.gen(function* () {
      const dispatch = yield* makeDispatcher(adminToken)
      const orgs = yield* Orgs
      const runtime = yield* Effect.runtime<never>()
      const failed = makeFailed(runtime)
      const credentials = makeCredentials(orgs, adminToken)
      const orgOf = (key: string) =>
        Runtime.runPromise(runtime)(
          Effect.map(credentials.authenticate("mcp", key), (a) => (a.ok ? a.org.id : undefined))
        )
      const links = yield* Links
      const budget = makeStreamBudget(yield* StreamLimits)
      const mcp = makeMcp(toolsOf(Api), dispatch, orgOf, links.publicUrl, yield* Effect.runtime<EventBus>(), budget)
      const oauth = oauthRoutes(yield* Effect.runtime<OAuth | Auth>(), links.publicUrl)
      const octo = octoRoutes(yield* Effect.runtime<Octo | Orgs>(), credentials)
      const texting = textRoutes(yield* Effect.runtime<Inbox | Texts | Texter>(), links.publicUrl)
      const payments = paymentRoutes(yield* Effect.runtime<Payments>(), yield* Effect.serviceOption(SandboxPages))
      const pages = pageRoutes(yield* Effect.runtime<Guest | Waivers>())
      const hosted = hostedPages(yield* Effect.runtime<Hosted | Waitlist>())
      const feeds = feedRoutes(yield* Effect.runtime<Feeds>())
      const stream = eventStream(
        yield* Effect.runtime<Orgs | Events | EventBus>(),
        (res, reply) => send(res, reply),
        budget,
        credentials,
        sessionCredential(yield* Auth, links.publicUrl)
      )
      const pool = yield* Effect.serviceOption(PoolStats)
      const sql = yield* SqlClient.SqlClient
      const metrics = makeMetrics(sql, Option.getOrUndefined(pool), runtime, load)
      const limit = yield* makeRateLimit(sql, credentials, metrics)
      // People signing in (/auth/v1): links limited per client address and per email, whatever RATE_LIMIT says.
      const signInLimit = (name: string, limit: number) => {
        const limiter = makeLimiter(sql, runtime, name, { limit, windowSeconds: SIGN_IN_WINDOW_SECONDS })
        return (key: string) =>
          limiter
            .check(key)
            .then((v) => (v.ok ? ({ ok: true } as const) : { ok: false as const, retryAfter: v.retryAfter }))
      }
      const byAddress = signInLimit("sign_in_address", SIGN_IN_PER_ADDRESS)
      const auth = authRoutes(
        yield* Effect.runtime<Auth | InviteSignIn | Passkeys | Profile>(),
        links.publicUrl,
        { address: (req) => byAddress(clientAddress(req)), email: signInLimit("sign_in_email", SIGN_IN_PER_EMAIL) },
        { page: (title, body) => page(title, body), send: sendPage, escapeHtml, readForm, type: HTML }
      )
      const inbound = inboundEmail(yield* Messages, (yield* InboundEmailSecret).secret, runtime)
      const assistant = assistantMcp(yield* Effect.runtime<Assistant>(), limit.assistantHolds)
      const json = makeJsonSurfaces({ bodyLimit, dispatch, mcp, assistant, inbound, metrics, failed })
      const photos = photoRoutes(yield* Effect.runtime<Photos>(), send, dispatch, bodyLimit)

      /** GET /metrics: Prometheus text, for the admin token only (the same Bearer as /admin/v1). */
      const scrape = (req: IncomingMessage, res: ServerResponse) => {
        if (Option.isNone(adminToken))
          return send(res, errorReply(404, "not_found", "metrics are served with ADMIN_TOKEN set"))
        if (!credentials.isAdmin(/^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1]))
          return send(res, errorReply(401, "unauthorized", "send Authorization: Bearer <ADMIN_TOKEN>"))
        metrics.scrape().then(
          (text) => send(res, { status: 200, headers: { "content-type": metrics.contentType }, body: text }),
          (e) => failed(res, e)
        )
      }
      const limitedPromise =
        (serve: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>) =>
        (req: IncomingMessage, res: ServerResponse, limited: Record<string, string>) => {
          withHeaders(res, limited)
          serve(req, res).catch((e) => failed(res, e))
        }
      const GET = (m: string) => m === "GET"
      const READ = (m: string) => m === "GET" || m === "HEAD"

      /** The table, first match wins; what matches nothing is the contract's (REST, admin, MCP, inbound mail). */
      const mounts: ReadonlyArray<Mount> = [
        { name: "metrics", match: (p, m) => GET(m) && p === "/metrics", handle: scrape },
        {
          name: "preflight",
          match: (p, m) => m === "OPTIONS" && PUBLIC_PATH.test(p),
          handle: (req, res) => send(res, preflight(req))
        },
        {
          name: "wrong method",
          match: (p, m) => wrongMethod(p, m) !== undefined,
          handle: (req, res) => send(res, wrongMethod((req.url ?? "/").split("?")[0], req.method ?? "")!)
        },
        { name: "favicon", match: (p, m) => READ(m) && p === FAVICON_PATH, handle: serveFavicon },
        { name: "widget", match: (p, m) => READ(m) && p === "/widget.js", handle: serveWidget },
        { name: "console", match: (p, m) => READ(m) && CONSOLE_PATH.test(p), handle: serveConsole },
        {
          name: "docs",
          match: (p, m) => READ(m) && (p === DOCS_PATH || p === DOCS_BUNDLE_PATH),
          handle: (req, res) => serveDocs(req, res, (req.url ?? "/").split("?")[0])
        },
        {
          name: "photos",
          match: (p, m) => SERVED_PHOTO_PATH.test(p) || (m === "PUT" && PHOTO_UPLOAD_PATH.test(p)),
          handle: limitedPromise(photos)
        },
        { name: "hosted pages", match: (p) => HOSTED_PATH.test(p), handle: limitedPromise(hosted) },
        {
          name: "mcp stream",
          match: (p, m) => GET(m) && p === "/mcp",
          handle: (req, res, limited) => {
            withHeaders(res, limited)
            mcp.stream(req, res).catch((e) => (res.headersSent ? res.end() : failed(res, e)))
          }
        },
        {
          name: "event stream",
          match: (p, m) => GET(m) && p === STREAM_PATH,
          handle: (req, res, limited) => {
            withHeaders(res, limited)
            stream(req, res).catch((e) => (res.headersSent ? res.end() : failed(res, e)))
          }
        },
        {
          name: "demo",
          match: (p, m) => GET(m) && p === "/demo",
          handle: (_req, res) =>
            Runtime.runPromise(runtime)(demoKey(sql)).then(
              (key) => sendPage(res, key === undefined ? 404 : 200, HTML, demoPage(key)),
              (e) => failed(res, e)
            )
        },
        // The guest's pages, the processor's events and the checkout pages read their own (raw or form) bodies.
        { name: "guest pages", match: (p) => PAGES_PATH.test(p), handle: limitedPromise(pages) },
        { name: "calendar feed", match: (p) => FEED_PATH.test(p), handle: limitedPromise(feeds) },
        {
          name: "payments",
          match: (p) => PAYMENT_PATH.test(p),
          handle: limitedPromise((req, res) =>
            payments(req, res).then((handled) =>
              handled ? undefined : send(res, errorReply(404, "not_found", "no such route"))
            )
          )
        },
        { name: "oauth", match: (p) => OAUTH_PATH.test(p), handle: limitedPromise(oauth) },
        { name: "auth", match: (p) => AUTH_PATH.test(p), handle: limitedPromise(auth) },
        { name: "octo", match: (p) => OCTO_PATH.test(p), handle: limitedPromise(octo) },
        { name: "texts", match: (p) => TEXTS_PATH.test(p), handle: limitedPromise(texting) },
        { name: "api", match: () => true, handle: json }
      ]

      const handle = (req: IncomingMessage, res: ServerResponse, limited: Record<string, string>) => {
        const path = (req.url ?? "/").split("?")[0]
        const method = req.method ?? "GET"
        for (const mount of mounts) {
          if (!mount.match(path, method, req)) continue
          note(req, { route: mount.name })
          return mount.handle(req, res, limited)
        }
      }
      return limit.gate(handle, failed)
    })
  )
