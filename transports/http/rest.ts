import type { IncomingMessage, ServerResponse } from "node:http"
import { ASSISTANT_PATH } from "../mcp/assistant.ts"
import type { makeMcp } from "../mcp/http.ts"
import { JSON_TYPE, readText } from "../shared/body.ts"
import { refusalReply } from "../shared/failure.ts"
import { type Dispatch, NO_HEADERS, type Reply, send } from "../shared/reply.ts"
import { note } from "../shared/requestLog.ts"
import { corsFor } from "./cors.ts"
import { INBOUND_PATH } from "./inbound.ts"
import type { Metrics } from "./metrics.ts"

/** BODY_LIMIT unless set: the largest JSON body the JSON surfaces take. */
export const DEFAULT_BODY_LIMIT = 2 * 1024 * 1024

export interface JsonSurfaces {
  readonly bodyLimit: number
  readonly dispatch: Dispatch
  readonly mcp: ReturnType<typeof makeMcp>
  readonly assistant: (req: IncomingMessage, body: string | undefined, org: string) => Promise<Reply>
  readonly inbound: (signature: string | undefined, body: string | undefined) => Promise<Reply>
  readonly metrics: Metrics
  readonly failed: (res: ServerResponse, e: unknown) => void
}

/**
 * The surfaces that take JSON bodies (BODY_LIMIT, 2 MiB unless set): REST /api/v1 and /admin/v1 through the
 * dispatcher, MCP's POST and DELETE at /mcp, the assistant channel /api/mcp/{org}, inbound mail. The body is read by
 * the one reader (415 for another type, 413 past the limit with Connection: close, 400 for bytes not UTF-8).
 */
export const makeJsonSurfaces = (s: JsonSurfaces) => {
  const rule = { limit: s.bodyLimit, type: JSON_TYPE, expect: "the body as JSON with Content-Type: application/json" }
  return (req: IncomingMessage, res: ServerResponse, limited: Record<string, string>) => {
    readText(req, rule)
      .then((body) => {
        if (!body.ok) return send(res, refusalReply(body.refusal), true)
        const url = req.url ?? "/"
        const started = performance.now()
        const isMcp = url === "/mcp" || url.startsWith("/mcp?")
        const book = ASSISTANT_PATH.exec(url)
        const signature = req.headers["x-inbound-signature"]
        const reply = isMcp
          ? s.mcp.buffered(req, body.value)
          : book !== null
            ? s.assistant(req, body.value, book[1])
            : url === INBOUND_PATH && req.method === "POST"
              ? s.inbound(typeof signature === "string" ? signature : undefined, body.value)
              : s.dispatch({ method: req.method ?? "GET", url, headers: req.headers, body: body.value, surface: "api" })
        return reply.then(
          (r) => {
            if (r.route !== undefined) note(req, { route: r.route, operation: r.operation, org: r.org })
            s.metrics.observe(
              isMcp ? "mcp" : book !== null ? "assistant" : (r.operation ?? "unmatched"),
              r.status,
              (performance.now() - started) / 1000
            )
            const cors = corsFor(req, r.status)
            send(
              res,
              limited === NO_HEADERS && cors === undefined
                ? r
                : { ...r, headers: { ...r.headers, ...limited, ...cors } }
            )
          },
          (e) => s.failed(res, e)
        )
      })
      .catch((e) => s.failed(res, e))
  }
}
