import type { IncomingMessage, ServerResponse } from "node:http"
import { BlockList } from "node:net"
import { Effect, FiberRef, FiberRefs, LogLevel, Option, Runtime } from "effect"
import { Parked } from "../../engine/services/Parked.ts"
import { afterBody, readsBody } from "../shared/body.ts"
import { resolveClient, TrustedProxies } from "../shared/proxies.ts"
import { errorReply, send } from "../shared/reply.ts"
import { factsOf, type RequestFacts } from "../shared/requestLog.ts"
import { StreamLimits } from "../shared/streams.ts"
import { makeAdmission } from "./admission.ts"
import { DEFAULT_BODY_TIMEOUT_MS, watchBody } from "./bodyTime.ts"
import type { Load } from "./metrics.ts"
import { STREAM_PATH } from "./sse.ts"

export const DEFAULT_MAX_INFLIGHT = 512
export const DEFAULT_MAX_QUEUED = 10_000
export const DEFAULT_QUEUE_TIMEOUT_MS = 30_000

/** The request budget: MAX_INFLIGHT, MAX_QUEUED, QUEUE_TIMEOUT_MS and BODY_TIMEOUT_MS (defaults above). */
export interface Budget {
  readonly maxInflight?: number | undefined
  readonly maxQueued?: number | undefined
  readonly queueTimeoutMs?: number | undefined
  /** How long a body may take to arrive (more for a large one: bodyTime.ts); slower is 408. */
  readonly bodyTimeoutMs?: number | undefined
}

/** A request that holds its answer open (Server-Sent Events): the event stream and MCP sessions' GET streams. */
const isStream = (req: IncomingMessage) => {
  if (req.method !== "GET") return false
  const path = (req.url ?? "/").split("?")[0]
  return path === STREAM_PATH || path === "/mcp"
}

/**
 * A request's log line: `GET /api/v1/bookings/{id} 200 3.1 ms`, with the same facts as fields (the org it acted for,
 * its Request-Id, the client's address (TRUST_PROXY: the one a trusted proxy names); `aborted` when the client left before the answer was sent).
 */
const requestLine = (req: IncomingMessage, res: ServerResponse, facts: RequestFacts, ms: number, client: string) => {
  const method = req.method ?? "GET"
  const route = facts.route ?? "unmatched"
  const status = res.statusCode
  const time_ms = Math.round(ms * 10) / 10
  return Effect.logInfo(`${method} ${route} ${status} ${time_ms} ms`).pipe(
    Effect.annotateLogs({
      method,
      route,
      ...(facts.operation === undefined ? {} : { operation: facts.operation }),
      status,
      time_ms,
      org: facts.org ?? null,
      client,
      request_id: facts.id,
      ...(res.writableFinished ? {} : { aborted: true })
    })
  )
}

/**
 * What stands between a listener and the request handler, the same for the server's own listener and for a host app
 * that mounts createEngine's handler: the request budget (past MAX_INFLIGHT requests wait for a turn in arrival order,
 * up to MAX_QUEUED of them and QUEUE_TIMEOUT_MS each, past that 503 overloaded), the streams' budget (MAX_STREAMS),
 * probes outside both, a body's time to arrive (BODY_TIMEOUT_MS; a request takes its turn once its body is in), and
 * the drain of a shutdown (new requests 503 shutting_down).
 */
