import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, Either, Option, Runtime } from "effect"
import type { PayResult, SandboxCheckoutRow, SandboxPages } from "../../engine/ports/SandboxPages.ts"
import { Payments } from "../../engine/services/payments/Payments.ts"
import { badLink, escapeHtml, formRefused, HTML, money, page, readForm, send, when } from "../pages/html.ts"
import { CLOSE, readBytes } from "../shared/body.ts"
import { expectedError } from "../shared/errors.ts"
import { pathSegment } from "../shared/json.ts"

export { money }

/** Paths these routes answer; the rest goes on to the HTTP app. */
export const PAYMENT_PATH = /^\/(pay\/[^/]+(\/[^/]+)?|payments\/stripe\/events)$/
const MAX_BODY = 512 * 1024

/** The processor's event as sent (its signature covers these bytes), or undefined past MAX_BODY. */
const readBody = (req: IncomingMessage) =>
  readBytes(req, { limit: MAX_BODY, what: "the event" }).then((read) =>
    read.ok ? (read.value?.toString("utf8") ?? "") : undefined
  )

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers })
  res.end(JSON.stringify(body))
}

const summary = (c: SandboxCheckoutRow) =>
  `<dl><dt>Offering</dt><dd>${escapeHtml(c.description)}</dd>` +
  (c.starts_at
    ? `<dt>Time</dt><dd><time datetime="${c.starts_at.toISOString()}">${escapeHtml(when(c.starts_at.toISOString(), c.timezone ?? "UTC", c.locale ?? "en"))}</time> <span class="note">(${escapeHtml(c.timezone ?? "UTC")} time)</span></dd>`
    : "") +
  `<dt>Amount</dt><dd>${escapeHtml(money(c.amount_cents, c.currency))}</dd><dt>Currency</dt><dd>${escapeHtml(c.currency)}</dd></dl>`

const form = (c: SandboxCheckoutRow, error?: string) =>
  (error ? `<p role="alert" id="card-error">${escapeHtml(error)}</p>` : "") +
  `<form method="post" action="/pay/${escapeHtml(c.id)}"><label for="card_number">Card number</label>` +
  `<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required${error ? ` aria-invalid="true" aria-describedby="card-error"` : ""}>` +
  `<button type="submit">Pay ${escapeHtml(money(c.amount_cents, c.currency))}</button></form>` +
  `<p class="note">Sandbox: no money moves. 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined; 4000 0000 0000 5126 pays, but refunds of it fail.</p>`

const checkoutPage = (c: SandboxCheckoutRow, now: Date, error?: string) =>
  c.status === "complete"
    ? page(
        "Paid",
        `${summary(c)}<p>${c.gift_purchase_id !== null ? "Thank you: the payment was received and the gift card's code is on its way by email." : "Thank you: the payment was received and your booking is confirmed by email."}</p>`
      )
    : c.status === "expired" || c.expires_at.getTime() <= now.getTime()
      ? page("This checkout has expired", `${summary(c)}<p>Use the link in your email to pay again.</p>`)
      : page(
          c.gift_purchase_id !== null ? "Pay for your gift card" : "Pay for your booking",
          summary(c) + form(c, error)
        )

const results: Record<Exclude<PayResult["_tag"], "not_found" | "paid">, { status: number; error: string }> = {
  declined: {
    status: 402,
    error: "Your card was declined. Nothing was charged and your place is still held: try another card."
  },
  invalid_card: { status: 400, error: "That is not a sandbox test card. Use 4242 4242 4242 4242." },
  expired: { status: 410, error: "This checkout has expired." },
  already_paid: { status: 409, error: "This checkout is already paid." }
}

/**
 * Payment routes as plain node handlers (true when handled): the processor's inbound events at
 * POST /payments/stripe/events (raw body, no API key), the sandbox checkout at GET and POST /pay/{checkout_id}, a
 * fresh checkout for a held booking at GET /pay/again/{handle} (the nudge's link), and GET /pay/done.
 */
