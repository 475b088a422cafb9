import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, Either, Runtime } from "effect"
import { Waivers } from "../../engine/services/waivers/Waivers.ts"
import { expectedError } from "../shared/errors.ts"
import { escapeHtml, formRefused, HTML, page, readForm, send, when } from "./html.ts"

type View = Effect.Effect.Success<ReturnType<Waivers["get"]>>
type Fail = { readonly _tag: string; readonly message: string; readonly code?: string }

const waiverHtml = (v: View, token: string, notice?: string, error?: string) => {
  const missing = v.needed - v.signed
  const form =
    v.open && v.text !== null && missing > 0
      ? `<h2>Sign</h2><form method="post" action="/w/${encodeURIComponent(token)}">` +
        (error ? `<p role="alert" id="sign-error">${escapeHtml(error)}</p>` : "") +
        `<label for="name">Full name of the person signing</label><input id="name" name="name" type="text" autocomplete="name" maxlength="120" required${error ? ` aria-invalid="true" aria-describedby="sign-error"` : ""}>` +
        `<label class="choice"><input type="checkbox" name="accept" value="yes" required> I have read the waiver above and accept it</label>` +
        `<button type="submit">Sign the waiver</button></form>`
      : ""
  return page(
    `Waiver for ${v.offering}`,
    (notice ? `<p role="status">${escapeHtml(notice)}</p>` : "") +
      `<p>Booking ${escapeHtml(v.reference)}, <time datetime="${escapeHtml(v.starts_at)}">${escapeHtml(when(v.starts_at, v.timezone))}</time> <span class="note">(${escapeHtml(v.timezone)} time)</span></p>` +
      (v.text === null
        ? `<p>The waiver text is not ready yet. Come back to this link later.</p>`
        : `<h2>Waiver, version ${v.version}</h2><div class="waiver">${escapeHtml(v.text).replace(/\n/g, "<br>")}</div>`) +
      `<h2>Signatures</h2><p>${v.signed} of ${v.needed} signed.</p>` +
      (v.signatures.length === 0
        ? ""
        : `<ul>${v.signatures.map((s) => `<li>${escapeHtml(s.name)}, <time datetime="${escapeHtml(s.signed_at)}">${escapeHtml(when(s.signed_at, v.timezone))}</time></li>`).join("")}</ul>`) +
      (!v.open
        ? `<p>This booking is cancelled: the waiver takes no signatures.</p>`
        : missing <= 0
          ? `<p>Every signature is in. Thank you.</p>`
          : "") +
      form
  )
}

const notFoundPage = () =>
  page("Waiver not found", "<p>This link does not open a waiver. Check the link in your email.</p>")

/** The waiver page /w/{token}: the text and version, who has signed, and a form (name + accept) until every signature is in. */
export const waiverPages = (runtime: Runtime.Runtime<Waivers>) => {
  const run = <A>(f: (w: Waivers) => Effect.Effect<A, unknown>) =>
    Runtime.runPromise(runtime)(Effect.either(Effect.flatMap(Waivers, f))) as Promise<Either.Either<A, Fail>>
  return async (req: IncomingMessage, res: ServerResponse, token: string, query: URLSearchParams) => {
    const valid = /^[A-Za-z0-9_-]{16,64}$/.test(token)
    const show = async (status: number, notice?: string, error?: string) => {
      const v = valid ? await run((w) => w.get(token)) : Either.left<Fail>({ _tag: "NotFound", message: "" })
      if (Either.isLeft(v)) return send(res, 404, HTML, notFoundPage())
      send(res, status, HTML, waiverHtml(v.right, token, notice, error))
    }
    if (req.method === "GET" || req.method === "HEAD")
      return show(200, query.get("done") === "signed" ? "Thank you: your signature is in." : undefined)
    if (req.method !== "POST") return send(res, 405, "text/plain", "GET or POST", { allow: "GET, POST" })
    const read = await readForm(req)
    if (!read.ok) return formRefused(res, read)
    const form = read.form
    const name = (form.get("name") ?? "").trim()
    if (name === "" || name.length > 120)
      return show(400, undefined, "Write the full name of the person signing (at most 120 characters).")
    if (form.get("accept") !== "yes") return show(400, undefined, "Tick the box to accept the waiver.")
    if (!valid) return send(res, 404, HTML, notFoundPage())
    const signed = await run((w) => w.sign(token, { name }))
    if (Either.isRight(signed))
      return send(res, 303, "text/plain", "", { location: `/w/${encodeURIComponent(token)}?done=signed` })
    return show(expectedError(signed.left)?.status ?? 409, undefined, signed.left.message)
  }
}
