import { errorReply } from "../shared/reply.ts"
import { DOCS_BUNDLE_PATH, DOCS_PATH } from "./docs.ts"
import { FAVICON_PATH } from "./favicon.ts"

const GET = "GET"
const GET_HEAD = "GET, HEAD"

/** Routes with a fixed path outside the contract, and the methods each takes. */
export const FIXED: ReadonlyMap<string, string> = new Map([
  ["/healthz", GET],
  ["/readyz", GET],
  ["/metrics", GET],
  ["/demo", GET],
  ["/widget.js", GET_HEAD],
  [FAVICON_PATH, GET_HEAD],
  [DOCS_PATH, GET_HEAD],
  [DOCS_BUNDLE_PATH, GET_HEAD],
  ["/api/v1/openapi.json", GET]
])

/** A fixed route asked with a method it does not take: 405 with Allow, as the contract's routes answer. */
export const wrongMethod = (path: string, method: string) => {
  const allow = FIXED.get(path)
  if (allow === undefined || allow.split(", ").includes(method)) return undefined
  return errorReply(405, "method_not_allowed", `${path} takes ${allow}`, { allow })
}
