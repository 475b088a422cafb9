import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, Either, Runtime } from "effect"
import { Hosted } from "../../engine/services/public/Hosted.ts"
import { Waitlist } from "../../engine/services/waitlist/Waitlist.ts"
import { escapeHtml, formRefused, HTML, page, readForm, send, when, widgetTag } from "./html.ts"

/** /book?offering_id=… (the engine's own booking page) and /wl/{token} (leave a waitlist). */
export const HOSTED_PATH = /^\/(book|wl\/([^/]+))$/

type Fail = { readonly _tag: string; readonly message: string }

export const hostedPages = (runtime: Runtime.Runtime<Hosted | Waitlist>) => {
  const run = <A>(e: Effect.Effect<A, unknown, Hosted | Waitlist>) =>
    Runtime.runPromise(runtime)(Effect.either(e)) as Promise<Either.Either<A, Fail>>
  return async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://x")
    const m = HOSTED_PATH.exec(url.pathname)!
    if (m[1] === "book") {
      if (req.method !== "GET") return send(res, 405, "text/plain", "GET only", { allow: "GET" })
      const found = await run(Effect.flatMap(Hosted, (h) => h.keyFor(url.searchParams.get("offering_id") ?? "")))
      if (Either.isLeft(found))
        return send(res, 404, HTML, page("Not bookable", "<p>This offering is not taking bookings.</p>"))
      return send(
        res,
        200,
        HTML,
        page(
          `Book ${found.right.name}`,
          widgetTag(
            `data-key="${escapeHtml(found.right.key)}" data-offering="${escapeHtml(url.searchParams.get("offering_id")!)}"`
          )
        )
      )
    }
    const token = m[2]
    const entry = await run(Effect.flatMap(Waitlist, (w) => w.byToken(token)))
    if (Either.isLeft(entry))
      return send(res, 404, HTML, page("Not found", "<p>This link does not open a waitlist place.</p>"))
    const e = entry.right
    const what = `${escapeHtml(e.name)}, <time datetime="${escapeHtml(e.starts_at.toISOString())}">${escapeHtml(when(e.starts_at.toISOString(), e.timezone))}</time> <span class="note">(${escapeHtml(e.timezone)} time)</span>`
    if (req.method === "POST") {
      const read = await readForm(req)
      if (!read.ok) return formRefused(res, read)
      const left = await run(Effect.flatMap(Waitlist, (w) => w.leave(token)))
      if (Either.isLeft(left))
        return send(res, 404, HTML, page("Not found", "<p>This link does not open a waitlist place.</p>"))
      return send(
        res,
        200,
        HTML,
        page("You have left the waitlist", `<p role="status">You are no longer waiting for ${what}.</p>`)
      )
    }
    if (req.method !== "GET") return send(res, 405, "text/plain", "GET or POST", { allow: "GET, POST" })
    if (e.ended_at !== null) {
      return send(
        res,
        200,
        HTML,
        page(
          "Waitlist",
          `<p>You are no longer on the waitlist for ${what}${e.end_reason === "booked" ? ": you booked it" : ""}.</p>`
        )
      )
    }
    return send(
      res,
      200,
      HTML,
      page(
        "Your waitlist place",
        `<p>You are on the waitlist for ${what}. We email you when a place opens.</p>` +
          `<form method="post" action="/wl/${escapeHtml(token)}"><button type="submit" class="danger">Leave the waitlist</button></form>`
      )
    )
  }
}
