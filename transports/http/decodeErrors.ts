import type { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { BadRequest } from "../../engine/schema/errors.ts"
import { clipQuoted, codeFor, type Documented, printable } from "./json.ts"

const fieldOf = (path: ReadonlyArray<PropertyKey>) =>
  path
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${printable(String(p))}`))
    .join("")
    .replace(/^\./, "")

/**
 * A decode failure becomes 400 with a code naming the first field at fault: invalid_<field> or unknown_field, each
 * only as the operation documents it (else `generic`: invalid_body for a body, invalid_query for the URL). A name a
 * client made up is quoted in the message, printable and clipped, never made into a code.
 */
export const toBadRequest = (e: HttpApiDecodeError, documented?: Documented, generic = "invalid_body"): BadRequest => {
  const issue = e.issues[0]
  if (issue === undefined || issue.path.length === 0) {
    return new BadRequest({
      code: codeFor(documented, undefined, [generic]),
      message: clipQuoted(issue?.message ?? e.message)
    })
  }
  const field = fieldOf(issue.path)
  if (issue._tag === "Unexpected")
    return new BadRequest({
      code: codeFor(documented, undefined, ["unknown_field", generic]),
      message: `${field}: unknown field`
    })
  // A guest's phone inside another field (customer.phone) has its own code where the operation documents it.
  const nestedPhone = issue.path.length > 1 && issue.path[issue.path.length - 1] === "phone"
  return new BadRequest({
    code: codeFor(
      documented,
      nestedPhone ? "phone" : String(issue.path[0]),
      nestedPhone ? [`invalid_${String(issue.path[0])}`, generic] : [generic]
    ),
    message: clipQuoted(`${field}: ${issue.message}`)
  })
}
