import { randomUUID } from "node:crypto"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js"
import type { BusEvent } from "../../engine/ports/Bus.ts"
import { invalidParams } from "./params.ts"
import { bookingUri, offeringUri } from "./resources.ts"
import {
  type CallApi,
  isInitialize,
  isObject,
  MAX_SESSIONS,
  MAX_SESSIONS_PER_ORG,
  makeServers,
  none,
  SESSION_IDLE_MS,
  type Session,
  STREAM_MS,
  safeJson
} from "./serverOf.ts"
import type { Tool } from "./tools.ts"

export {
  type ApiCall,
  type CallApi,
  INSTRUCTIONS,
  MAX_SESSIONS,
  MAX_SESSIONS_PER_ORG,
  MAX_SUBSCRIPTIONS,
  SESSION_IDLE_MS,
  STREAM_MS
} from "./serverOf.ts"

export interface McpOptions {
  /** Committed events of every org (the engine's bus): a listener until the returned function stops it. Sessions need it. */
  readonly events?: (listener: (event: BusEvent) => void) => () => void
  /** The org a bearer acts for now, if any (a revoked key or an expired token: none). */
  readonly orgOf?: (bearer: string) => Promise<string | undefined>
  readonly maxSessions?: number
  readonly idleMs?: number
  readonly streamMs?: number
  readonly maxSessionsPerOrg?: number
}

const jsonError = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" }
  })

/**
 * /mcp over streamable HTTP, fed the tool registry derived from the contract. A tool call or a resource read runs the
 * REST operation in-process with the caller's bearer, so validation, auth, org scoping, idempotency and errors are the
 * very same.
 *
 * Two modes. A request without Mcp-Session-Id is served statelessly by a fresh SDK Server, as it always was. An
 * initialize opens a session (its id in Mcp-Session-Id) while this instance holds fewer than maxSessions: the session
 * keeps its Server and transport in memory, so a client can open the GET stream and subscribe to bookings, and is told
 * of their changes (notifications/resources/updated) from the engine's event bus. A session is bound to the org that
 * opened it, closed after idleMs without a request or an open stream, on DELETE, or when its bearer stops
 * authenticating. At most maxSessions per instance and maxSessionsPerOrg per org; past either, an initialize is
 * served statelessly. Its id starts with this instance's id: another instance's session id (a load balancer without
 * affinity) is served statelessly (POST; GET and DELETE 405), while an unknown id of this instance (closed, expired)
 * is 404, so the client initializes again.
 */
