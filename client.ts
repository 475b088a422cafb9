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
 */
import {
  FetchHttpClient,
  type HttpApi,
  HttpApiClient,
  HttpClient,
  HttpClientRequest,
  type HttpClientResponse
} from "@effect/platform"
import { Cause, Effect, Exit, Layer } from "effect"
import { Api } from "./transports/http/Api.ts"

export * from "./engine/errors/index.ts"
export { BadRequest, Unauthorized } from "./transports/http/errors.ts"

export interface ClientOptions {
  /** The server's origin, e.g. https://book.example.com (no /api/v1). */
  readonly baseUrl: string
  /** A secret key (sk_…) for the whole API, or a publishable one (pk_live_…) for the `public` operations only. */
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

/** The typed client of the contract: `client.<group>.<endpoint>(request)`, one Effect per operation. */
export type Client = HttpApiClient.Client<Groups, ApiError, never>

/** The client as an Effect: each operation is an Effect that fails with the contract's typed errors. */
export const makeClient = (options: ClientOptions): Effect.Effect<Client> =>
  HttpApiClient.make(Api, {
    baseUrl: options.baseUrl,
    transformClient: (client) => client.pipe(HttpClient.mapRequest(HttpClientRequest.bearerToken(options.apiKey)))
  }).pipe(Effect.provide(layerOf(options)))

type Plain<A> = A extends readonly [infer _V, HttpClientResponse.HttpClientResponse] ? never : A
type NoResponse<Req> = Req extends { readonly withResponse?: infer _W } ? Omit<Req, "withResponse"> : Req
type Promised<F> = F extends (request: infer Req) => Effect.Effect<infer A, infer _E, infer _R>
  ? (request: NoResponse<Req>) => Promise<Plain<A>>
  : never

/** The client with Promises: each operation resolves with its decoded answer, or rejects with its typed error. */
export type PromiseClient = {
  readonly [G in keyof Client]: { readonly [O in keyof Client[G]]: Promised<Client[G][O]> }
}

/**
 * The same client for code without Effect. A failure rejects with the error itself (an instance of NotFound,
 * BadRequest, …, or the HTTP client's error when the server cannot be reached), not a wrapper.
 */
export const createClient = (options: ClientOptions): PromiseClient => {
  const client = Effect.runSync(makeClient(options)) as unknown as Record<
    string,
    Record<string, (r: unknown) => Effect.Effect<unknown, unknown>>
  >
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
