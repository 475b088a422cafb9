import type { IncomingMessage } from "node:http"
import type { Reply } from "../shared/reply.ts"

/** The public booking surface, which web pages call from their own origin (CORS). */
export const PUBLIC_PATH = /^\/api\/v1\/public\//

/**
 * A browser's preflight carries no key, so it cannot know the org: it is answered for any origin, and the request that
 * follows is refused (403) unless its Origin is among the org's allowed_origins.
 */
export const preflight = (req: IncomingMessage): Reply => ({
  status: 204,
  headers: {
    "access-control-allow-origin": String(req.headers.origin ?? "*"),
    "access-control-allow-methods": "GET, POST",
    "access-control-allow-headers": "authorization, content-type, idempotency-key",
    "access-control-max-age": "600",
    vary: "Origin"
  },
  body: ""
})

/** An answer on the public surface readable by the page that asked (the handler refused other origins with 403). */
export const corsFor = (req: IncomingMessage, status: number) =>
  typeof req.headers.origin === "string" && status !== 403 && PUBLIC_PATH.test(req.url ?? "")
    ? {
        "access-control-allow-origin": req.headers.origin,
        "access-control-expose-headers": "ratelimit, ratelimit-policy, retry-after",
        vary: "Origin"
      }
    : undefined
