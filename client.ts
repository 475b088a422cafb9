/**
 * A typed client of the REST API, derived from the one contract (transports/http/Api.ts) by @effect/platform's
 * HttpApiClient: every operation `group.endpoint` is `client.group.endpoint({ path, urlParams, payload, headers })`,
 * its input and answer are the contract's Schemas (encoded and decoded on the way), and an expected failure is the
 * engine's own error class (NotFound, BadRequest, Conflict, …, each with `code` and `message`).
 *
 *   // Effect
 *   const client = yield* makeClient({ baseUrl: "https://book.example.com", apiKey: process.env.API_KEY! })
 *   const offering = yield* client.offerings.create({ payload: { name: "Yoga", kind: "class" }, headers: {} })
 *
 *   // Promises
 *   const api = createClient({ baseUrl, apiKey })
 *   const page = await api.bookings.list({ urlParams: {} })   // rejects with NotFound, BadRequest, … as thrown values
 *
 * `baseUrl` is the server's origin (PUBLIC_URL): the operations' paths start with /api/v1 already.
 *
 * This file and the ones its types reach (the contract, the error classes) import effect's and @effect/platform's
 * modules one by one, never their index: a consumer's tsc then loads those modules' declarations only, not the whole
 * of both packages (bench/README.md, "A consumer's type-check").
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiClient from "@effect/platform/HttpApiClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import { Api } from "./transports/http/Api.ts"

export * from "./engine/errors/index.ts"
export { BadRequest, Unauthorized } from "./transports/http/errors.ts"

export interface ClientOptions {
  /** The server's origin, e.g. https://book.example.com (no /api/v1). */
  readonly baseUrl: string
  /** A secret key (bk_live_…) for the whole API, or a publishable one (pk_live_…) for the `public` operations only. */
  readonly apiKey: string
  /** The fetch to use (the global one unless told). */
  readonly fetch?: typeof globalThis.fetch | undefined
}

const layerOf = (options: ClientOptions) =>
  options.fetch === undefined
    ? FetchHttpClient.layer
    : FetchHttpClient.layer.pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, options.fetch)))

type Groups = typeof Api extends HttpApi.HttpApi<infer _Id, infer G, infer _E, infer _R> ? G : never
type ApiError = typeof Api extends HttpApi.HttpApi<infer _Id, infer _G, infer E, infer _R> ? E : never

type Raw = HttpApiClient.Client<Groups, ApiError, never>

/** A field that takes a Date also takes the ISO 8601 string the API answers with (a slot's starts_at, …). */
type Loose<T> = { [K in keyof T]: Date extends T[K] ? T[K] | string : T[K] }
/** A request: Date fields of payload and urlParams loosened, headers optional (each header is). */
type Loosen<Req> = {
  [K in keyof Req as K extends "headers" ? never : K]: K extends "payload" | "urlParams" ? Loose<Req[K]> : Req[K]
} & (Req extends { readonly headers: infer H } ? { readonly headers?: H } : unknown)
type Plain<A> = A extends readonly [infer _V, HttpClientResponse.HttpClientResponse] ? never : A
type NoResponse<Req> = Req extends { readonly withResponse?: infer _W } ? Omit<Req, "withResponse"> : Req
type Operation<F> = F extends (request: infer Req) => Effect.Effect<infer A, infer E, infer R>
  ? (request: Loosen<NoResponse<Req>>) => Effect.Effect<Plain<A>, E, R>
  : never
type Promised<F> = F extends (request: infer Req) => Effect.Effect<infer A, infer _E, infer _R>
  ? (request: Loosen<NoResponse<Req>>) => Promise<Plain<A>>
  : never

/** The typed client of the contract: `client.<group>.<endpoint>(request)`, one Effect per operation. */
export type Client = { readonly [G in keyof Raw]: { readonly [O in keyof Raw[G]]: Operation<Raw[G][O]> } }

