import { Schema } from "effect"

// Expected failures. Each carries the wire `code`; the transport maps the class to its HTTP status.
const fields = { code: Schema.String, message: Schema.String }

export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", fields) {}
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", fields) {}
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", fields) {}
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", fields) {}
export class Unprocessable extends Schema.TaggedError<Unprocessable>()("Unprocessable", fields) {}
/** The one place a 403 is right: a staff member's key asking for what only an owner may do. */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", fields) {}
export class TooMany extends Schema.TaggedError<TooMany>()("TooMany", fields) {}

export const notFound = (what: string) => new NotFound({ code: "not_found", message: `${what} not found` })
export const badRequest = (code: string, message: string) => new BadRequest({ code, message })
export const forbidden = (message: string) => new Forbidden({ code: "forbidden", message })
export const conflict = (code: string, message: string) => new Conflict({ code, message })
/** A plan limit reached (the monthly booking quota): 402, upgrade or wait for next month. */
export class PaymentRequired extends Schema.TaggedError<PaymentRequired>()("PaymentRequired", fields) {}
