import type { IncomingMessage } from "node:http"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js"
import { Effect, Either, JSONSchema, Option, ParseResult, Runtime, Schema } from "effect"
import { BookingCreate } from "../../engine/schema/booking.ts"
import { AvailabilityQuery } from "../../engine/schema/calendar.ts"
import { fieldName, findBadText } from "../../engine/schema/text.ts"
import { Assistant, HOLDS_PER_EMAIL } from "../../engine/services/assistant/Assistant.ts"
import { clientAddress, type Limiter } from "../shared/client.ts"
import { pathSegment } from "../shared/json.ts"
import { errorReply, type Reply } from "../shared/reply.ts"
import { PACKAGE_VERSION } from "../shared/version.ts"
import { guardParams } from "./params.ts"
import { pruneDefs } from "./tools.ts"

/** The assistant channel's path: /api/mcp/book/{slug}. */
export const ASSISTANT_PATH = /^\/api\/mcp\/book\/([^/?]+)\/?(?:\?.*)?$/

const HoldInput = BookingCreate.pipe(
  Schema.pick("offering_id", "session_id", "starts_at", "quantity", "periods", "customer", "answers", "notes")
).annotations({ parseOptions: { onExcessProperty: "error" }, identifier: "AssistantHold" })
const TimesInput = Schema.Struct({ offering_id: Schema.UUID, ...AvailabilityQuery.fields }).annotations({
  parseOptions: { onExcessProperty: "error" }
})
const NoInput = Schema.Struct({})

/** An object schema for MCP's inputSchema: the Schema's JSON Schema, its top-level $ref resolved, only the $defs it uses. */
const jsonSchema = (s: Schema.Schema.Any) => {
  const json = JSONSchema.make(s) as unknown as {
    $ref?: string
    $defs?: Record<string, { properties?: object; required?: string[] }>
    properties?: object
    required?: string[]
  }
  const ref = typeof json.$ref === "string" ? json.$ref.split("/").pop() : undefined
  const body = ref && json.$defs?.[ref] ? json.$defs[ref] : json
  return pruneDefs({
    type: "object",
    properties: (body.properties ?? {}) as Record<string, unknown>,
    required: body.required ?? [],
    ...(json.$defs ? { $defs: json.$defs } : {})
  }) as { type: "object" } & Record<string, unknown>
}

const TOOLS = [
  {
    name: "org_info",
    title: "The business",
    description: "The business: name, time zone, currency. Times everywhere are in its time zone.",
    input: NoInput
  },
  {
    name: "list_offerings",
    title: "What can be booked",
    description:
      "The business's bookable offerings (classes, appointments, rentals) with prices in minor units of its currency, durations, capacity and the questions a guest answers.",
    input: NoInput
  },
  {
    name: "get_availability",
    title: "Bookable times of an offering",
    description:
      "Bookable times of one offering: from/to are local dates (YYYY-MM-DD, default the next 14 days). Each time has starts_at, remaining places and, for classes, session_id.",
    input: TimesInput
  },
  {
    name: "hold_booking",
    title: "Hold a place for a guest",
    description:
      "Hold a place for a guest (their name and email; session_id or starts_at of a time from get_availability; quantity people or items). " +
      "The hold lasts 30 minutes and is not a booking yet: the guest is emailed a link to confirm it, or to pay. Tell the guest to check their email.",
    input: HoldInput
  }
] as const

const text = (value: unknown, isError = false) => ({
  isError,
  content: [{ type: "text" as const, text: JSON.stringify(value) }]
})
const refused = (code: string, message: string) => text({ error: { code, message } }, true)

/**
 * The assistant booking channel as its own small MCP server (streamable HTTP, stateless, no key). Limits: holds per
 * client address (`perAddress`, shared by instances) and live holds per guest email (HOLDS_PER_EMAIL) answer 429 with
 * Retry-After before the MCP layer.
 */