export const makeFront = (budget: Budget) =>
  Effect.gen(function* () {
    // Requests parked in memory for their turn (bookings at the gate, waitlist joins: engine/services/Parked.ts) are
    // open but idle: they hold a socket and a few objects, no connection of the pool and no CPU, so they are not counted.
    let inflight = 0
    const parked = yield* Effect.serviceOption(Parked)
    const waiting = Option.match(parked, { onNone: () => () => 0, onSome: (p) => p.count })
    const working = () => inflight - waiting()
    let draining = false
    let idle: (() => void) | undefined
    const maxInflight = budget.maxInflight ?? DEFAULT_MAX_INFLIGHT
    const free = () => working() < maxInflight
    const queue = makeAdmission(
      budget.maxQueued ?? DEFAULT_MAX_QUEUED,
      budget.queueTimeoutMs ?? DEFAULT_QUEUE_TIMEOUT_MS
    )
    // Requests whose body is still arriving: they hold a socket and what came so far, no turn (`reading`).
    let reading = 0
    const bodyTimeoutMs = budget.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS
    const load = (): Load => ({ working: working(), queued: queue.size(), parked: waiting(), reading })
    let onRequest: (req: IncomingMessage, res: ServerResponse) => void = () => {}
    // Long-lived streams have a budget of their own (StreamLimits): they never fill the one of requests.
    let streams = 0
    const maxStreams = (yield* StreamLimits).max
    const probe = (url: string | undefined) => url === "/healthz" || url === "/readyz" || url === "/metrics"
    const overloaded = () =>
      errorReply(503, "overloaded", "too many requests in progress; try again shortly", { "retry-after": "1" })
    const shuttingDown = () =>
      errorReply(503, "shutting_down", "this instance is shutting down; try again", { "retry-after": "1" })
    const tooSlow = () =>
      errorReply(
        408,
        "request_timeout",
        `the request's body did not arrive in time (${bodyTimeoutMs / 1000} s, and a second more for each 16 KiB); send it again`
      )
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
        if (draining && inflight + reading === 0) idle?.()
      }
      res.once("finish", finish)
      res.once("close", finish)
      onRequest(req, res)
    }
    /**
     * A request with a body takes its turn only once the body is in (the reader asks for it: shared/body.ts), so
     * clients that send slowly hold sockets, never turns; a body slower than BODY_TIMEOUT_MS allows is 408. While it
     * arrives, the surface may answer from the headers alone (a wrong type, a length past its limit, no key).
     */
    const startReading = (req: IncomingMessage, res: ServerResponse) => {
      reading++
      let phase: "reading" | "working" | "done" = "reading"
      const clock = watchBody(req, bodyTimeoutMs, () => {
        // The surface's reader never hands this body on; the rest that arrives is dropped so the answer is read.
        req.removeAllListeners("data")
        req.resume()
        send(res, tooSlow(), true)
      })
      const finish = () => {
        if (phase === "done") return
        clock.stop()
        if (phase === "reading") reading--
        else {
          inflight--
          if (queue.size() > 0) queue.admit(free)
        }
        phase = "done"
        if (draining && inflight + reading === 0) idle?.()
      }
      res.once("finish", finish)
      res.once("close", finish)
      afterBody(
        req,
        () =>
          new Promise<void>((resolve) => {
            clock.stop()
            if (phase !== "reading") return
            const go = () => {
              if (phase !== "reading") return
              reading--
              inflight++
              phase = "working"
              resolve()
            }
            // A body that arrived as the instance drains is served: it was taken before the drain began.
            if (draining || (queue.size() === 0 && free())) return go()
            wait(res, go)
          })
      )
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
    const sweepSoon = () => {
      if (sweeping === undefined) {
        sweeping = setInterval(sweep, 100)
        sweeping.unref()
      }
    }
    /** Waits for a turn in arrival order (`go` when it comes), or answers 503 when the queue is full or it waited too long. */
    const wait = (res: ServerResponse, go: () => void) => {
      const waiter = queue.push(go, (shutdown) => send(res, shutdown ? shuttingDown() : overloaded(), true))
      if (waiter === undefined) return send(res, overloaded(), true)
      res.once("close", () => queue.leave(waiter))
      sweepSoon()
    }
    const admit = (req: IncomingMessage, res: ServerResponse) => {
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
      if (readsBody(req)) return startReading(req, res)
      if (queue.size() === 0 && free()) return start(req, res, "request")
      wait(res, () => start(req, res, "request"))
    }
    // Every answer carries its Request-Id; at LOG_LEVEL info or finer each request leaves one line when it ends.
    const runtime = yield* Effect.runtime<never>()
    const logging = LogLevel.lessThanEqual(
      FiberRefs.getOrDefault(runtime.fiberRefs, FiberRef.currentMinimumLogLevel),
      LogLevel.Info
    )
    const log = Runtime.runSync(runtime)
    const proxies = Option.match(yield* Effect.serviceOption(TrustedProxies), {
      onNone: () => new BlockList(),
      onSome: (p) => p.list
    })
    const serve = (req: IncomingMessage, res: ServerResponse) => {
      const facts = factsOf(req)
      const client = resolveClient(req, proxies)
      res.setHeader("request-id", facts.id)
      if (logging) {
        const started = performance.now()
        let logged = false
        const done = () => {
          if (logged) return
          logged = true
          log(requestLine(req, res, facts, performance.now() - started, client))
        }
        res.once("finish", done)
        res.once("close", done)
      }
      admit(req, res)
    }
    return {
      serve,
      load,
      /** The handler requests go to once admitted (built after the front, which its metrics read). */
      handle: (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
        onRequest = handler
      },
      /**
       * Stops taking requests (new ones 503 shutting_down, waiting ones shed); `whenIdle` runs once no request is in
       * flight, at once if none is.
       */
      drain: (whenIdle: () => void) => {
        draining = true
        queue.drain()
        idle = whenIdle
        if (inflight + reading === 0) whenIdle()
      }
    }
  })
