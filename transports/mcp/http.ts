import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, Fiber, Runtime, Stream } from "effect"
import { type BusEvent, EventBus } from "../../engine/ports/Bus.ts"
import { baseUrl, bearerChallenge } from "../oauth/metadata.ts"
import { bearerOf, type Dispatch, errorReply, type Reply, send } from "../shared/reply.ts"
import { STREAM_RETRY_SECONDS, type StreamBudget } from "../shared/streams.ts"
import { mcpHandler } from "./server.ts"
import type { Tool } from "./tools.ts"

/**
 * The MCP endpoint at /mcp: a Web request to the SDK's transport; tool calls run through the same dispatcher as REST.
 * The bus feeds sessions' booking subscriptions; orgOf is the org a secret key or an OAuth access token acts for
 * (transports/shared/credentials.ts, door "mcp").
 */
export const makeMcp = (
  tools: ReadonlyArray<Tool>,
  dispatch: Dispatch,
  orgOf: (key: string) => Promise<string | undefined>,
  publicUrl: string,
  runtime: Runtime.Runtime<EventBus>,
  budget: StreamBudget
) => {
  const events = (listener: (e: BusEvent) => void) => {
    const fiber = Runtime.runFork(runtime)(
      Effect.flatMap(EventBus, (bus) => bus.subscribe.pipe(Stream.runForEach((e) => Effect.sync(() => listener(e)))))
    )
    return () => void Runtime.runFork(runtime)(Fiber.interrupt(fiber))
  }
  const handle = mcpHandler(
    tools,
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
    const bearer = bearerOf(req.headers)
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
  const pipe = async (req: IncomingMessage, res: ServerResponse) => {
    const response = await respond(req, undefined)
    if (!(response instanceof Response)) return send(res, response)
    if (response.body === null || !(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      return send(res, { status: response.status, headers: headersOf(response), body: await response.text() })
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
  /** GET /mcp: a known caller takes a place in the stream budget; unauthenticated, the handler answers 401. */
  const stream = async (req: IncomingMessage, res: ServerResponse) => {
    const bearer = bearerOf(req.headers)
    const org = bearer === undefined ? undefined : await orgOf(bearer)
    const release = org === undefined || bearer === undefined ? () => undefined : budget.enter(org, `mcp:${bearer}`)
    if (release === undefined) {
      return send(
        res,
        errorReply(
          429,
          "too_many_streams",
          "this key or org has as many streams open as it may: close one, or try again later",
          { "retry-after": String(STREAM_RETRY_SECONDS) }
        )
      )
    }
    res.once("close", release)
    return pipe(req, res)
  }
  return { buffered, stream }
}
