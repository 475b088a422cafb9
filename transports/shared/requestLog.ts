import { randomUUID } from "node:crypto"
import type { IncomingMessage } from "node:http"

/**
 * What the log line of a request says beyond its method and status: the route that served it (an operation's path
 * template such as /api/v1/bookings/{id}, or the surface's name: never the path itself, which may carry a guest's
 * handle or a token), the org it acted for, and its Request-Id. Surfaces note what they learn as they serve it.
 */
export interface RequestFacts {
  readonly id: string
  route?: string
  operation?: string
  org?: string
}

const facts = new WeakMap<IncomingMessage, RequestFacts>()

/** A Request-Id a balancer or client sent (letters, digits, `.` `_` `:` `-`, at most 128), kept; else a new one. */
const GIVEN = /^[\w.:-]{1,128}$/

/** The request's facts, made on first sight with its Request-Id. */
export const factsOf = (req: IncomingMessage): RequestFacts => {
  let f = facts.get(req)
  if (f === undefined) {
    const given = req.headers["request-id"] ?? req.headers["x-request-id"]
    f = { id: typeof given === "string" && GIVEN.test(given) ? given : `req_${randomUUID().replaceAll("-", "")}` }
    facts.set(req, f)
  }
  return f
}

/** Notes what a surface learnt about the request (the first route noted is replaced by a finer one). */
export const note = (req: IncomingMessage, learnt: Partial<Omit<RequestFacts, "id">>) => {
  const f = factsOf(req)
  if (learnt.route !== undefined) f.route = learnt.route
  if (learnt.operation !== undefined) f.operation = learnt.operation
  if (learnt.org !== undefined) f.org = learnt.org
}
