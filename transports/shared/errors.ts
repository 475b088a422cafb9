import * as Schema from "effect/Schema"
import { paramOf } from "./errorParam.ts"
import { domainStatus } from "./status.ts"

/** A request the transport refuses before any handler runs: its code names what did not decode (invalid_<field>). */
export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", {
  code: Schema.String,
  message: Schema.String,
  /** The field's path when the refusal is about one (hours[1].start_time). */
  param: Schema.optional(Schema.String)
}) {}
/** No credential, or one that does not reach this surface. */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  code: Schema.String,
  message: Schema.String
}) {}

const transportStatus: Readonly<Record<string, number>> = { BadRequest: 400, Unauthorized: 401 }

/**
 * The status, code and message of an expected failure (a domain error or the transport's own), else undefined; a 400
 * about one field names it in param (transports/shared/errorParam.ts).
 */
export const expectedError = (
  e: unknown
): { status: number; code: string; message: string; param?: string } | undefined => {
  if (typeof e !== "object" || e === null || !("_tag" in e) || typeof e._tag !== "string") return undefined
  const status = Object.hasOwn(domainStatus, e._tag)
    ? domainStatus[e._tag as keyof typeof domainStatus]
    : transportStatus[e._tag]
  if (status === undefined) return undefined
  const { code, message, param } = e as unknown as { code: string; message: string; param?: string }
  // A failure without a code of its own (the guest pages' form refusals) names no field.
  const field =
    typeof code === "string" && typeof message === "string" ? paramOf(status, code, message, param) : undefined
  return field === undefined ? { status, code, message } : { status, code, message, param: field }
}
