import { HttpApi, HttpApiSchema, type HttpMethod, OpenApi } from "@effect/platform"
import { Context, JSONSchema, Option, Schema, SchemaAST } from "effect"
import { ExportPage } from "../../engine/schema/export.ts"
import { badText } from "../shared/json.ts"
import { compact, type JsonSchema, pruneDefs } from "./schemaShape.ts"

export { compact, type JsonSchema, pruneDefs } from "./schemaShape.ts"

export interface Tool {
  readonly name: string
  readonly operationId: string
  /** A human-readable name: the operation's summary. */
  readonly title: string
  readonly description: string
  readonly method: HttpMethod.HttpMethod
  readonly path: string
  readonly pathKeys: ReadonlyArray<string>
  readonly queryKeys: ReadonlyArray<string>
  readonly bodyKeys: ReadonlyArray<string>
  readonly idempotent: boolean
  readonly inputSchema: JsonSchema
  /** The success body's JSON Schema, an object at the root; `wrapped` when a non-object answer is given as {result}. */
  readonly outputSchema: JsonSchema
  readonly wrapped: boolean
  readonly annotations: {
    readonly title: string
    readonly readOnlyHint: boolean
    readonly destructiveHint: boolean
    readonly idempotentHint: boolean
  }
}

/** A JSON Schema of a Schema, its top-level `$ref` resolved into the root (the `$defs` stay, for the rest). */
const rootOf = (json: JsonSchema): JsonSchema => {
  const { $schema: _, $ref, $defs, ...rest } = json
  const ref = typeof $ref === "string" ? $ref.split("/").pop() : undefined
  const body = (
    ref !== undefined && $defs?.[ref] !== undefined ? { ...($defs[ref] as JsonSchema), ...rest } : json
  ) as JsonSchema
  const { $schema: __, ...out } = body
  return $defs === undefined ? out : { ...out, $defs: { ...$defs, ...(out.$defs ?? {}) } }
}

const objectSchema = (schema: Option.Option<Schema.Schema<never, unknown>>): JsonSchema =>
  Option.match(schema, {
    onNone: () => ({ properties: {}, required: [] }),
    onSome: (s) => {
      const body = rootOf(JSONSchema.make(s) as JsonSchema)
      return { properties: body.properties ?? {}, required: body.required ?? [], $defs: body.$defs }
    }
  })

/**
 * The success body as MCP's outputSchema, which must be an object at the root: an object answer as is (several 2xx
 * bodies as anyOf), anything else as {result: <the answer>}; an answer without a body is {}.
 */
const outputOf = (
  successes: ReadonlyMap<number, { readonly ast: Option.Option<SchemaAST.AST> }>
): { schema: JsonSchema; wrapped: boolean } => {
  const asts = [...successes.entries()]
    .filter(([status]) => status >= 200 && status < 300)
    .flatMap(([, s]) => Option.toArray(s.ast))
    // A CSV file (exports.*) is a page of it as a tool's answer: { csv, rows, next }.
    .map((ast) => (HttpApiSchema.getEncoding(ast).contentType === "text/csv" ? ExportPage.ast : ast))
    .filter((ast) => !HttpApiSchema.getEmptyDecodeable(ast) && !SchemaAST.isVoidKeyword(SchemaAST.encodedAST(ast)))
  if (asts.length === 0)
    return { schema: { type: "object", properties: {}, additionalProperties: false }, wrapped: false }
  const json = rootOf(
    JSONSchema.make(Schema.make(asts.length === 1 ? asts[0] : SchemaAST.Union.make(asts))) as JsonSchema
  )
  const members = Array.isArray(json.anyOf)
    ? (json.anyOf as JsonSchema[]).map((m) => (typeof m.$ref === "string" ? rootOf({ ...m, $defs: json.$defs }) : m))
    : [json]
  if (members.every((m) => m.type === "object"))
    return { schema: pruneDefs(json.type === "object" ? json : { type: "object", ...json }), wrapped: false }
  const { $defs, ...result } = json
  return {
    schema: pruneDefs({
      type: "object",
      properties: { result },
      required: ["result"],
      additionalProperties: false,
      ...($defs ? { $defs } : {})
    }),
    wrapped: true
  }
}

