import { Context } from "effect"

export type ErrorStatus = 400 | 402 | 403 | 404 | 409 | 422 | 429

/**
 * The codes an operation's own rules can answer, by status, as the engine raises them (engine/services). The codes
 * every operation of its shape can answer (a bad field, a missing key, an idempotency conflict, a rate limit) are
 * added from the contract by transports/http/openapi.ts; together they are the operation's documented errors.
 */
export class ErrorCodes extends Context.Tag("booking-engine/ErrorCodes")<
  ErrorCodes,
  Partial<Record<ErrorStatus, ReadonlyArray<string>>>
>() {}
