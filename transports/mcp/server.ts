import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js"
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
  "Cancelling a session (sessions_cancel) with guests refund or choose emails the guests; events_list shows what changed."
].join("\n")

const errorText = (code: string, message: string) => JSON.stringify({ error: { code, message } })

/**
 * Stateless streamable HTTP: a fresh SDK Server per request, fed the tool registry derived from the
 * contract. A tool call runs the REST operation in-process, so validation, auth, idempotency and errors
 * are the very same.
 */
export const mcpHandler = (tools: ReadonlyArray<Tool>, callApi: CallApi) => {
  const byName = new Map(tools.map((t) => [t.name, t]))
  const listed = tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations }))
  return async (request: Request, bearer: string): Promise<Response> => {
    const server = new Server({ name: "booking-engine", version: "1.0.0" }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS })
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }))
    server.setRequestHandler(CallToolRequestSchema, async (req) => {
      const tool = byName.get(req.params.name)
      if (tool === undefined) {
        return { isError: true, content: [{ type: "text", text: errorText("unknown_tool", `no tool named ${req.params.name}`) }] }
      }
      const args = req.params.arguments ?? {}
      const refused = argumentError(tool, args)
      if (refused !== undefined) return { isError: true, content: [{ type: "text", text: errorText(refused.code, refused.message) }] }
      const res = await callApi({ ...requestOf(tool, args), bearer })
      const parsed = safeJson(res.body)
      return {
        isError: res.status >= 400,
        content: [{ type: "text", text: res.body }],
        ...(res.status < 400 && isObject(parsed) ? { structuredContent: parsed } : {})
      }
    })
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    await server.connect(transport)
    try {
      return await transport.handleRequest(request)
    } finally {
      await server.close()
    }
  }
}

const safeJson = (s: string): unknown => {
  try {
    return JSON.parse(s)
  } catch {
    return undefined
  }
}
const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
