import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import {
  BadRequest,
  Conflict,
  Forbidden,
  NotFound,
  PaymentRequired,
  TooMany,
  Unauthorized,
  Unprocessable
} from "../../engine/schema/errors.ts"

/** The spec's error shape. Every expected failure is sent as this, with the status of its class. */
export const ErrorBody = Schema.Struct({
  error: Schema.Struct({ code: Schema.String, message: Schema.String })
}).annotations({ identifier: "Error" })

const wire = <A extends { code: string; message: string }, I>(
  cls: Schema.Schema<A, I, never> & { new (args: { code: string; message: string }): A },
  status: number
) =>
  Schema.transform(ErrorBody, Schema.typeSchema(cls), {
    strict: true,
    decode: (body) => new cls(body.error),
    encode: (e) => ({ error: { code: e.code, message: e.message } })
  }).annotations(HttpApiSchema.annotations({ status }))

export const BadRequestWire = wire(BadRequest, 400)
export const UnauthorizedWire = wire(Unauthorized, 401)
export const ForbiddenWire = wire(Forbidden, 403)
export const NotFoundWire = wire(NotFound, 404)
export const ConflictWire = wire(Conflict, 409)
export const UnprocessableWire = wire(Unprocessable, 422)
export const TooManyWire = wire(TooMany, 429)
export const PaymentRequiredWire = wire(PaymentRequired, 402)

/** The HTTP status of each expected failure, by its tag (the same as the wire Schemas above carry). */
export const statusOf: Readonly<Record<string, number>> = {
  BadRequest: 400,
  Unauthorized: 401,
  PaymentRequired: 402,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  Unprocessable: 422,
  TooMany: 429
}
