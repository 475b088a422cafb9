import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { BadRequest } from "../../engine/schema/errors.ts"
import { clip, clipQuoted } from "./json.ts"

const fieldOf = (path: ReadonlyArray<PropertyKey>) =>
  path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("").replace(/^\./, "")

/** A decode failure becomes 400 with a code naming the first field at fault: invalid_<field> or unknown_field. */
export const toBadRequest = (e: HttpApiDecodeError): BadRequest => {
  const issue = e.issues[0]
  if (issue === undefined || issue.path.length === 0) {
    return new BadRequest({ code: "invalid_body", message: clipQuoted(issue?.message ?? e.message) })
  }
  const field = fieldOf(issue.path)
  if (issue._tag === "Unexpected") return new BadRequest({ code: "unknown_field", message: `${clip(field)}: unknown field` })
  return new BadRequest({ code: `invalid_${String(issue.path[0])}`, message: clipQuoted(`${field}: ${issue.message}`) })
}

