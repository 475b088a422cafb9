import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  type JSONRPCMessage,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  type MessageExtraInfo,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type RequestId,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema
} from "@modelcontextprotocol/sdk/types.js"

interface Checked {
  readonly safeParse: (u: unknown) =>
    | { readonly success: true }
    | {
        readonly success: false
        readonly error: {
          readonly issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>
        }
      }
}

/** The SDK's own Schema of each request these servers answer, by method. */
const REQUESTS: Readonly<Record<string, Checked>> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
  "resources/list": ListResourcesRequestSchema,
  "resources/templates/list": ListResourceTemplatesRequestSchema,
  "resources/read": ReadResourceRequestSchema,
  "resources/subscribe": SubscribeRequestSchema,
  "resources/unsubscribe": UnsubscribeRequestSchema,
  "prompts/list": ListPromptsRequestSchema,
  "prompts/get": GetPromptRequestSchema
}

export type Method = keyof typeof REQUESTS

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Why a JSON-RPC request's params do not fit its method, in a few plain words (`name: expected string, received
 * array`), or undefined when they fit or the message is no request of these methods. The SDK checks the same Schema,
 * but answers a misfit -32603 "Internal error" with the validator's whole report.
 */
export const invalidParams = (
  message: unknown,
  methods: ReadonlyArray<Method> = Object.keys(REQUESTS)
): string | undefined => {
  if (
    !isObject(message) ||
    typeof message.method !== "string" ||
    !("id" in message) ||
    !methods.includes(message.method)
  )
    return undefined
  const checked = REQUESTS[message.method].safeParse(message)
  if (checked.success) return undefined
  const issue = checked.error.issues[0]
  const path = (issue?.path ?? [])
    .filter((p, i) => !(i === 0 && p === "params"))
    .map(String)
    .join(".")
  const why = (issue?.message ?? "not what the method takes").replace(/^Invalid input: /, "")
  return `Invalid params: ${path === "" ? "params" : path}: ${why}`.slice(0, 200)
}

/**
 * Puts the check in front of a connected server's transport: a request whose params do not fit is answered -32602
 * Invalid params at once and never reaches the server. Also keeps each tools/call's `arguments` exactly as they were
 * sent: the SDK's parse rebuilds the object, which drops an own `__proto__` key (and makes its value the prototype),
 * where REST, reading the same JSON, answers `unknown_field`.
 */
export const guardParams = (transport: Transport, methods: ReadonlyArray<Method>) => {
  const sent = new Map<RequestId, unknown>()
  const inner = transport.onmessage
  transport.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
    const refusal = invalidParams(message, methods)
    if (refusal !== undefined && "id" in message) {
      void transport
        .send({ jsonrpc: "2.0", id: message.id, error: { code: ErrorCode.InvalidParams, message: refusal } })
        .catch(() => undefined)
      return
    }
    if (
      "id" in message &&
      "method" in message &&
      message.method === "tools/call" &&
      isObject(message.params) &&
      isObject(message.params.arguments)
    ) {
      sent.set(message.id, message.params.arguments)
    }
    inner?.(message, extra)
  }
  return {
    /** The arguments of the tools/call with this id as sent (once), when they were an object. */
    argumentsOf: (id: RequestId): Record<string, unknown> | undefined => {
      const args = sent.get(id)
      sent.delete(id)
      return isObject(args) ? args : undefined
    }
  }
}