/**
 * One MCP tool per public REST operation, read off the contract: name `<group>_<endpoint>`, input schema
 * merged from the path, query and body Schemas. Nothing here is written by hand per operation.
 */
export const toolsOf = (api: HttpApi.HttpApi.Any): ReadonlyArray<Tool> => {
  const tools: Tool[] = []
  HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
    onGroup() {},
    onEndpoint({ endpoint, group, mergedAnnotations, payloads, successes }) {
      if (Context.get(group.annotations, OpenApi.Exclude) || Context.get(mergedAnnotations, OpenApi.Exclude)) return
      const path = objectSchema(endpoint.pathSchema)
      const query = objectSchema(endpoint.urlParamsSchema)
      // A body of several media types (offerings.set_photo: a JPEG, or JSON) is a tool's arguments in its JSON form.
      const json = payloads.size > 1 ? payloads.get("application/json") : undefined
      const body = objectSchema(json === undefined ? endpoint.payloadSchema : Option.some(Schema.make(json.ast)))
      const idempotent = endpoint.method === "POST"
      const properties: Record<string, unknown> = {}
      for (const part of [path, query, body]) {
        for (const [k, v] of Object.entries(part.properties ?? {})) {
          if (k in properties) throw new Error(`${group.identifier}.${endpoint.name}: input name ${k} used twice`)
          properties[k] = v
        }
      }
      if (idempotent) {
        properties.idempotency_key = {
          type: "string",
          minLength: 1,
          maxLength: 255,
          description: "Makes a retry safe: the same key and input replay the first result"
        }
      }
      // Described as in the OpenAPI document: the operation's description, else its summary.
      const description = Context.getOption(endpoint.annotations, OpenApi.Description).pipe(
        Option.orElse(() => Context.getOption(endpoint.annotations, OpenApi.Summary))
      )
      const output = outputOf(successes)
      const title = Option.getOrElse(
        Context.getOption(endpoint.annotations, OpenApi.Summary),
        () => `${group.identifier}.${endpoint.name}`
      )
      tools.push({
        name: `${group.identifier}_${endpoint.name}`,
        operationId: `${group.identifier}.${endpoint.name}`,
        title,
        description: Option.getOrElse(description, () => `${endpoint.method} ${endpoint.path}`),
        method: endpoint.method,
        path: endpoint.path,
        pathKeys: Object.keys(path.properties ?? {}),
        queryKeys: Object.keys(query.properties ?? {}),
        bodyKeys: Object.keys(body.properties ?? {}),
        idempotent,
        inputSchema: compact(
          {
            type: "object",
            properties,
            required: [...(path.required ?? []), ...(query.required ?? []), ...(body.required ?? [])],
            additionalProperties: false,
            ...(path.$defs || query.$defs || body.$defs
              ? { $defs: { ...path.$defs, ...query.$defs, ...body.$defs } }
              : {})
          },
          { descriptions: true }
        ),
        outputSchema: compact(output.schema, { descriptions: false }),
        wrapped: output.wrapped,
        annotations: {
          title,
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
export const argumentError = (
  tool: Tool,
  args: Record<string, unknown>
): { code: string; message: string } | undefined => {
  const bodiless =
    tool.method === "GET" || tool.method === "HEAD" || (tool.method === "DELETE" && tool.bodyKeys.length === 0)
  // Own keys only: `__proto__` is no property of the tool even though every object "has" it.
  const unknown = bodiless
    ? Object.keys(args).find((k) => !Object.hasOwn(tool.inputSchema.properties ?? {}, k))
    : undefined
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
