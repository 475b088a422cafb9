import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, Either, Fiber, Runtime, Schema, Stream } from "effect"
import { EventBus } from "../../engine/ports/Bus.ts"
import { EventsQuery } from "../../engine/schema/event.ts"
import { CurrentOrg } from "../../engine/services/CurrentOrg.ts"
import { Events, SETTLE_MS } from "../../engine/services/Events.ts"
import type { Orgs } from "../../engine/services/Orgs.ts"
import type { sessionCredential } from "../auth/apiSession.ts"
import { type Admission, bearerFrom, type Credentials } from "../shared/credentials.ts"
import { errorReply, type Reply } from "../shared/reply.ts"
import { STREAM_RETRY_SECONDS, type StreamBudget } from "../shared/streams.ts"

export const STREAM_PATH = "/api/v1/events/stream"
/** A stream ends after this long; EventSource reconnects at once with Last-Event-ID and misses nothing. */
export const STREAM_MS = 60_000
export const KEEPALIVE_MS = 15_000
/** Without a bus event, the feed is read again this often (events of other instances, with an in-process bus). */
const POLL_MS = 1_000

/** The stream's query: the type to serve only (as events.list's); `after`, or Last-Event-ID, is a CURSOR. */
export const StreamQuery = EventsQuery.pipe(Schema.pick("type"))
/** An event id to resume after. */
export const CURSOR = /^\d{1,15}$/
/** The codes the stream answers instead of a stream (the OpenAPI document lists them, streamDoc.ts). */
export const STREAM_CODES = {
  invalid: "invalid_query",
  unauthorized: "unauthorized",
  forbidden: "forbidden",
  full: "too_many_streams"
} as const

/**
 * GET /api/v1/events/stream: the org's events as Server-Sent Events, in id order, each once, resumable with
 * Last-Event-ID (or ?after=). It serves what events.list serves (events settled for 2 seconds, so ids never arrive
 * out of order), reading the feed again whenever the bus carries one of the org's events, and at least every second.
 */
export const eventStream = (
  runtime: Runtime.Runtime<Orgs | Events | EventBus>,
  write: (res: ServerResponse, reply: Reply) => void,
  budget: StreamBudget,
  credentials: Credentials,
  /** A person's session cookie (the console), when no Bearer is sent: GET, so no CSRF token. */
  session?: ReturnType<typeof sessionCredential>
) => {
  const run = Runtime.runPromise(runtime)
  return async (req: IncomingMessage, res: ServerResponse) => {
    // A secret key (OAuth access tokens reach only /mcp): transports/shared/credentials.ts, door "stream"; or, with
    // no Bearer, a person's session cookie (the console).
    const bearer = bearerFrom(req.headers.authorization)
    const viaSession = bearer === "" ? session?.("GET", req.headers) : undefined
    const admitted = await run(
      viaSession === undefined
        ? credentials.authenticate("stream", bearer)
        : Effect.match(viaSession, {
            onFailure: (e): Admission => ({
              ok: false,
              status: e._tag === "Unauthorized" ? 401 : 403,
              message: e.message
            }),
            onSuccess: (org): Admission => ({ ok: true, org })
          })
    )
    if (!admitted.ok)
      return write(
        res,
        errorReply(
          admitted.status,
          admitted.status === 401 ? STREAM_CODES.unauthorized : STREAM_CODES.forbidden,
          admitted.message
        )
      )
    const org = admitted.org
    const url = new URL(req.url ?? "/", "http://x")
    const query = Schema.decodeUnknownEither(StreamQuery)(Object.fromEntries(url.searchParams.entries()))
    const resume = req.headers["last-event-id"] ?? url.searchParams.get("after") ?? "0"
    const after0 = typeof resume === "string" && CURSOR.test(resume) ? Number(resume) : undefined
    if (Either.isLeft(query) || after0 === undefined)
      return write(
        res,
        errorReply(
          400,
          STREAM_CODES.invalid,
          "type: an event type such as booking.created; Last-Event-ID or after: an event id"
        )
      )
    const type = query.right.type
    // Per org and per key; a session counts as its own key (apiKeyId "session:<id>").
    const release = budget.enter(org.id, org.apiKeyId)
    if (release === undefined) {
      return write(
        res,
        errorReply(
          429,
          STREAM_CODES.full,
          "this key or org has as many event streams open as it may: close one, or try again later",
          {
            "retry-after": String(STREAM_RETRY_SECONDS)
          }
        )
      )
    }
    const asOrg = <A, E, R>(e: Effect.Effect<A, E, R>) => Effect.provideService(e, CurrentOrg, org)

    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      "x-accel-buffering": "no"
    })
    res.write(`retry: 1000\n\n`)
    let after = after0
    let open = true
    let wake: (() => void) | undefined
    const nudge = () => wake?.()
    // The bus tells of the org's new events; they are served once settled.
    const listening = Runtime.runFork(runtime)(
      Effect.flatMap(EventBus, (bus) =>
        bus.subscribe.pipe(
          Stream.filter((e) => e.org_id === org.id && (type === undefined || e.type === type)),
          Stream.runForEach(() => Effect.sync(() => setTimeout(nudge, SETTLE_MS + 50).unref()))
        )
      )
    )
    const close = () => {
      if (!open) return
      open = false
      release()
      nudge()
      Runtime.runFork(runtime)(Fiber.interrupt(listening))
    }
    req.on("close", close)
    const ends = setTimeout(() => (close(), res.end()), STREAM_MS)
    ends.unref()
    let quiet = Date.now()
    try {
      while (open) {
        const page = await run(
          asOrg(Effect.flatMap(Events, (ev) => ev.list({ after, limit: 200, ...(type ? { type } : {}) })))
        )
        for (const e of page.data) res.write(`id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
        after = page.next_after
        if (page.data.length > 0) quiet = Date.now()
        else if (Date.now() - quiet > KEEPALIVE_MS) res.write(`: keep-alive\n\n`), (quiet = Date.now())
        if (page.data.length === 200) continue
        await new Promise<void>((r) => {
          wake = r
          setTimeout(r, POLL_MS).unref()
        })
      }
    } finally {
      clearTimeout(ends)
      close()
      if (!res.writableEnded) res.end()
    }
  }
}