export const paymentRoutes = (runtime: Runtime.Runtime<Payments>, sandbox: Option.Option<SandboxPages["Type"]>) => {
  const run = Runtime.runPromise(runtime)
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? "/", "http://localhost")
    const path = url.pathname
    if (path === "/payments/stripe/events") {
      if (req.method !== "POST") return (send(res, 405, "text/plain", "POST only", { allow: "POST" }), true)
      const body = await readBody(req)
      if (body === undefined)
        return (
          json(
            res,
            413,
            { error: { code: "payload_too_large", message: `the event is larger than ${MAX_BODY} bytes` } },
            CLOSE
          ),
          true
        )
      const signature = req.headers["stripe-signature"]
      const result = await run(
        Effect.either(
          Effect.flatMap(Payments, (p) =>
            p.receive({ body, signature: Array.isArray(signature) ? signature[0] : signature })
          )
        )
      )
      if (Either.isLeft(result))
        return (json(res, 400, { error: { code: "invalid_signature", message: result.left.message } }), true)
      return (json(res, 200, { received: true }), true)
    }
    const m = /^\/pay\/([^/]+)(?:\/([^/]+))?$/.exec(path)
    if (m === null) return false
    // Each segment is text, as REST has it, before it goes near the database.
    for (const raw of [m[1], m[2]]) {
      const segment = raw === undefined ? undefined : pathSegment(raw)
      if (segment !== undefined && !segment.ok) return (badLink(res, segment.problem), true)
    }
    if (m[1] === "done" && m[2] === undefined && req.method === "GET") {
      return (
        send(
          res,
          200,
          HTML,
          page("Thank you", "<p>Your payment is being processed; your booking is confirmed by email once it lands.</p>")
        ),
        true
      )
    }
    if (m[1] === "again" && m[2] !== undefined && req.method === "GET") {
      const result = await run(Effect.either(Effect.flatMap(Payments, (p) => p.resume(decodeURIComponent(m[2]!)))))
      if (Either.isRight(result)) return (send(res, 303, "text/plain", "", { location: result.right }), true)
      const status = expectedError(result.left)?.status ?? 409
      return (
        send(
          res,
          status,
          HTML,
          page(status === 404 ? "Booking not found" : "Nothing to pay", `<p>${escapeHtml(result.left.message)}</p>`)
        ),
        true
      )
    }
    if (m[2] !== undefined || Option.isNone(sandbox)) return false
    const pages = sandbox.value
    const id = decodeURIComponent(m[1])
    const now = () => run(Effect.flatMap(Payments, (p) => p.now))
    if (req.method === "GET") {
      const c = await run(pages.view(id))
      if (Option.isNone(c)) return (send(res, 404, HTML, page("Checkout not found", "<p>No such checkout.</p>")), true)
      return (send(res, 200, HTML, checkoutPage(c.value, await now())), true)
    }
    if (req.method !== "POST") return (send(res, 405, "text/plain", "GET or POST", { allow: "GET, POST" }), true)
    const read = await readForm(req)
    if (!read.ok) return (formRefused(res, read), true)
    const card = read.form.get("card_number") ?? ""
    const result = await run(pages.pay(id, card))
    if (result._tag === "not_found")
      return (send(res, 404, HTML, page("Checkout not found", "<p>No such checkout.</p>")), true)
    // The page shows the time in the org's zone and language, which the view reads with the checkout.
    const org = Option.getOrUndefined(await run(pages.view(id)))
    const paid = { ...result, checkout: { ...result.checkout, timezone: org?.timezone, locale: org?.locale } }
    if (result._tag === "paid") {
      await run(Effect.flatMap(Payments, (p) => p.receive(result.event)).pipe(Effect.orDie))
      return (send(res, 200, HTML, checkoutPage(paid.checkout, await now())), true)
    }
    const r = results[result._tag]
    const html =
      paid._tag === "declined" || paid._tag === "invalid_card"
        ? page("Pay for your booking", summary(paid.checkout) + form(paid.checkout, r.error))
        : page(r.error, summary(paid.checkout))
    return (send(res, r.status, HTML, html), true)
  }
}