export const mcpHandler = (tools: ReadonlyArray<Tool>, callApi: CallApi, options: McpOptions = {}) => {
  const { makeServer, groups } = makeServers(tools, callApi)
  const instance = randomUUID().slice(0, 8)
  const sessions = new Map<string, Session>()
  const maxSessions =
    options.events === undefined || options.orgOf === undefined ? 0 : (options.maxSessions ?? MAX_SESSIONS)
  const idleMs = options.idleMs ?? SESSION_IDLE_MS
  const streamMs = options.streamMs ?? STREAM_MS
  const perOrg = options.maxSessionsPerOrg ?? MAX_SESSIONS_PER_ORG

  // ---- sessions ----

  // While there are sessions: the bus is listened to, and idle sessions are swept.
  let stopListening: (() => void) | undefined
  let sweeper: ReturnType<typeof setInterval> | undefined
  const close = (s: Session) => {
    if (!sessions.delete(s.id)) return
    void s.server.close().catch(() => undefined)
    if (sessions.size === 0) {
      stopListening?.()
      stopListening = undefined
      clearInterval(sweeper)
      sweeper = undefined
    }
  }
  const sweep = () => {
    const now = Date.now()
    for (const s of sessions.values()) if (s.streams === 0 && now - s.seen > idleMs) close(s)
  }
  const started = (s: Session) => {
    sessions.set(s.id, s)
    stopListening ??= options.events!(onEvent)
    if (sweeper === undefined) {
      sweeper = setInterval(sweep, Math.min(60_000, Math.max(1_000, idleMs / 2)))
      sweeper.unref()
    }
  }

  /** An event of the org: the subscribed resources it changed, each told once to each session subscribed. */
  const onEvent = (e: BusEvent) => {
    const data = isObject(e.data) ? e.data : {}
    const uris = new Set<string>()
    if (e.type.startsWith("booking.") && typeof data.id === "string") uris.add(bookingUri(data.id))
    if (typeof data.booking_id === "string") uris.add(bookingUri(data.booking_id))
    if (e.type.startsWith("offering.") && typeof data.id === "string") uris.add(offeringUri(data.id))
    if (uris.size === 0) return
    for (const s of sessions.values()) {
      if (s.org !== e.org_id) continue
      const told = [...uris].filter((u) => s.subscriptions.has(u))
      if (told.length === 0) continue
      // Told only while the session's credential still acts for its org (a revoked key, an expired token: closed).
      void options.orgOf!(s.bearer).then(
        (org) => {
          if (org !== s.org) return close(s)
          if (s.streams === 0) for (const uri of told) s.pending.add(uri)
          else for (const uri of told) void s.server.sendResourceUpdated({ uri }).catch(() => undefined)
        },
        () => undefined
      )
    }
  }

  const open = async (
    request: Request,
    bearer: string,
    org: string,
    toolsets: ReadonlySet<string> | undefined
  ): Promise<Response | undefined> => {
    const full = () =>
      sessions.size >= maxSessions || [...sessions.values()].filter((s) => s.org === org).length >= perOrg
    if (full()) sweep()
    if (full()) return undefined
    let session: Session | undefined
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => `${instance}-${randomUUID()}`,
      enableJsonResponse: true,
      keepAliveMs: 25_000,
      onsessioninitialized: (id) => {
        session = {
          id,
          org,
          server,
          transport,
          bearer,
          seen: Date.now(),
          streams: 0,
          subscriptions: new Set(),
          pending: new Set()
        }
        started(session)
      },
      onsessionclosed: (id) => {
        const s = sessions.get(id)
        if (s !== undefined) close(s)
      }
    })
    const { server, connect } = makeServer(() => session, toolsets)
    await connect(transport)
    const response = await transport.handleRequest(request, { authInfo: { token: bearer, clientId: org, scopes: [] } })
    if (session === undefined) await server.close()
    return response
  }

  const stateless = async (request: Request, bearer: string, toolsets: ReadonlySet<string> | undefined) => {
    const { server, connect } = makeServer(none, toolsets)
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true
    })
    await connect(transport)
    try {
      return await transport.handleRequest(request, { authInfo: { token: bearer, clientId: "", scopes: [] } })
    } finally {
      await server.close()
    }
  }

  return async (request: Request, bearer: string, org: string): Promise<Response> => {
    // ?toolsets=bookings,availability: only those groups' tools, for an agent with little room in its context.
    const raw = new URL(request.url).searchParams.get("toolsets")
    const toolsets =
      raw === null || raw.trim() === ""
        ? undefined
        : new Set(
            raw
              .split(",")
              .map((t) => t.trim())
              .filter((t) => t !== "")
          )
    const unknown = toolsets === undefined ? [] : [...toolsets].filter((t) => !groups.includes(t))
    if (unknown.length > 0) {
      return jsonError(
        400,
        ErrorCode.InvalidParams,
        `unknown toolset ${unknown.join(", ").slice(0, 100)}: toolsets are ${groups.join(", ")}`
      )
    }
    const id = request.headers.get("mcp-session-id")
    if (id === null) {
      // An initialize whose params do not fit opens no session: it is answered -32602 statelessly.
      const body = request.method === "POST" && maxSessions > 0 ? safeJson(await request.clone().text()) : undefined
      if (isInitialize(body) && invalidParams(body) === undefined) {
        const opened = await open(request.clone(), bearer, org, toolsets)
        if (opened !== undefined) return opened
      }
      return stateless(request, bearer, toolsets)
    }
    const s = sessions.get(id)
    // Another org's session is no session of the caller's.
    if (s === undefined || s.org !== org) {
      if (id.startsWith(`${instance}-`)) return jsonError(404, -32001, "Session not found")
      // Another instance's session: its requests are served here statelessly; its stream and its end are not ours.
      if (request.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } })
      return stateless(request, bearer, toolsets)
    }
    s.seen = Date.now()
    s.bearer = bearer
    const response = await s.transport.handleRequest(request, {
      authInfo: { token: bearer, clientId: org, scopes: [] }
    })
    if (request.method !== "GET" || response.body === null || !response.ok) return response
    // The GET stream keeps the session alive while it is open; what changed while none was open is told on it now.
    s.streams++
    for (const uri of s.pending)
      if (s.subscriptions.has(uri)) void s.server.sendResourceUpdated({ uri }).catch(() => undefined)
    s.pending.clear()
    return new Response(
      tracked(response.body, streamMs, () => {
        s.streams--
        s.seen = Date.now()
      }),
      { status: response.status, headers: response.headers }
    )
  }
}

/** The stream, ended after ms, with onEnd called once when it ends, fails or its reader cancels it. */
const tracked = (body: ReadableStream<Uint8Array>, ms: number, onEnd: () => void) => {
  const reader = body.getReader()
  let ended = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const end = () => {
    clearTimeout(timer)
    if (!ended) (ended = true), onEnd()
  }
  return new ReadableStream<Uint8Array>({
    start(c) {
      timer = setTimeout(() => {
        end()
        void reader.cancel().catch(() => undefined)
        try {
          c.close()
        } catch {
          // already closed
        }
      }, ms)
      timer.unref?.()
    },
    async pull(c) {
      try {
        const r = await reader.read()
        if (r.done) end(), c.close()
        else c.enqueue(r.value)
      } catch (e) {
        end()
        c.error(e)
      }
    },
    cancel(reason) {
      end()
      return reader.cancel(reason)
    }
  })
}