export const assistantMcp = (runtime: Runtime.Runtime<Assistant>, perAddress: Pick<Limiter, "off" | "check">) => {
  const run = <A>(f: (a: Assistant) => Effect.Effect<A, unknown>) =>
    Runtime.runPromise(runtime)(Effect.either(Effect.flatMap(Assistant, f))) as Promise<
      Either.Either<A, { _tag: string; code: string; message: string }>
    >
  const listed = TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: jsonSchema(t.input),
    annotations: { title: t.title, readOnlyHint: t.name !== "hold_booking" }
  }))

  const call = async (slug: string, name: string, args: Record<string, unknown>) => {
    const tool = TOOLS.find((t) => t.name === name)
    // A tool that is not listed is a protocol error (JSON-RPC -32602, invalid params), as MCP specifies.
    if (tool === undefined)
      throw new McpError(ErrorCode.InvalidParams, `unknown_tool: no tool named ${name.slice(0, 100)}`)
    // Text as REST takes it: no NUL (Postgres refuses it) and no lone surrogate, in any argument or key.
    const bad = findBadText(args)
    if (bad !== undefined)
      return refused("invalid_arguments", `${fieldName(bad.path).slice(0, 100) || "arguments"}: ${bad.problem}`)
    const decoded = Schema.decodeUnknownEither(tool.input as Schema.Schema<any, any>)(args)
    if (Either.isLeft(decoded))
      return refused(
        "invalid_arguments",
        ParseResult.TreeFormatter.formatErrorSync(decoded.left).split("\n").slice(0, 6).join(" ")
      )
    const result: Either.Either<unknown, { _tag: string; code: string; message: string }> =
      name === "org_info"
        ? await run((a) => a.org(slug))
        : name === "list_offerings"
          ? await run((a) => a.offerings(slug))
          : name === "get_availability"
            ? await run((a) =>
                a.times(slug, decoded.right.offering_id, { from: decoded.right.from, to: decoded.right.to })
              )
            : await run((a) => a.hold(slug, decoded.right))
    return Either.isRight(result)
      ? { ...text(result.right), structuredContent: result.right as Record<string, unknown> }
      : refused(result.left.code, result.left.message)
  }

  type Refusal = {
    readonly code: "rate_limited" | "unavailable"
    readonly message: string
    readonly retryAfter: number
    readonly headers: Record<string, string>
  }
  /** The hold limits, counted for one hold_booking call: per client address, then live holds per guest email. */
  const holdRefusal = async (
    req: IncomingMessage,
    slug: string,
    args: Record<string, unknown>
  ): Promise<Refusal | undefined> => {
    if (!perAddress.off) {
      const v = await perAddress.check(`${slug}:${clientAddress(req)}`)
      if (!v.ok && "unavailable" in v) {
        return {
          code: "unavailable",
          message: "the service cannot reach its database just now; try again shortly",
          retryAfter: v.retryAfter,
          headers: {}
        }
      }
      if (!v.ok)
        return {
          code: "rate_limited",
          message: `too many holds from this address; try again in ${v.retryAfter} s`,
          retryAfter: v.retryAfter,
          headers: v.headers
        }
    }
    const customer = args.customer as { email?: unknown } | undefined
    if (typeof customer?.email !== "string") return undefined
    const full = await run((a) => a.holdsFull(slug, customer.email as string))
    if (Either.isLeft(full) || Option.isNone(full.right)) return undefined
    const wait = full.right.value
    return {
      code: "rate_limited",
      message: `this guest already has ${HOLDS_PER_EMAIL} holds waiting for them to confirm; try again in ${wait} s`,
      retryAfter: wait,
      headers: {}
    }
  }

  /** `rawSlug` is the path's segment as sent (%-encoded). */
  return async (req: IncomingMessage, body: string | undefined, rawSlug: string): Promise<Reply> => {
    const segment = pathSegment(rawSlug)
    if (!segment.ok) return errorReply(400, "invalid_slug", `slug: ${segment.problem}`)
    const slug = segment.value
    const known = await run((a) => a.org(slug))
    if (Either.isLeft(known)) return errorReply(404, "not_found", "no org has this slug")
    // Every hold_booking call counts against the limits, however it arrives (one message or a JSON-RPC batch of
    // many): the check runs per call, one call of the request at a time, so a batch cannot pass it in parallel.
    let holds: Promise<unknown> = Promise.resolve()
    let refusal: Refusal | undefined
    const hold = (args: Record<string, unknown>) => {
      // Arguments that are not text are refused by the tool itself, never counted or looked up.
      if (findBadText(args) !== undefined) return call(slug, "hold_booking", args)
      const result = holds.then(async () => {
        const refused_ = await holdRefusal(req, slug, args)
        if (refused_ !== undefined) {
          refusal = refused_
          return refused(refused_.code, refused_.message)
        }
        return call(slug, "hold_booking", args)
      })
      holds = result.catch(() => undefined)
      return result
    }
    const server = new Server(
      { name: "booking-engine-assistant", version: PACKAGE_VERSION },
      {
        capabilities: { tools: {} },
        instructions:
          "Help a guest book with this business: list_offerings, get_availability, then hold_booking with the guest's name and email. A hold is confirmed by the guest from their email, never by you."
      }
    )
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }))
    let argumentsOf: ReturnType<typeof guardParams>["argumentsOf"] = () => undefined
    server.setRequestHandler(CallToolRequestSchema, async (r, extra) => {
      const args = argumentsOf(extra.requestId) ?? r.params.arguments ?? {}
      return r.params.name === "hold_booking" ? hold(args) : call(slug, r.params.name, args)
    })
    const headers = new Headers()
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v)
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true
    })
    await server.connect(transport)
    // Params that do not fit their method are -32602 with a short message; tool arguments are read as sent.
    argumentsOf = guardParams(transport, ["initialize", "ping", "tools/list", "tools/call"]).argumentsOf
    try {
      const response = await transport.handleRequest(
        new Request(`http://assistant.internal${req.url}`, {
          method: req.method,
          headers,
          body: req.method === "GET" || req.method === "HEAD" ? undefined : body
        })
      )
      // A single call refused by a limit is answered as HTTP 429 with Retry-After; in a batch each call says so.
      if (refusal !== undefined && !(body ?? "").trimStart().startsWith("[")) {
        return errorReply(refusal.code === "unavailable" ? 503 : 429, refusal.code, refusal.message, {
          ...refusal.headers,
          "retry-after": String(refusal.retryAfter)
        })
      }
      const out: Record<string, string> = {}
      response.headers.forEach((v, k) => (out[k] = v))
      delete out["content-length"]
      return { status: response.status, headers: out, body: await response.text() }
    } finally {
      await server.close()
    }
  }
}
