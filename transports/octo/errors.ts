import { Schema } from "effect"
import { expectedError } from "../shared/errors.ts"
import { OctoErrorCode } from "./schema.ts"

/** A refusal in OCTO's terms: its code, message, HTTP status and the id it names (productId, uuid, …). */
export class OctoFailure extends Schema.TaggedError<OctoFailure>()("OctoFailure", {
  status: Schema.Int,
  error: OctoErrorCode,
  errorMessage: Schema.String,
  field: Schema.optional(
    Schema.Struct({
      name: Schema.Literal("productId", "optionId", "unitId", "availabilityId", "uuid"),
      value: Schema.String
    })
  )
}) {}

const fail = (status: number, error: OctoErrorCode, errorMessage: string, field?: OctoFailure["field"]) =>
  new OctoFailure({ status, error, errorMessage, ...(field ? { field } : {}) })
const shown = (id: string) => id.slice(0, 100)

export const badRequest = (message: string) => fail(400, "BAD_REQUEST", message)
/** A body the reader refused: 413 past the limit, 415 a type not taken, 400 not text; BAD_REQUEST in OCTO's words. */
export const refused = (status: 400 | 413 | 415, message: string) => fail(status, "BAD_REQUEST", message)
export const unprocessable = (message: string) => fail(400, "UNPROCESSABLE_ENTITY", message)
export const invalidProduct = (id: string) =>
  fail(400, "INVALID_PRODUCT_ID", `no product ${shown(id)} here`, { name: "productId", value: id })
export const invalidOption = (id: string) =>
  fail(400, "INVALID_OPTION_ID", `no option ${shown(id)} on this product: its one option is DEFAULT`, {
    name: "optionId",
    value: id
  })
export const invalidUnit = (id: string) =>
  fail(400, "INVALID_UNIT_ID", `no unit ${shown(id)} on this option: its one unit is adult`, {
    name: "unitId",
    value: id
  })
export const invalidAvailability = (id: string) =>
  fail(400, "INVALID_AVAILABILITY_ID", `no availability ${shown(id)} for this product`, {
    name: "availabilityId",
    value: id
  })
export const invalidBooking = (uuid: string) =>
  fail(400, "INVALID_BOOKING_UUID", `no booking ${shown(uuid)} here`, { name: "uuid", value: uuid })
export const unauthorized = (message: string) => fail(401, "UNAUTHORIZED", message)
export const forbiddenKey = (message: string) => fail(403, "FORBIDDEN", message)

/** The wire body of a failure: `{error, errorMessage}` and the id it names, as OCTO's error schemas have it. */
export const errorBody = (f: OctoFailure) => ({
  error: f.error,
  errorMessage: f.errorMessage,
  ...(f.field ? { [f.field.name]: f.field.value } : {})
})

/** A refusal of the engine, in OCTO's words: the engine's codes stay in the message. */
export const fromEngine =
  (onNotFound: () => OctoFailure) =>
  (e: { readonly _tag: string; readonly code?: string; readonly message: string }) => {
    if (e._tag === "OctoFailure") return e as OctoFailure
    switch (expectedError(e)?.status) {
      case 404:
        return onNotFound()
      case 400:
        return badRequest(`${e.code}: ${e.message}`)
      case 403:
        return forbiddenKey(e.message)
      default:
        return unprocessable(e.code === "sold_out" ? `sold out: ${e.message}` : `${e.code ?? "refused"}: ${e.message}`)
    }
  }
