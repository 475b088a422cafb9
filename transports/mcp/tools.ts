import { HttpApi, type HttpMethod, OpenApi } from "@effect/platform"
import { Context, JSONSchema, Option, type Schema } from "effect"
import { badText } from "../http/json.ts"

type JsonSchema = { type?: string; properties?: Record<string, unknown>; required?: string[]; $defs?: Record<string, unknown> } & Record<string, unknown>

export interface Tool {
  readonly name: string
  readonly operationId: string
  readonly description: string
  readonly method: HttpMethod.HttpMethod
  readonly path: string
  readonly pathKeys: ReadonlyArray<string>
  readonly queryKeys: ReadonlyArray<string>
  readonly bodyKeys: ReadonlyArray<string>
  readonly idempotent: boolean
  readonly inputSchema: JsonSchema
  readonly annotations: { readonly readOnlyHint: boolean; readonly destructiveHint: boolean; readonly idempotentHint: boolean }
}

const objectSchema = (schema: Option.Option<Schema.Schema<never, unknown>>): JsonSchema =>
  Option.match(schema, {
    onNone: () => ({ properties: {}, required: [] }),
    onSome: (s) => {
      const json = JSONSchema.make(s) as JsonSchema
      const ref = typeof json.$ref === "string" ? json.$ref.split("/").pop() : undefined
      const body = (ref && json.$defs?.[ref] ? json.$defs[ref] : json) as JsonSchema
      return { properties: body.properties ?? {}, required: body.required ?? [], $defs: json.$defs }
    }
  })

/**
 * One MCP tool per public REST operation, read off the contract: name `<group>_<endpoint>`, input schema
 * merged from the path, query and body Schemas. Nothing here is written by hand per operation.
 */
export const toolsOf = (api: HttpApi.HttpApi.Any): ReadonlyArray<Tool> => {
  const tools: Tool[] = []
  HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
    onGroup() {},
    onEndpoint({ endpoint, group, mergedAnnotations }) {
      if (Context.get(group.annotations, OpenApi.Exclude) || Context.get(mergedAnnotations, OpenApi.Exclude)) return
      const path = objectSchema(endpoint.pathSchema)
      const query = objectSchema(endpoint.urlParamsSchema)
      const body = objectSchema(endpoint.payloadSchema)
      const idempotent = endpoint.method === "POST"
      const properties: Record<string, unknown> = {}
      for (const part of [path, query, body]) {
        for (const [k, v] of Object.entries(part.properties ?? {})) {
          if (k in properties) throw new Error(`${group.identifier}.${endpoint.name}: input name ${k} used twice`)
          properties[k] = v
        }
      }
      if (idempotent) {
        properties.idempotency_key = { type: "string", minLength: 1, maxLength: 255, description: "Makes a retry safe: the same key and input replay the first result" }
      }
      const summary = Context.getOption(endpoint.annotations, OpenApi.Summary)
      tools.push({
        name: `${group.identifier}_${endpoint.name}`,
        operationId: `${group.identifier}.${endpoint.name}`,
        description: Option.getOrElse(summary, () => `${endpoint.method} ${endpoint.path}`),
        method: endpoint.method,
        path: endpoint.path,
        pathKeys: Object.keys(path.properties ?? {}),
        queryKeys: Object.keys(query.properties ?? {}),
        bodyKeys: Object.keys(body.properties ?? {}),
        idempotent,
        inputSchema: {
          type: "object",
          properties,
          required: [...(path.required ?? []), ...(query.required ?? []), ...(body.required ?? [])],
          additionalProperties: false,
          ...(path.$defs || query.$defs || body.$defs ? { $defs: { ...path.$defs, ...query.$defs, ...body.$defs } } : {})
        },
        annotations: {
          readOnlyHint: endpoint.method === "GET",
          destructiveHint: endpoint.method === "DELETE" || /cancel|delete|erase|revoke/.test(endpoint.name),
          idempotentHint: endpoint.method !== "POST" && endpoint.method !== "PATCH"
        }
      })
    }
  })
  return tools
}

/**
 * What the REST request could not say for itself: an argument a bodiless tool (GET, DELETE) does not take, which
 * would otherwise be sent as a body a GET cannot have, or a missing path id, which would address another route.
 * Tools with a body leave unknown fields to the REST decoder. Same codes as REST.
 */
export const argumentError = (tool: Tool, args: Record<string, unknown>): { code: string; message: string } | undefined => {
  const bodiless = tool.method === "GET" || tool.method === "HEAD" || (tool.method === "DELETE" && tool.bodyKeys.length === 0)
  const unknown = bodiless ? Object.keys(args).find((k) => !(k in (tool.inputSchema.properties ?? {}))) : undefined
  if (unknown !== undefined) return { code: "unknown_field", message: `${unknown}: unknown field` }
  const missing = tool.pathKeys.find((k) => args[k] === undefined || args[k] === null || args[k] === "")
  if (missing !== undefined) return { code: `invalid_${missing}`, message: `${missing}: is missing` }
  // A path or query value is one string in REST; an array or object is no value REST could have sent.
  const notText = tool.pathKeys.find((k) => typeof args[k] !== "string" && typeof args[k] !== "number")
  if (notText !== undefined) return { code: `invalid_${notText}`, message: `${notText}: expected a string` }
  const notScalar = tool.queryKeys.find((k) => args[k] !== undefined && args[k] !== null && typeof args[k] === "object")
  if (notScalar !== undefined) return { code: `invalid_${notScalar}`, message: `${notScalar}: expected a single value` }
  // A URL cannot carry a lone surrogate or NUL the way REST reads them: refused with the words REST uses for a body.
  for (const k of [...tool.pathKeys, ...tool.queryKeys]) {
    const problem = typeof args[k] === "string" ? badText(args[k] as string) : undefined
    if (problem !== undefined) return { code: `invalid_${k}`, message: `${k}: ${problem}` }
  }
  return undefined
}

/** Turns tool arguments back into the REST request the operation defines. */
export const requestOf = (tool: Tool, args: Record<string, unknown>) => {
  let path = tool.path
  for (const k of tool.pathKeys) path = path.replace(`:${k}`, encodeURIComponent(String(args[k] ?? "")))
  const query = new URLSearchParams()
  for (const k of tool.queryKeys) if (args[k] !== undefined && args[k] !== null) query.set(k, String(args[k]))
  const known = new Set([...tool.pathKeys, ...tool.queryKeys, "idempotency_key"])
  const body = Object.fromEntries(Object.entries(args).filter(([k]) => !known.has(k)))
  const qs = query.toString()
  return {
    method: tool.method,
    url: qs ? `${path}?${qs}` : path,
    body: tool.bodyKeys.length > 0 || Object.keys(body).length > 0 ? JSON.stringify(body) : undefined,
    idempotencyKey: typeof args.idempotency_key === "string" ? args.idempotency_key : undefined
  }
}