/** The client with Promises: each operation resolves with its decoded answer, or rejects with its typed error. */
export type PromiseClient = {
  readonly [G in keyof Raw]: { readonly [O in keyof Raw[G]]: Promised<Raw[G][O]> }
}

/** Whether a field's decoded type is a Date (an Instant, optional or nullable). */
const takesDate = (ast: SchemaAST.AST): boolean =>
  SchemaAST.isUnion(ast)
    ? ast.types.some(takesDate)
    : SchemaAST.isRefinement(ast)
      ? takesDate(ast.from)
      : SchemaAST.getSchemaIdAnnotation(ast).pipe(Option.exists((id) => id === Schema.DateFromSelfSchemaId))

/** The top-level fields of a request part that take a Date. */
const dateFields = (schema: Option.Option<Schema.Schema.Any>) =>
  Option.match(schema, {
    onNone: () => [],
    onSome: (s) => {
      const ast = SchemaAST.typeAST(s.ast)
      return SchemaAST.isTypeLiteral(ast)
        ? ast.propertySignatures.filter((p) => takesDate(p.type)).map((p) => p.name as string)
        : []
    }
  })

/** ISO strings of Date fields made Dates, and headers defaulted, as the contract's client wants them. */
const tighten = (fields: { payload: Array<string>; urlParams: Array<string> }) => (request: unknown) => {
  if (request === undefined || request === null) return request
  const r: Record<string, unknown> = { headers: {}, ...(request as Record<string, unknown>) }
  for (const part of ["payload", "urlParams"] as const) {
    const value = r[part] as Record<string, unknown> | undefined
    if (value === undefined || fields[part].length === 0) continue
    const copy = { ...value }
    for (const f of fields[part]) if (typeof copy[f] === "string") copy[f] = new Date(copy[f] as string)
    r[part] = copy
  }
  return r
}

type EndpointSchemas = {
  readonly payloadSchema: Option.Option<Schema.Schema.Any>
  readonly urlParamsSchema: Option.Option<Schema.Schema.Any>
}
type Ops = Record<string, Record<string, (r: unknown) => Effect.Effect<unknown, unknown>>>

/** The client as an Effect: each operation is an Effect that fails with the contract's typed errors. */
export const makeClient = (options: ClientOptions): Effect.Effect<Client> =>
  HttpApiClient.make(Api, {
    baseUrl: options.baseUrl,
    transformClient: (client) => client.pipe(HttpClient.mapRequest(HttpClientRequest.bearerToken(options.apiKey)))
  }).pipe(
    Effect.provide(layerOf(options)),
    Effect.map((raw) => {
      const out: Ops = {}
      for (const [group, ops] of Object.entries(raw as unknown as Ops)) {
        out[group] = {}
        const endpoints = (Api.groups as unknown as Record<string, { endpoints: Record<string, EndpointSchemas> }>)[
          group
        ].endpoints
        for (const [name, op] of Object.entries(ops)) {
          const e = endpoints[name]
          const fix = tighten({ payload: dateFields(e.payloadSchema), urlParams: dateFields(e.urlParamsSchema) })
          out[group][name] = (request) => op(fix(request))
        }
      }
      return out as unknown as Client
    })
  )

/**
 * The same client for code without Effect. A failure rejects with the error itself (an instance of NotFound,
 * BadRequest, …, or the HTTP client's error when the server cannot be reached), not a wrapper.
 */
export const createClient = (options: ClientOptions): PromiseClient => {
  const client = Effect.runSync(makeClient(options)) as unknown as Ops
  const out: Record<string, Record<string, (r: unknown) => Promise<unknown>>> = {}
  for (const [group, ops] of Object.entries(client)) {
    out[group] = {}
    for (const [name, op] of Object.entries(ops)) {
      out[group][name] = (request) =>
        Effect.runPromiseExit(
          op(request === undefined ? undefined : { ...(request as object), withResponse: false })
        ).then((exit) => {
          if (Exit.isSuccess(exit)) return exit.value
          throw Cause.squash(exit.cause)
        })
    }
  }
  return out as unknown as PromiseClient
}
