import type * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Context from "effect/Context"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { type DomainErrorClass, domainErrors } from "../../engine/errors/index.ts"
import { domainStatus } from "../shared/status.ts"
import { RAISED } from "./raised.ts"

/** The spec's error shape. Every expected failure is sent as this, with the status of its class. */
export const ErrorBody = Schema.Struct({
  error: Schema.Struct({
    code: Schema.String,
    message: Schema.String,
    param: Schema.optional(
      Schema.String.annotations({
        description:
          "On a 400 about one field: its path in the request, as in duration_minutes, hours[1].start_time or customer.email"
      })
    )
  })
}).annotations({ identifier: "Error" })

import { BadRequest, expectedError, Unauthorized } from "../shared/errors.ts"

export { BadRequest, expectedError, Unauthorized }

/** A domain error class as the wire carries it: the error shape with its code, under its status. */
export const wireOf = <C extends DomainErrorClass>(cls: C) => {
  const Type = Schema.typeSchema(cls as unknown as Schema.Schema<InstanceType<C>, unknown, never>)
  return Schema.transformOrFail(ErrorBody, Type, {
    strict: true,
    decode: (body, _, ast) =>
      body.error.code === cls.code
        ? ParseResult.succeed(
            new (cls as unknown as new (a: { message: string }) => InstanceType<C>)({ message: body.error.message })
          )
        : ParseResult.fail(new ParseResult.Type(ast, body, `not ${cls.code}`)),
    encode: (e) => ParseResult.succeed({ error: { code: cls.code, message: e.message } })
  }).annotations(HttpApiSchema.annotations({ status: domainStatus[cls._tag] }))
}

/** The domain error classes an endpoint declares (read by transports/http/openapi.ts for its documented codes). */
export class Raises extends Context.Tag("booking-engine/Raises")<Raises, ReadonlyArray<DomainErrorClass>>() {}

/** Adds the domain errors an endpoint can answer with: their wire shapes under their statuses, and their classes. */
const raises =
  <const Cs extends ReadonlyArray<DomainErrorClass>>(...classes: Cs) =>
  <E extends HttpApiEndpoint.HttpApiEndpoint.Any>(
    endpoint: E
  ): HttpApiEndpoint.HttpApiEndpoint.AddError<E, InstanceType<Cs[number]>, never> => {
    const e = endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
    const before = Option.getOrElse(Context.getOption(e.annotations, Raises), () => [])
    const added = classes.reduce((acc, cls) => acc.addError(wireOf(cls)), e)
    return added.annotate(Raises, [...before, ...classes]) as never
  }

type Raised<Op> = Op extends keyof typeof RAISED
  ? InstanceType<(typeof domainErrors)[(typeof RAISED)[Op][number]]>
  : never
type Endpoints<G extends string, E> = E extends HttpApiEndpoint.HttpApiEndpoint.Any
  ? HttpApiEndpoint.HttpApiEndpoint.AddError<E, Raised<`${G}.${HttpApiEndpoint.HttpApiEndpoint.Name<E>}`>, never>
  : never
type Groups<G> =
  G extends HttpApiGroup.HttpApiGroup<infer Id, infer E, infer Err, infer R, infer Top>
    ? HttpApiGroup.HttpApiGroup<Id, Endpoints<Id, E>, Err, R, Top>
    : never

/**
 * Every endpoint of the contract declares the domain errors its handler can fail with, as raised.ts lists them by
 * operation (derived from the handlers' types, and checked against them: operations.ts). A handler that can fail with
 * a class its endpoint does not declare does not compile; the OpenAPI document lists the classes' codes.
 */
export const declaringRaised = <Id extends string, G extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, G, E, R>
): HttpApi.HttpApi<Id, Groups<G>, E, R> => {
  const all = api as unknown as HttpApi.HttpApi.AnyWithProps
  const raised: Record<string, ReadonlyArray<keyof typeof domainErrors>> = RAISED
  return Object.values(all.groups).reduce(
    (out, group) =>
      out.add(
        Object.values(group.endpoints).reduce(
          (g, e) => g.add(raises(...(raised[`${group.identifier}.${e.name}`] ?? []).map((t) => domainErrors[t]))(e)),
          group
        )
      ),
    all
  ) as never
}

/** The 401 as the platform's security middleware declares it (transports/http/security.ts). */
export const UnauthorizedWire = Schema.transform(ErrorBody, Schema.typeSchema(Unauthorized), {
  strict: true,
  decode: (body) => new Unauthorized({ code: body.error.code, message: body.error.message }),
  encode: (e) => ({ error: { code: e.code, message: e.message } })
}).annotations(HttpApiSchema.annotations({ status: 401 }))

/** A 400 the transport answers before any handler (a field that does not decode, JSON that does not parse). */
export const BadRequestWire = Schema.transform(ErrorBody, Schema.typeSchema(BadRequest), {
  strict: true,
  decode: (body) => new BadRequest(body.error),
  encode: (e) => ({
    error:
      e.param === undefined
        ? { code: e.code, message: e.message }
        : { code: e.code, message: e.message, param: e.param }
  })
}).annotations(HttpApiSchema.annotations({ status: 400 }))
