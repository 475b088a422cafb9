import { createServer, type Server } from "node:http"
import type { Socket } from "node:net"
import { HttpServer } from "@effect/platform"
import { Context, Effect, Layer, type Option } from "effect"
import { makeFront } from "./front.ts"
import { RequestHandler, RequestHandlerLive } from "./mounts.ts"
import { DEFAULT_BODY_LIMIT } from "./rest.ts"

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
    /** BODY_TIMEOUT_MS: how long a body may take to arrive (more for a large one: bodyTime.ts); slower is 408. */
    readonly bodyTimeoutMs?: number | undefined
  }
>() {}

export { DEFAULT_MAX_INFLIGHT, DEFAULT_MAX_QUEUED, DEFAULT_QUEUE_TIMEOUT_MS } from "./front.ts"
/**
 * Node's own default is 511: a crowd connecting in the same second past it has its SYNs dropped, and each of those
 * guests waits for its client to send again (1 s, then 3 s, 7 s...) before the instance even sees it.
 */
export const DEFAULT_LISTEN_BACKLOG = 4096
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000

export { DEFAULT_BODY_TIMEOUT_MS } from "./bodyTime.ts"
export { DEFAULT_BODY_LIMIT } from "./rest.ts"
/** Request line and headers together; the URL alone past MAX_URL is 414 in the error shape, past this it is 431. */
export const MAX_HEADER_SIZE = 32 * 1024

/** Raw replies for what Node refuses before a request exists (headers too large, unparsable request line). */
const rawError = (status: number, reason: string, code: string, message: string) => {
  const body = JSON.stringify({ error: { code, message } })
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
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
      const front = yield* makeFront(options)
      front.handle(
        yield* Effect.provide(
          RequestHandler,
          RequestHandlerLive(adminToken, options.bodyLimit ?? DEFAULT_BODY_LIMIT, front.load)
        )
      )
      const graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS
      const server: Server = yield* Effect.acquireRelease(
        Effect.sync(() =>
          createServer({ maxHeaderSize: MAX_HEADER_SIZE, requestTimeout: 60_000, headersTimeout: 30_000 }, front.serve)
        ),
        // Drain: stop taking connections, answer new requests on open ones 503, let those in flight finish (up to the
        // grace period), then close what is left. The engine's jobs stop after this, at their next safe point.
        (s) =>
          Effect.async<void>((resume) => {
            s.close(() => resume(Effect.void))
            s.closeIdleConnections()
            const timer = setTimeout(() => s.closeAllConnections(), graceMs)
            timer.unref()
            front.drain(() => {
              clearTimeout(timer)
              s.closeAllConnections()
            })
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

/**
 * The request handler behind the same front as the server's listener, for a host app's own listener (createEngine):
 * the request and stream budgets apply to what the host hands it, and on stop new requests are answered 503
 * shutting_down while those in flight get SHUTDOWN_GRACE_MS to finish.
 */
export const FrontedHandlerLive = (
  adminToken: Option.Option<string>,
  options: Omit<ListenOptions["Type"], "port" | "host" | "backlog">
) =>
  Layer.scoped(
    RequestHandler,
    Effect.gen(function* () {
      const front = yield* makeFront(options)
      front.handle(
        yield* Effect.provide(
          RequestHandler,
          RequestHandlerLive(adminToken, options.bodyLimit ?? DEFAULT_BODY_LIMIT, front.load)
        )
      )
      const graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS
      yield* Effect.addFinalizer(() =>
        Effect.async<void>((resume) => {
          let done = false
          const end = () => {
            if (done) return
            done = true
            clearTimeout(timer)
            resume(Effect.void)
          }
          const timer = setTimeout(end, graceMs)
          front.drain(end)
        })
      )
      return front.serve
    })
  )
