import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { RequestError } from "@effect/platform/HttpServerError"
import { Cause, Effect, Option } from "effect"
import { BadRequest } from "../../engine/schema/errors.ts"
import { Api } from "./Api.ts"
import { refuseNul } from "./nul.ts"

const fieldOf = (path: ReadonlyArray<PropertyKey>) =>
  path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("").replace(/^\./, "")

/** A decode failure becomes 400 with a code naming the first field at fault: invalid_<field> or unknown_field. */
export const toBadRequest = (e: HttpApiDecodeError): BadRequest => {
  const issue = e.issues[0]
  if (issue === undefined || issue.path.length === 0) {
    return new BadRequest({ code: "invalid_body", message: issue?.message ?? e.message })
  }
  const field = fieldOf(issue.path)
  if (issue._tag === "Unexpected") return new BadRequest({ code: "unknown_field", message: `${field}: unknown field` })
  return new BadRequest({ code: `invalid_${String(issue.path[0])}`, message: `${field}: ${issue.message}` })
}

/**
 * Bad input never reaches a handler and never becomes a 500: decode and JSON errors are 400s in the spec's shape.
 * Any other defect is logged and answered as 500 internal_error in the same shape, with no details.
 */
export const DecodeErrorsLive = HttpApiBuilder.middleware(Api, (app) =>
  Effect.catchAllCause(Effect.flatMap(refuseNul, Option.match({ onNone: () => app, onSome: Effect.fail })), (cause) => {
    // The platform reads JSON bodies with orDie, so a malformed body arrives as a defect.
    const e: unknown = Option.getOrElse(Cause.failureOption(cause), () => Option.getOrUndefined(Cause.dieOption(cause)))
    if (e instanceof HttpApiDecodeError) return Effect.fail(toBadRequest(e))
    if (e instanceof RequestError && e.reason === "Decode") {
      return Effect.fail(new BadRequest({ code: "invalid_json", message: "the body is not valid JSON" }))
    }
    if (Cause.isDie(cause)) {
      return Effect.logError("unexpected failure", cause).pipe(
        Effect.as(HttpServerResponse.unsafeJson({ error: { code: "internal_error", message: "something went wrong on our side" } }, { status: 500 }))
      )
    }
    return Effect.failCause(cause)
  }))
