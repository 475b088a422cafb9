import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
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
import { PACKAGE_VERSION } from "../shared/version.ts"
import { guardParams, type Method } from "./params.ts"
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
import { longPoll, STREAM_TOOL, streamArguments } from "./streamTool.ts"
import { argumentError, requestOf, type Tool } from "./tools.ts"
import { isObject, none, safeJson } from "./values.ts"

export { isInitialize, isObject, none, safeJson } from "./values.ts"

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

export interface Session {
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

/** Long polls of events_stream that wait at once, per credential and per instance; more answer without waiting. */
export const STREAM_WAITS_PER_KEY = 2
export const STREAM_WAITS = 32

/** The SDK Server of /mcp with every handler, over the tools derived from the contract. */
export const makeServers = (tools: ReadonlyArray<Tool>, callApi: CallApi) => {
  const byName = new Map(tools.map((t) => [t.name, t]))
  const listed = tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    outputSchema: t.outputSchema,
    annotations: t.annotations
  }))
  // The live event stream's tool (a long poll over events.list), beside events_list, answering as it does.
  const eventsList = byName.get("events_list")
  if (eventsList !== undefined)
    listed.splice(listed.findIndex((t) => t.name === eventsList.name) + 1, 0, {
      name: STREAM_TOOL.name,
      title: STREAM_TOOL.title,
      description: STREAM_TOOL.description,
      inputSchema: STREAM_TOOL.inputSchema as unknown as Tool["inputSchema"],
      outputSchema: eventsList.outputSchema,
      annotations: STREAM_TOOL.annotations
    })
  const groupOf = (name: string) =>
    name === STREAM_TOOL.name ? "events" : (byName.get(name)?.operationId.split(".")[0] ?? "")
  /** Long polls waiting at once, per credential and in all: past either, a call answers at once (wait 0). */
  const waiting = new Map<string, number>()
  let waitingAll = 0
  const groups = [...new Set(tools.map((t) => groupOf(t.name)))].sort()
  /** The tools a toolset choice lists (all when none was made). */
  const listedFor = (toolsets: ReadonlySet<string> | undefined) =>
    toolsets === undefined ? listed : listed.filter((t) => toolsets.has(groupOf(t.name)))

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
    // A tool that is not listed is a protocol error (JSON-RPC -32602, invalid params), as MCP specifies.
    if (toolsets !== undefined && !toolsets.has(groupOf(name)))
      throw new McpError(ErrorCode.InvalidParams, `unknown_tool: no tool named ${name.slice(0, 100)}`)
    if (name === STREAM_TOOL.name && eventsList !== undefined) return streamCall(args, bearer)
    const tool = byName.get(name)
    if (tool === undefined)
      throw new McpError(ErrorCode.InvalidParams, `unknown_tool: no tool named ${name.slice(0, 100)}`)
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

  const streamCall = async (args: Record<string, unknown>, bearer: string) => {
    const checked = streamArguments(args)
    if ("code" in checked)
      return { isError: true, content: [{ type: "text" as const, text: errorText(checked.code, checked.message) }] }
    const mine = waiting.get(bearer) ?? 0
    const waits = mine < STREAM_WAITS_PER_KEY && waitingAll < STREAM_WAITS
    if (waits) {
      waiting.set(bearer, mine + 1)
      waitingAll++
    }
    try {
      const res = await longPoll(
        (query) => get(bearer, `/api/v1/events${query === "" ? "" : `?${query}`}`),
        checked.query,
        waits ? checked.waitMs : 0
      )
      if (res.status >= 400) return { isError: true, content: [{ type: "text" as const, text: res.body }] }
      const parsed = safeJson(res.body)
      return { content: [{ type: "text" as const, text: res.body }], structuredContent: isObject(parsed) ? parsed : {} }
    } finally {
      if (waits) {
        const left = (waiting.get(bearer) ?? 1) - 1
        if (left === 0) waiting.delete(bearer)
        else waiting.set(bearer, left)
        waitingAll--
      }
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
      { name: "booking-engine", version: PACKAGE_VERSION },
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
  return { makeServer, groups }
}
