import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { HttpServer } from "@effect/platform"
import { Context, Effect, Layer, Option } from "effect"
import { Parked } from "../../engine/services/Parked.ts"
import { errorReply, send } from "../shared/reply.ts"
import { StreamLimits } from "../shared/streams.ts"
import { makeAdmission } from "./admission.ts"
import { RequestHandler, RequestHandlerLive } from "./mounts.ts"
import { DEFAULT_BODY_LIMIT } from "./rest.ts"
import { STREAM_PATH } from "./sse.ts"

export { ASSISTANT_HOLDS_PER_HOUR, RequestHandler, RequestHandlerLive } from "./mounts.ts"

/** Where to listen, and the body limit (BODY_LIMIT, bytes; 2 MiB unless set). */
export class ListenOptions extends Context.Tag("ListenOptions")<
  ListenOptions,
  {
    readonly port: number
    readonly host: string
    readonly bodyLimit?: number | undefined
    /**
     * MAX_INFLIGHT: requests doing work at once on this instance; more wait for a turn (MAX_QUEUED). A request waiting
     * its turn in memory (a booking at a busy time, a waitlist join of a time) is not work and does not count.
     */
    readonly maxInflight?: number | undefined
    /** MAX_QUEUED: requests past MAX_INFLIGHT that wait for a turn, in arrival order; more are 503 overloaded at once. */
    readonly maxQueued?: number | undefined
    /** QUEUE_TIMEOUT_MS: how long a request may wait for a turn before it is answered 503 overloaded. */
    readonly queueTimeoutMs?: number | undefined
    /** LISTEN_BACKLOG: connections the kernel keeps waiting to be accepted (capped by net.core.somaxconn). */
    readonly backlog?: number | undefined
    /** SHUTDOWN_GRACE_MS: how long requests in flight may take to finish after SIGTERM. */
    readonly shutdownGraceMs?: number | undefined
  }
>() {}

export const DEFAULT_MAX_INFLIGHT = 512
export const DEFAULT_MAX_QUEUED = 10_000
export const DEFAULT_QUEUE_TIMEOUT_MS = 30_000
/**
 * Node's own default is 511: a crowd connecting in the same second past it has its SYNs dropped, and each of those
 * guests waits for its client to send again (1 s, then 3 s, 7 s...) before the instance even sees it.
 */
export const DEFAULT_LISTEN_BACKLOG = 4096
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000

export { DEFAULT_BODY_LIMIT } from "./rest.ts"
/** Request line and headers together; the URL alone past MAX_URL is 414 in the error shape, past this it is 431. */
export const MAX_HEADER_SIZE = 32 * 1024

/** Raw replies for what Node refuses before a request exists (headers too large, unparsable request line). */
const rawError = (status: number, reason: string, code: string, message: string) => {
  const body = JSON.stringify({ error: { code, message } })
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
}

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
      // Requests being served; past maxInflight new ones wait for a turn (in arrival order, up to maxQueued of them and
      // queueTimeoutMs each), past that they are shed (503 overloaded) instead of queueing without end.
      // Requests parked in memory for their turn (bookings at the gate, waitlist joins: engine/services/Parked.ts) are
      // open but idle: they hold a socket and a few objects, no connection of the pool and no CPU, so they are not counted.
      let inflight = 0
      const parked = yield* Effect.serviceOption(Parked)
      const waiting = Option.match(parked, { onNone: () => () => 0, onSome: (p) => p.count })
      const working = () => inflight - waiting()
      let draining = false
      const maxInflight = options.maxInflight ?? DEFAULT_MAX_INFLIGHT
      const free = () => working() < maxInflight
      const queue = makeAdmission(
        options.maxQueued ?? DEFAULT_MAX_QUEUED,
        options.queueTimeoutMs ?? DEFAULT_QUEUE_TIMEOUT_MS
      )
      const load = () => ({ working: working(), queued: queue.size(), parked: waiting() })
      const onRequest = yield* Effect.provide(
        RequestHandler,
        RequestHandlerLive(adminToken, options.bodyLimit ?? DEFAULT_BODY_LIMIT, load)
      )
      // Long-lived streams have a budget of their own (StreamLimits): they never fill the one of requests.
      let streams = 0
      const maxStreams = (yield* StreamLimits).max
      const probe = (url: string | undefined) => url === "/healthz" || url === "/readyz" || url === "/metrics"
      const overloaded = () =>
        errorReply(503, "overloaded", "too many requests in progress; try again shortly", { "retry-after": "1" })
      const shuttingDown = () =>
        errorReply(503, "shutting_down", "this instance is shutting down; try again", { "retry-after": "1" })
      /** Serves a request, counted in its budget: a stream in MAX_STREAMS, a probe in none, any other in MAX_INFLIGHT. */
      const start = (req: IncomingMessage, res: ServerResponse, kind: "stream" | "probe" | "request") => {
        if (kind === "probe") return onRequest(req, res)
        if (kind === "stream") streams++
        else inflight++
        let done = false
        const finish = () => {
          if (done) return
          done = true
          if (kind === "stream") streams--
          else {
            inflight--
            if (queue.size() > 0) queue.admit(free)
          }
          if (draining && inflight === 0) idle?.()
        }
        res.once("finish", finish)
        res.once("close", finish)
        onRequest(req, res)
      }
      // A request that parks frees a turn without finishing: the next waiting one starts (on the next turn of the event
      // loop, not inside the parking fiber). The sweep sheds those that waited too long, and admits as a backstop.
      let admitting = false
      const admitSoon = () => {
        if (admitting || queue.size() === 0) return
        admitting = true
        setImmediate(() => {
          admitting = false
          queue.admit(free)
        })
      }
      Option.map(parked, (p) => p.watch(admitSoon))
      let sweeping: ReturnType<typeof setInterval> | undefined
      const sweep = () => {
        queue.expire()
        queue.admit(free)
        if (queue.size() === 0 && sweeping !== undefined) {
          clearInterval(sweeping)
          sweeping = undefined
        }
      }
      const serve = (req: IncomingMessage, res: ServerResponse) => {
        if (draining) return send(res, shuttingDown(), true)
        const streaming = isStream(req)
        if (streaming) return streams >= maxStreams ? send(res, overloaded(), true) : start(req, res, "stream")
        if (probe(req.url)) {
          // Readiness tells a load balancer the truth: an instance whose request budget is spent cannot serve more.
          if (req.url === "/readyz" && !free()) {
            return send(
              res,
              errorReply(503, "not_ready", "this instance is serving as many requests as it may", {
                "retry-after": "1"
              })
            )
          }
          return start(req, res, "probe")
        }
        if (queue.size() === 0 && free()) return start(req, res, "request")
        const waiter = queue.push(
          () => start(req, res, "request"),
          (shutdown) => send(res, shutdown ? shuttingDown() : overloaded(), true)
        )
        if (waiter === undefined) return send(res, overloaded(), true)
        res.once("close", () => queue.leave(waiter))
        if (sweeping === undefined) {
          sweeping = setInterval(sweep, 100)
          sweeping.unref()
        }
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
            queue.drain()
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
        server.listen(
          { port: options.port, host: options.host, backlog: options.backlog ?? DEFAULT_LISTEN_BACKLOG },
          () => {
            server.off("error", onError)
            resume(Effect.void)
          }
        )
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
