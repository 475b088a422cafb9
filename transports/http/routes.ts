import { HttpApi, type HttpApiEndpoint, type HttpApiMiddleware, HttpApiSchema } from "@effect/platform"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { type SchemaAST as AST, type Effect, type Either, Option, ParseResult, Schema } from "effect"
import type { Role } from "../../engine/services/CurrentOrg.ts"
import { requiredRole } from "./roles.ts"
import { AdminAuth, Authentication, PublicAuth } from "./security.ts"

/** What a handler gets, as HttpApiBuilder gives it: decoded path, query, body and headers. */
export interface HandlerInput {
  readonly path?: unknown
  readonly urlParams?: unknown
  readonly payload?: unknown
  readonly headers?: unknown
}

export type Handler = (input: HandlerInput) => Effect.Effect<unknown, unknown, unknown>

type Decode = (u: unknown) => Either.Either<unknown, ParseResult.ParseError>

export interface Route {
  readonly operationId: string
  readonly method: string
  /** The path split on "/", with ":name" for a parameter. */
  readonly segments: ReadonlyArray<string>
  /** The path as the docs write it: /api/v1/bookings/{id}. */
  readonly template: string
  readonly auth: "org" | "admin" | "public" | "none"
  /** The role an org operation needs (RequiredRole), checked for every credential. */
  readonly role: Role | undefined
  readonly hasPayload: boolean
  readonly status: number
  readonly decodePath: Decode | undefined
  readonly decodeQuery: ((query: URLSearchParams) => Either.Either<unknown, ParseResult.ParseError>) | undefined
  readonly decodePayload: Decode | undefined
  readonly decodeHeaders: Decode | undefined
  readonly encodeSuccess: Decode
  readonly handler: Handler
}

const decoder = (schema: Schema.Schema.Any): Decode =>
  Schema.decodeUnknownEither(schema as Schema.Schema<unknown, unknown, never>)

const authOf = (middleware: ReadonlySet<HttpApiMiddleware.TagClassAny>) =>
  middleware.has(Authentication as unknown as HttpApiMiddleware.TagClassAny)
    ? "org"
    : middleware.has(AdminAuth as unknown as HttpApiMiddleware.TagClassAny)
      ? "admin"
      : middleware.has(PublicAuth as unknown as HttpApiMiddleware.TagClassAny)
        ? "public"
        : "none"

/**
 * The route table, built once from the contract: each endpoint's path, its Schemas for path, query, body, headers
 * and success, its security, and the handler the group defined for it.
 */
export const routesOf = (api: HttpApi.HttpApi.Any, handlers: ReadonlyMap<string, Handler>): ReadonlyArray<Route> => {
  const routes: Array<Route> = []
  HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
    onGroup() {},
    onEndpoint({ endpoint: e, group, middleware, payloads }) {
      const endpoint = e as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
      const operationId = `${group.identifier}.${endpoint.name}`
      const handler = handlers.get(operationId)
      if (handler === undefined) throw new Error(`no handler for ${operationId}`)
      const query = Option.getOrUndefined(endpoint.urlParamsSchema)
      const decodeQuery = query && decoder(query)
      routes.push({
        operationId,
        method: endpoint.method,
        segments: endpoint.path.split("/"),
        template: endpoint.path.replace(/:(\w+)/g, "{$1}"),
        auth: authOf(middleware),
        role: requiredRole(endpoint, group as never, middleware),
        hasPayload: Option.isSome(endpoint.payloadSchema),
        status: HttpApiSchema.getStatusSuccessAST(endpoint.successSchema.ast),
        decodePath: Option.getOrUndefined(Option.map(endpoint.pathSchema, decoder)),
        decodeQuery: query && decodeQuery && ((params) => decodeQuery(normalizeUrlParams(recordOf(params), query.ast))),
        decodePayload:
          payloads.size > 1
            ? byMediaType(decoder(Option.getOrThrow(endpoint.payloadSchema)), payloads)
            : Option.getOrUndefined(Option.map(endpoint.payloadSchema, decoder)),
        decodeHeaders: Option.getOrUndefined(Option.map(endpoint.headersSchema, decoder)),
        encodeSuccess: Schema.encodeUnknownEither(endpoint.successSchema as Schema.Schema<unknown, unknown, never>),
        handler
      })
    }
  })
  return routes
}

/**
 * A body of several media types (offerings.set_photo: a JPEG, or JSON) is decoded by its own type's Schema: bytes
 * (a binary body, Incoming.bytes) by the binary one, anything else by the JSON one, so that a refusal names the field.
 */
