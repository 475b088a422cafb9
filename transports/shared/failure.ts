import type { ServerResponse } from "node:http"
import { Cause, Effect, Runtime } from "effect"
import type { Refusal } from "./body.ts"
import { errorReply, type Reply, send } from "./reply.ts"
import { databaseUnreachable, RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from "./unavailable.ts"

/**
 * The one error mapping of the surfaces outside the contract (pages, photos, the event stream, OAuth, OCTO, payments
 * pages, the body reader's refusals): what they answer for a failure that is not the caller's. Each surface words it
 * in its own shape (`{"error":{code,message}}` here; OCTO's `{error, errorMessage}`; a page), with the same status
 * and headers: 503 with Retry-After when the database cannot be reached, else 500, logged either way.
 */
export type Failure =
  | { readonly kind: "unavailable"; readonly status: 503; readonly headers: Record<string, string> }
  | { readonly kind: "internal"; readonly status: 500; readonly headers: Record<string, string> }

export const UNAVAILABLE_HEADERS = { "retry-after": String(RETRY_AFTER_SECONDS) }

/** The cause of a rejected promise of Runtime.runPromise, or of anything thrown. */
export const causeOf = (e: unknown): Cause.Cause<unknown> =>
  Cause.isCause(e) ? e : Runtime.isFiberFailure(e) ? e[Runtime.FiberFailureCauseId] : Cause.die(e)

/** Classifies a failure and logs it (a warning for an outage, an error with its cause otherwise). */
export const classify = (runtime: Runtime.Runtime<never>, e: unknown): Failure => {
  const cause = causeOf(e)
  if (databaseUnreachable(cause)) {
    Runtime.runFork(runtime)(Effect.logWarning("database unreachable", Cause.pretty(cause).split("\n")[0]))
    return { kind: "unavailable", status: 503, headers: UNAVAILABLE_HEADERS }
  }
  Runtime.runFork(runtime)(Effect.logError("request failed", cause))
  return { kind: "internal", status: 500, headers: {} }
}

export const UNAVAILABLE = (headers: Record<string, string> = UNAVAILABLE_HEADERS) =>
  errorReply(503, "unavailable", UNAVAILABLE_MESSAGE, headers)
export const INTERNAL = () => errorReply(500, "internal_error", "something went wrong on our side")

/** A failure in the spec's error shape. */
export const failureReply = (f: Failure): Reply => (f.kind === "unavailable" ? UNAVAILABLE(f.headers) : INTERNAL())

/** A body refused by the reader, in the spec's error shape (413 and 415 end the connection). */
export const refusalReply = (r: Refusal): Reply => errorReply(r.status, r.code, r.message)

/** Answers a request that failed outside its surface's own handling (nothing when the answer was already started). */
export const makeFailed = (runtime: Runtime.Runtime<never>) => (res: ServerResponse, e: unknown) => {
  const reply = failureReply(classify(runtime, e))
  if (res.headersSent) return void res.end()
  send(res, reply)
}
