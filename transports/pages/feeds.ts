import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, Runtime } from "effect"
import { Feeds } from "../../engine/services/feeds/Feeds.ts"
import { send } from "./html.ts"

/** A calendar feed's public URL: /feeds/{token}.ics. */
export const FEED_PATH = /^\/feeds\/([^/]+)\.ics$/

const TEXT = "text/plain; charset=utf-8"

/**
 * GET (or HEAD) /feeds/{token}.ics: the feed as text/calendar, with no key (the token is the credential); a token that
 * opens no feed (unknown, revoked, its member gone or its offering deleted) is 404 in plain text.
 */
export const feedRoutes = (runtime: Runtime.Runtime<Feeds>) => async (req: IncomingMessage, res: ServerResponse) => {
  const method = req.method ?? "GET"
  if (method !== "GET" && method !== "HEAD") return send(res, 405, TEXT, "GET only", { allow: "GET, HEAD" })
  const m = FEED_PATH.exec((req.url ?? "/").split("?")[0])
  let token = ""
  try {
    token = decodeURIComponent(m?.[1] ?? "")
  } catch {
    /* not a token */
  }
  const text = await Runtime.runPromise(runtime)(Effect.flatMap(Feeds, (f) => f.ics(token)))
  if (text === undefined) return send(res, 404, TEXT, "not found")
  send(res, 200, "text/calendar; charset=utf-8", method === "HEAD" ? "" : text, {
    "content-disposition": `inline; filename="calendar.ics"`,
    "referrer-policy": "no-referrer"
  })
}
