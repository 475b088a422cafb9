import { type HttpApiEndpoint, HttpApiSchema } from "@effect/platform"
import { Context, Option, ParseResult, Schema } from "effect"
import type { DomainErrorClass } from "../../engine/errors/index.ts"
import { domainStatus } from "../shared/status.ts"

/** The spec's error shape. Every expected failure is sent as this, with the status of its class. */
export const ErrorBody = Schema.Struct({
  error: Schema.Struct({ code: Schema.String, message: Schema.String })
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
        ? ParseResult.succeed(new (cls as unknown as new (a: { message: string }) => InstanceType<C>)(body.error))
        : ParseResult.fail(new ParseResult.Type(ast, body, `not ${cls.code}`)),
    encode: (e) => ParseResult.succeed({ error: { code: cls.code, message: e.message } })
  }).annotations(HttpApiSchema.annotations({ status: domainStatus[cls._tag] }))
}

/** The domain error classes an endpoint declares (read by transports/http/openapi.ts for its documented codes). */
export class Raises extends Context.Tag("booking-engine/Raises")<Raises, ReadonlyArray<DomainErrorClass>>() {}

/**
 * Declares the domain errors an operation's handler may fail with: HttpApiBuilder then refuses (at compile time) a
 * handler whose error type names a class the endpoint does not declare, and the OpenAPI document lists their codes.
 */
export const raises =
  <const Cs extends ReadonlyArray<DomainErrorClass>>(...classes: Cs) =>
  <E extends HttpApiEndpoint.HttpApiEndpoint.Any>(
    endpoint: E
  ): HttpApiEndpoint.HttpApiEndpoint.AddError<E, InstanceType<Cs[number]>, never> => {
    const e = endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
    const before = Option.getOrElse(Context.getOption(e.annotations, Raises), () => [])
    const added = classes.reduce((acc, cls) => acc.addError(wireOf(cls)), e)
    return added.annotate(Raises, [...before, ...classes]) as never
  }

/** The 401 as the platform's security middleware declares it (transports/http/security.ts). */
export const UnauthorizedWire = Schema.transform(ErrorBody, Schema.typeSchema(Unauthorized), {
  strict: true,
  decode: (body) => new Unauthorized(body.error),
  encode: (e) => ({ error: { code: e.code, message: e.message } })
}).annotations(HttpApiSchema.annotations({ status: 401 }))

/** A 400 the transport answers before any handler (a field that does not decode, JSON that does not parse). */
export const BadRequestWire = Schema.transform(ErrorBody, Schema.typeSchema(BadRequest), {
  strict: true,
  decode: (body) => new BadRequest(body.error),
  encode: (e) => ({ error: { code: e.code, message: e.message } })
}).annotations(HttpApiSchema.annotations({ status: 400 }))
