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
    const server = new Server({ name: "booking-engine", version: "1.0.0" }, { capabilities: { tools: {} } })
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
