import { randomUUID } from "node:crypto"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type RequestId,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema
} from "@modelcontextprotocol/sdk/types.js"
import type { BusEvent } from "../../engine/ports/Bus.ts"
import { guardParams, invalidParams, type Method } from "./params.ts"
import { PROMPTS, promptMessages } from "./prompts.ts"
import {
  bookingUri,
  catalogue,
  contentsOf,
  EVENTS_RESOURCE,
  offeringUri,
  parseUri,
  RESOURCE_NOT_FOUND,
  TEMPLATES
} from "./resources.ts"
import { argumentError, requestOf, type Tool } from "./tools.ts"

export interface ApiCall {
  readonly method: string
  readonly url: string
  readonly body: string | undefined
  readonly idempotencyKey: string | undefined
  readonly bearer: string
}

export type CallApi = (call: ApiCall) => Promise<{ status: number; body: string }>

/** What an agent needs to know before its first call: the model, money, time and the shape of answers. */
export const INSTRUCTIONS = [
  "This server runs one org's bookings; every tool is one REST operation of /api/v1 with the same validation and errors.",
  "Model: an offering (kind class, appointment or rental) has times: a class's sessions (sessions_list), an appointment's calendar or weekly hours, a rental's items over periods. availability_get lists bookable times with what remains.",
  "A booking takes places at one time: bookings_create with offering_id and session_id or starts_at, the guest's name and email, quantity. A priced booking is held (status held, expires_at, checkout_url for the guest to pay) and confirmed when paid; bookings_confirm confirms a hold by hand.",
  "Money is in minor units of the org's currency (total_cents; EUR 2500 = 25.00). Times are ISO 8601 instants; local dates and wall times are in the org's time zone (org_get).",
  "Errors come back as isError with {error: {code, message}}: sold_out, time_not_available, invalid_<field>. Retrying a create with the same idempotency_key is safe.",
  "Cancelling a session (sessions_cancel) with guests refund or choose emails the guests; events_list shows what changed.",
  "Resources: booking-engine://offerings/{id}, booking-engine://bookings/{id} (subscribe to be told of its changes, in a session) and booking-engine://events (every event type). Prompts: book_for_guest, cancel_session_and_tell_guests."
].join("\n")

/** Sessions one instance holds at once; past this an initialize is served without a session (stateless, as before). */
export const MAX_SESSIONS = 1000
/** A session with no request and no open GET stream for this long is closed (its id then answers 404). */
export const SESSION_IDLE_MS = 15 * 60_000
/**
 * A GET stream ends after this long; the SDK client opens it again at once, and nothing is lost (what changed in
 * between is told on the new stream). So a dead connection the server cannot see keeps no session alive for ever.
 */
export const STREAM_MS = 10 * 60_000
/** Sessions one org may hold on an instance, so that one org cannot take them all; past it, stateless. */
export const MAX_SESSIONS_PER_ORG = 50
/** Resources one session may subscribe to. */
export const MAX_SUBSCRIPTIONS = 100

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

interface Session {
  readonly id: string
  readonly org: string
  readonly server: Server
  readonly transport: WebStandardStreamableHTTPServerTransport
  /** The bearer of its latest request: checked again before each notification (revocation, expiry). */
  bearer: string
  seen: number
  streams: number
  readonly subscriptions: Set<string>
  /** Changes to tell when the GET stream opens again (none is open now): each subscribed URI once. */
  readonly pending: Set<string>
}

const errorText = (code: string, message: string) => JSON.stringify({ error: { code, message } })