const byMediaType = (
  whole: Decode,
  payloads: ReadonlyMap<string, { readonly encoding: HttpApiSchema.Encoding; readonly ast: AST.AST }>
): Decode => {
  const of = (kind: HttpApiSchema.Encoding["kind"]) => {
    const found = [...payloads.values()].find((p) => p.encoding.kind === kind)
    return found === undefined ? undefined : decoder(Schema.make(found.ast))
  }
  const bytes = of("Uint8Array")
  const json = of("Json")
  return (u) => ((u instanceof Uint8Array ? bytes : json) ?? whole)(u)
}

const recordOf = (params: URLSearchParams) => {
  const out: Record<string, string | Array<string>> = {}
  for (const [k, v] of params) {
    const seen = out[k]
    out[k] = seen === undefined ? v : Array.isArray(seen) ? [...seen, v] : [seen, v]
  }
  return out
}

/** A single query value where the Schema wants an array becomes an array (as HttpApiBuilder's normalizeUrlParams). */
const isSingleString = (ast: AST.AST, key?: string): boolean => {
  switch (ast._tag) {
    case "StringKeyword":
    case "Literal":
    case "TemplateLiteral":
    case "Enums":
      return true
    case "TypeLiteral": {
      if (key === undefined) return false
      const ps = ast.propertySignatures.find((p) => p.name === key)
      return ps !== undefined
        ? isSingleString(ps.type, key)
        : ast.indexSignatures.some((is) => Schema.is(Schema.make(is.parameter))(key) && isSingleString(is.type))
    }
    case "Union":
      return ast.types.some((t) => isSingleString(t, key))
    case "Suspend":
      return isSingleString(ast.f(), key)
    case "Refinement":
    case "Transformation":
      return isSingleString(ast.from, key)
  }
  return false
}

const normalizeUrlParams = (params: Record<string, string | Array<string>>, ast: AST.AST) => {
  const out: Record<string, string | Array<string>> = {}
  for (const key in params) {
    const value = params[key]
    out[key] = Array.isArray(value) || isSingleString(ast, key) ? value : [value]
  }
  return out
}

/** Collects the handlers a group's build function gives (handlers/define.ts), by operation id. */
export const collect = (group: string, into: Map<string, Handler>) => {
  const collector = {
    handle(name: string, handler: Handler) {
      into.set(`${group}.${name}`, handler)
      return collector
    }
  }
  return collector
}

export interface Match {
  readonly route: Route
  readonly params: Record<string, string>
}

/**
 * Finds the route for a method and path: a match, the methods the path has when none is for this method (405), or
 * nothing (404). Static segments win over parameters.
 */
export const matcher = (routes: ReadonlyArray<Route>) => {
  const bySize = new Map<number, Array<Route>>()
  for (const r of routes) bySize.set(r.segments.length, [...(bySize.get(r.segments.length) ?? []), r])
  for (const list of bySize.values()) {
    list.sort(
      (a, b) => a.segments.filter((s) => s.startsWith(":")).length - b.segments.filter((s) => s.startsWith(":")).length
    )
  }
  return (method: string, pathname: string): Match | { readonly allow: ReadonlyArray<string> } | undefined => {
    const parts = pathname.split("/")
    const candidates = bySize.get(parts.length)
    if (candidates === undefined) return undefined
    const allow: Array<string> = []
    for (const route of candidates) {
      const params = paramsOf(route.segments, parts)
      if (params === undefined) continue
      if (route.method === method) return { route, params }
      if (!allow.includes(route.method)) allow.push(route.method)
    }
    return allow.length > 0 ? { allow } : undefined
  }
}

const paramsOf = (segments: ReadonlyArray<string>, parts: ReadonlyArray<string>) => {
  let params: Record<string, string> | undefined
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]
    if (s.startsWith(":")) {
      if (parts[i] === "") return undefined
      let value: string
      try {
        value = decodeURIComponent(parts[i])
      } catch {
        value = parts[i]
      }
      params = { ...params, [s.slice(1)]: value }
    } else if (s !== parts[i]) return undefined
  }
  return params ?? {}
}

/** A decode failure as HttpApiBuilder reports it (ArrayFormatter issues), synchronously. */
export const decodeError = (error: ParseResult.ParseError) =>
  new HttpApiDecodeError({
    issues: ParseResult.ArrayFormatter.formatErrorSync(error) as HttpApiDecodeError["issues"],
    message: ParseResult.TreeFormatter.formatErrorSync(error)
  })
