import type { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import type { Effect, Types } from "effect"

type Endpoint = HttpApiEndpoint.HttpApiEndpoint.Any
type Name<E> = HttpApiEndpoint.HttpApiEndpoint.Name<E>

/** What a handler gets from the dispatcher: the endpoint's decoded path, query, body and headers. */
export type RequestOf<E extends Endpoint> = Types.Simplify<Omit<HttpApiEndpoint.HttpApiEndpoint.Request<E>, "request">>

/**
 * A handler of one endpoint: its decoded input to an Effect of its success. What it fails with is left to inference:
 * operations.ts checks it equals what the contract declares (raised.ts), in both directions.
 */
type HandlerOf<E extends Endpoint> = (
  request: RequestOf<E>
) => Effect.Effect<HttpApiEndpoint.HttpApiEndpoint.Success<E>, unknown, unknown>

declare const Pending: unique symbol
declare const Done: unique symbol

/** A group's handlers being written: the endpoints still to handle, and each handled one's handler, by name. */
export interface Handlers<Endpoints extends Endpoint, Handled> {
  readonly [Pending]: Endpoints
  readonly [Done]: Handled
  handle<const N extends Name<Endpoints>, F extends HandlerOf<HttpApiEndpoint.HttpApiEndpoint.WithName<Endpoints, N>>>(
    name: N,
    handler: F
  ): Handlers<HttpApiEndpoint.HttpApiEndpoint.ExcludeName<Endpoints, N>, Handled & { readonly [K in N]: F }>
}

type Complete<Return> = Return extends
  | Handlers<infer Pending, infer _>
  | Effect.Effect<Handlers<infer Pending, infer _>, never, infer _R>
  ? [Pending] extends [never]
    ? Return
    : `Endpoint not handled: ${Name<Pending>}`
  : "Must return the group's handlers"

type HandledOf<Return> = Return extends
  | Handlers<never, infer H>
  | Effect.Effect<Handlers<never, infer H>, never, infer _R>
  ? H
  : never

/** One group's operations: its name, and how its handlers are built (with the services they call). */
export interface Group<G extends string, Handled> {
  readonly name: G
  readonly build: (handlers: never) => unknown
  readonly [Done]?: Handled
}

/**
 * A group's handlers, typed against the contract: every endpoint handled, each with the input its Schemas decode to
 * and the success they encode. A value: operations.ts lists every group's in one table.
 */
export const defineGroup = <
  ApiId extends string,
  Groups extends HttpApiGroup.HttpApiGroup.Any,
  ApiError,
  ApiR,
  const G extends HttpApiGroup.HttpApiGroup.Name<Groups>,
  Return
>(
  _api: HttpApi.HttpApi<ApiId, Groups, ApiError, ApiR>,
  name: G,
  build: (handlers: Handlers<HttpApiGroup.HttpApiGroup.EndpointsWithName<Groups, G>, unknown>) => Complete<Return>
): Group<G, HandledOf<Return>> => ({ name, build: build as (handlers: never) => unknown })
