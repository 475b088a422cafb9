import type { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { clipQuoted, codeFor, type Documented, printable } from "../shared/json.ts"
import { BadRequest } from "./errors.ts"

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
      message: `${field}: unknown field`,
      param: field
    })
  // A guest's phone inside another field (customer.phone) has its own code where the operation documents it.
  const nestedPhone = issue.path.length > 1 && issue.path[issue.path.length - 1] === "phone"
  return new BadRequest({
    code: codeFor(
      documented,
      nestedPhone ? "phone" : String(issue.path[0]),
      nestedPhone ? [`invalid_${String(issue.path[0])}`, generic] : [generic]
    ),
    message: clipQuoted(`${field}: ${messageAt(e.issues, issue)}`),
    param: field
  })
}

const EXPECTED = /^Expected (.+), actual (.+)$/s

/**
 * The message of a field's failure. A union (an enum of literals, a literal or a number) fails once per member, each
 * issue naming one: they are joined, so that the message names every allowed value ("Expected one of "none", "daily"
 * or "weekly", actual "x""); an optional field's `undefined` is left out (leaving the field out is said by its docs).
 */
export const messageAt = (
  issues: ReadonlyArray<HttpApiDecodeError["issues"][number]>,
  first: HttpApiDecodeError["issues"][number]
) => {
  const same = issues.filter(
    (i) => i._tag === "Type" && i.path.length === first.path.length && i.path.every((p, n) => p === first.path[n])
  )
  const parsed = same.map((i) => EXPECTED.exec(i.message))
  if (same.length < 2 || parsed.some((m) => m === null)) return first.message
  const allowed = [...new Set(parsed.map((m) => m![1]).filter((x) => x !== "undefined"))]
  if (allowed.length < 2) return first.message
  return `Expected one of ${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)}, actual ${parsed[0]![2]}`
}