/** The requests this server answers: their params are checked before the SDK sees them (-32602, see params.ts). */
const METHODS: ReadonlyArray<Method> = [
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get"
]

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
  const byName = new Map(tools.map((t) => [t.name, t]))
  const listed = tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema,
    outputSchema: t.outputSchema,
    annotations: t.annotations
  }))
  const groupOf = (name: string) => byName.get(name)?.operationId.split(".")[0] ?? ""
  const groups = [...new Set(tools.map((t) => groupOf(t.name)))].sort()
  /** The tools a toolset choice lists (all when none was made). */
  const listedFor = (toolsets: ReadonlySet<string> | undefined) =>
    toolsets === undefined ? listed : listed.filter((t) => toolsets.has(groupOf(t.name)))
  const instance = randomUUID().slice(0, 8)
  const sessions = new Map<string, Session>()
  const maxSessions =
    options.events === undefined || options.orgOf === undefined ? 0 : (options.maxSessions ?? MAX_SESSIONS)
  const idleMs = options.idleMs ?? SESSION_IDLE_MS
  const streamMs = options.streamMs ?? STREAM_MS
  const perOrg = options.maxSessionsPerOrg ?? MAX_SESSIONS_PER_ORG

  const bearerOf = (extra: { authInfo?: { token: string } }) => {
    if (extra.authInfo === undefined) throw new McpError(ErrorCode.InternalError, "no credential")
    return extra.authInfo.token
  }
  const get = (bearer: string, url: string) =>
    callApi({ method: "GET", url, body: undefined, idempotencyKey: undefined, bearer })

  const callTool = async (
    name: string,
    args: Record<string, unknown>,
    bearer: string,
    toolsets: ReadonlySet<string> | undefined
  ) => {
    const tool = byName.get(name)
    if (tool === undefined || (toolsets !== undefined && !toolsets.has(groupOf(name)))) {
      return {
        isError: true,
        content: [{ type: "text" as const, text: errorText("unknown_tool", `no tool named ${name}`) }]
      }
    }
    const refused = argumentError(tool, args)
    if (refused !== undefined)
      return { isError: true, content: [{ type: "text" as const, text: errorText(refused.code, refused.message) }] }
    const res = await callApi({ ...requestOf(tool, args), bearer })
    if (res.status >= 400) return { isError: true, content: [{ type: "text" as const, text: res.body }] }
    // structuredContent conforms to the tool's outputSchema; the same JSON as text, for clients that read only text.
    const parsed = res.body === "" ? undefined : safeJson(res.body)
    const structured = tool.wrapped ? { result: parsed ?? null } : isObject(parsed) ? parsed : {}
    return {
      content: [{ type: "text" as const, text: res.body === "" ? "{}" : res.body }],
      structuredContent: structured
    }
  }

  const readResource = async (uri: string, bearer: string) => {
    const at = parseUri(uri)
    if (at === undefined) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`)
    if (at.kind === "events")
      return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(catalogue()) }] }
    const res = await get(
      bearer,
      `/api/v1/${at.kind === "offering" ? "offerings" : "bookings"}/${encodeURIComponent(at.id)}`
    )
    return contentsOf(uri, res.status, res.body)
  }

  /**
   * A Server with every handler; sessionOf is its session once initialize made it (never, when stateless). Connect it
   * with `connect`, which puts the params check in front of it and keeps tool arguments as they were sent.
   */
  const makeServer = (sessionOf: () => Session | undefined, toolsets: ReadonlySet<string> | undefined) => {
    const subscribe = sessionOf !== none
    let argumentsOf = (_id: RequestId): Record<string, unknown> | undefined => undefined
    const server = new Server(
      { name: "booking-engine", version: "1.0.0" },
      {
        capabilities: { tools: {}, resources: { subscribe, listChanged: false }, prompts: { listChanged: false } },
        instructions: INSTRUCTIONS
      }
    )
    const shown = listedFor(toolsets)
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: shown }))
    server.setRequestHandler(CallToolRequestSchema, async (req, extra) =>
      callTool(req.params.name, argumentsOf(extra.requestId) ?? req.params.arguments ?? {}, bearerOf(extra), toolsets)
    )
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: TEMPLATES }))
    server.setRequestHandler(ListResourcesRequestSchema, async (_req, extra) => {
      // The catalogue, and the org's offerings by name (bookings are too many to list: read them by id).
      const res = await get(bearerOf(extra), "/api/v1/offerings")
      const offerings =
        res.status === 200
          ? ((safeJson(res.body) as { data?: Array<{ id: string; name: string; kind: string }> }).data ?? [])
          : []
      return {
        resources: [
          EVENTS_RESOURCE,
          ...offerings.map((o) => ({
            uri: offeringUri(o.id),
            name: o.name,
            description: `${o.kind} offering`,
            mimeType: "application/json"
          }))
        ]
      }
    })
    server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) =>
      readResource(req.params.uri, bearerOf(extra))
    )
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({
      prompts: PROMPTS.map((p) => ({ ...p, arguments: [...p.arguments] }))
    }))
    server.setRequestHandler(GetPromptRequestSchema, async (req) =>
      promptMessages(req.params.name, req.params.arguments ?? {})
    )
    server.setRequestHandler(SubscribeRequestSchema, async (req, extra) => {
      const session = sessionOf()
      if (session === undefined) {
        throw new McpError(
          ErrorCode.InvalidRequest,
          "subscriptions need a session: initialize without Mcp-Session-Id and send the id the answer carries"
        )
      }
      const at = parseUri(req.params.uri)
      if (at === undefined || at.kind === "events")
        throw new McpError(ErrorCode.InvalidParams, "only a booking or an offering can be subscribed to")
      const uri = at.kind === "booking" ? bookingUri(at.id) : offeringUri(at.id)
      if (!session.subscriptions.has(uri) && session.subscriptions.size >= MAX_SUBSCRIPTIONS) {
        throw new McpError(ErrorCode.InvalidRequest, `at most ${MAX_SUBSCRIPTIONS} subscriptions per session`)
      }
      // Only what this org can read: another org's booking is not found, as in REST.
      await readResource(uri, bearerOf(extra))
      session.subscriptions.add(uri)
      return {}
    })
    server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
      const session = sessionOf()
      const at = parseUri(req.params.uri)
      if (session !== undefined && at !== undefined && at.kind !== "events")
        session.subscriptions.delete(at.kind === "booking" ? bookingUri(at.id) : offeringUri(at.id))
      return {}
    })
    const connect = async (transport: WebStandardStreamableHTTPServerTransport) => {
      await server.connect(transport)
      argumentsOf = guardParams(transport, METHODS).argumentsOf
    }
    return { server, connect }
  }

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

const none = (): undefined => undefined

const isInitialize = (body: unknown) =>
  (Array.isArray(body) ? body : [body]).some((m) => isObject(m) && m.method === "initialize")

const safeJson = (s: string): unknown => {
  try {
    return JSON.parse(s)
  } catch {
    return undefined
  }
}
const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
