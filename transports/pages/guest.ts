import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, Either, Runtime } from "effect"
import type { GuestView } from "../../engine/schema/guest.ts"
import { Guest } from "../../engine/services/guest/Guest.ts"
import { expectedError } from "../shared/errors.ts"
import { type Message, type Outdoor, outdoorsHtml, thread, waiver } from "./guestParts.ts"
import { dayOnly, escapeHtml, formRefused, HTML, money, page, readForm, send, timeOnly, when } from "./html.ts"

type Slot = { starts_at: string; ends_at: string; remaining: number; session_id?: string }

const STATUS: Record<GuestView["status"], string> = { held: "Held", confirmed: "Confirmed", cancelled: "Cancelled" }
const DONE: Record<string, string> = {
  cancelled: "Your booking is cancelled. A confirmation is on its way by email.",
  moved: "Your booking has moved to the new time. A confirmation is on its way by email.",
  sent: "Your message is sent. The answer comes by email and shows here.",
  confirmed: "Your booking is confirmed. A confirmation is on its way by email."
}

const details = (v: GuestView) => {
  const m = (c: number) => escapeHtml(money(c, v.org.currency, v.org.locale))
  return (
    `<dl>` +
    `<dt>When</dt><dd><time datetime="${escapeHtml(v.starts_at)}">${escapeHtml(when(v.starts_at, v.org.timezone, v.org.locale))}</time> to ${escapeHtml(timeOnly(v.ends_at, v.org.timezone, v.org.locale))} <span class="note">(${escapeHtml(v.org.timezone)} time)</span></dd>` +
    (v.offering.location
      ? `<dt>Where</dt><dd>${escapeHtml(v.offering.location)}${v.offering.map_url ? ` (<a href="${escapeHtml(v.offering.map_url)}" rel="noopener noreferrer">open the map</a>)` : ""}</dd>`
      : "") +
    `<dt>${v.offering.kind === "rental" ? "Items" : "People"}</dt><dd>${v.quantity}</dd>` +
    `<dt>Name</dt><dd>${escapeHtml(v.guest.name ?? "")}</dd>` +
    `<dt>Reference</dt><dd>${escapeHtml(v.reference)}</dd>` +
    (v.total_cents > 0
      ? `<dt>Total</dt><dd>${m(v.total_cents)}${v.discount_cents > 0 ? ` <span class="note">(${m(v.discount_cents)} off)</span>` : ""}</dd><dt>Paid</dt><dd>${m(v.paid_cents)}</dd>` +
        (v.due_cents > 0
          ? `<dt>Still to pay</dt><dd>${m(v.due_cents)}${v.status === "confirmed" ? ' <span class="note">(due at the start)</span>' : ""}</dd>`
          : "")
      : "") +
    (v.status === "cancelled" && v.refund_cents !== null && v.refund_cents > 0
      ? `<dt>Refund</dt><dd>${m(v.refund_cents)} ${v.refunded_at ? "refunded" : "on its way"}</dd>`
      : "") +
    `</dl>`
  )
}

/** A hold's rest after paying at the checkout now (a gift card paid its part): a deposit's rest, due at the start. */
const rest = (v: GuestView) =>
  v.actions.pay_url === null ? 0 : Math.max(0, v.total_cents - v.gift_cents - v.actions.pay_cents)

const actions = (v: GuestView, base: string) => {
  const m = (c: number) => escapeHtml(money(c, v.org.currency, v.org.locale))
  const parts: Array<string> = []
  if (v.actions.can_confirm)
    parts.push(
      `<form method="post" action="${base}/confirm"><p>This booking was held for you. Confirm it to keep your place${v.expires_at ? ` (held until <time datetime="${escapeHtml(v.expires_at)}">${escapeHtml(when(v.expires_at, v.org.timezone, v.org.locale))}</time>)` : ""}.</p><button type="submit">Confirm my booking</button></form>`
    )
  if (v.actions.pay_url)
    parts.push(
      `<p><a class="button" href="${escapeHtml(v.actions.pay_url)}">Pay ${m(v.actions.pay_cents)}${rest(v) > 0 ? " now" : ""}</a></p>` +
        (rest(v) > 0 ? `<p class="note">The rest, ${m(rest(v))}, is due at the start.</p>` : "")
    )
  if (v.choose_by)
    parts.push(
      `<p role="status">This time was called off. Choose another time or cancel before <time datetime="${escapeHtml(v.choose_by)}">${escapeHtml(when(v.choose_by, v.org.timezone, v.org.locale))}</time>.</p>`
    )
  if (v.actions.move_until) parts.push(`<p><a class="button" href="${base}/move">Choose another time</a></p>`)
  if (v.actions.cancel_until) {
    parts.push(
      `<p><a class="button" href="${base}/cancel">Cancel booking</a></p><p class="note">You can change or cancel here until <time datetime="${escapeHtml(v.actions.cancel_until)}">${escapeHtml(when(v.actions.cancel_until, v.org.timezone, v.org.locale))}</time>.</p>`
    )
  }
  if (v.actions.why_not && v.status !== "cancelled") parts.push(`<p class="note">${escapeHtml(v.actions.why_not)}</p>`)
  return parts.length === 0 ? "" : `<h2>What you can do</h2>${parts.join("")}`
}

export const guestPageHtml = (
  v: GuestView,
  messages: ReadonlyArray<Message>,
  base: string,
  notice?: string,
  error?: string,
  alert?: string,
  outdoors?: Outdoor
) =>
  page(
    v.offering.name,
    (notice ? `<p role="status">${escapeHtml(notice)}</p>` : "") +
      (alert ? `<p role="alert">${escapeHtml(alert)}</p>` : "") +
      `<p><span class="badge">${STATUS[v.status]}</span> with ${escapeHtml(v.org.name)}</p>` +
      details(v) +
      outdoorsHtml(v, outdoors) +
      `<p><a href="${base}/calendar.ics">Add to calendar (.ics)</a></p>` +
      actions(v, base) +
      waiver(v) +
      thread(v, messages, base, error),
    v.org.locale
  )

const cancelPage = (v: GuestView, base: string, error?: string) => {
  const refund = v.actions.cancel_refunds_cents
  return page(
    `Cancel ${v.offering.name}?`,
    (error ? `<p role="alert">${escapeHtml(error)}</p>` : "") +
      details(v) +
      `<p>${refund > 0 ? `You get back ${escapeHtml(money(refund, v.org.currency, v.org.locale))} of what you paid online.` : "Nothing was paid online, so nothing is refunded."}` +
      `${v.gift_cents > 0 ? ` The ${escapeHtml(money(v.gift_cents, v.org.currency, v.org.locale))} paid by gift card goes back to the card.` : ""}</p>` +
      `<form method="post" action="${base}/cancel"><button type="submit" class="danger">Yes, cancel my booking</button></form>` +
      `<p><a href="${base}">Keep my booking</a></p>`,
    v.org.locale
  )
}

const movePage = (v: GuestView, slots: ReadonlyArray<Slot>, base: string, error?: string) => {
  const open = slots.filter((s) => s.remaining >= v.quantity && s.starts_at !== v.starts_at)
  const days = new Map<string, Array<Slot>>()
  for (const s of open) {
    const day = dayOnly(s.starts_at, v.org.timezone, v.org.locale)
    days.set(day, [...(days.get(day) ?? []), s])
  }
  const choices = [...days]
    .map(
      ([day, list], d) =>
        `<fieldset><legend>${escapeHtml(day)}</legend>${list
          .map((s, i) => {
            const value = s.session_id ? `session:${s.session_id}` : `start:${s.starts_at}`
            return (
              `<label class="choice"><input type="radio" name="to" id="t${d}-${i}" value="${escapeHtml(value)}" required> ` +
              `<time datetime="${escapeHtml(s.starts_at)}">${escapeHtml(timeOnly(s.starts_at, v.org.timezone, v.org.locale))}</time> <span class="note">(${s.remaining} left)</span></label>`
            )
          })
          .join("")}</fieldset>`
    )
    .join("")
  return page(
    "Choose another time",
    (error ? `<p role="alert">${escapeHtml(error)}</p>` : "") +
      `<p>${escapeHtml(v.offering.name)}, now <time datetime="${escapeHtml(v.starts_at)}">${escapeHtml(when(v.starts_at, v.org.timezone, v.org.locale))}</time>. Times are in ${escapeHtml(v.org.timezone)} time.</p>` +
      (open.length === 0
        ? `<p>No other time has room for ${v.quantity} in the next two weeks.</p>`
        : `<form method="post" action="${base}/move">${choices}<button type="submit">Move my booking</button></form>`) +
      `<p><a href="${base}">Back to my booking</a></p>`,
    v.org.locale
  )
}

const notFoundPage = () =>
  page(
    "Booking not found",
    "<p>This link does not open a booking. Check the link in your email, or ask the business to send it again.</p>"
  )

type Fail = { readonly _tag: string; readonly message: string; readonly code?: string }

/**
 * The guest page, server-rendered with plain forms (no script): GET /b/{handle} the booking; /b/{handle}/cancel and
 * /b/{handle}/move a confirmation step (GET) and the change (POST, then 303 back to the page); POST
 * /b/{handle}/messages writes to the business; GET /b/{handle}/calendar.ics. A wrong handle is 404.
 */
export const guestPages = (runtime: Runtime.Runtime<Guest>) => {
  const run = <A>(f: (g: Guest) => Effect.Effect<A, unknown>) =>
    Runtime.runPromise(runtime)(Effect.either(Effect.flatMap(Guest, f))) as Promise<Either.Either<A, Fail>>
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    handle: string,
    action: string | undefined,
    query: URLSearchParams
  ) => {
    const base = `/b/${encodeURIComponent(handle)}`
    const show = async (status: number, render: (v: GuestView) => string | Promise<string>) => {
      const v = await run((g) => g.get(handle))
      if (Either.isLeft(v)) return send(res, v.left._tag === "NotFound" ? 404 : 409, HTML, notFoundPage())
      send(res, status, HTML, await render(v.right))
    }
    const main = (status: number, notice?: string, error?: string, alert?: string) =>
      show(status, async (v) => {
        const [messages, outdoors] = await Promise.all([run((g) => g.thread(handle)), run((g) => g.outdoors(handle))])
        return guestPageHtml(
          v,
          Either.isRight(messages) ? messages.right.data : [],
          base,
          notice,
          error,
          alert,
          Either.isRight(outdoors) ? outdoors.right : undefined
        )
      })
    const failed = (e: Fail) => expectedError(e)?.status ?? 409
    const method = req.method ?? "GET"

    if (action === undefined) {
      if (method !== "GET" && method !== "HEAD") return send(res, 405, "text/plain", "GET only", { allow: "GET" })
      return main(200, DONE[query.get("done") ?? ""])
    }
    if (action === "calendar.ics" && method === "GET") {
      const ics = await run((g) => g.ics(handle))
      if (Either.isLeft(ics)) return send(res, 404, HTML, notFoundPage())
      return send(res, 200, "text/calendar; charset=utf-8", ics.right, {
        "content-disposition": `attachment; filename="booking.ics"`
      })
    }
    if (action === "confirm" && method === "POST") {
      const done = await run((g) => g.confirm(handle))
      if (Either.isRight(done)) return send(res, 303, "text/plain", "", { location: `${base}?done=confirmed` })
      return main(failed(done.left), undefined, undefined, done.left.message)
    }
    if (action === "cancel" || action === "move" || action === "messages") {
      if (method === "GET") {
        if (action === "cancel") return show(200, (v) => cancelPage(v, base))
        if (action === "move") {
          return show(200, async (v) => {
            const times = await run((g) => g.times(handle, {}))
            return movePage(v, Either.isRight(times) ? (times.right as { data: Array<Slot> }).data : [], base)
          })
        }
        return send(res, 303, "text/plain", "", { location: `${base}#messages` })
      }
      if (method !== "POST") return send(res, 405, "text/plain", "GET or POST", { allow: "GET, POST" })
      const read = await readForm(req)
      if (!read.ok) return formRefused(res, read)
      const form = read.form
      if (action === "cancel") {
        const done = await run((g) => g.cancel(handle))
        if (Either.isRight(done)) return send(res, 303, "text/plain", "", { location: `${base}?done=cancelled` })
        return show(failed(done.left), (v) => cancelPage(v, base, done.left.message))
      }
      if (action === "move") {
        const to = form.get("to") ?? ""
        const target = to.startsWith("session:")
          ? { session_id: to.slice(8) }
          : to.startsWith("start:")
            ? { starts_at: new Date(to.slice(6)) }
            : undefined
        const done =
          target === undefined || (target.starts_at !== undefined && Number.isNaN(target.starts_at.getTime()))
            ? Either.left<Fail>({ _tag: "BadRequest", message: "Choose one of the times." })
            : target.session_id !== undefined && !/^[0-9a-f-]{36}$/i.test(target.session_id)
              ? Either.left<Fail>({ _tag: "BadRequest", message: "Choose one of the times." })
              : await run((g) => g.move(handle, target))
        if (Either.isRight(done)) return send(res, 303, "text/plain", "", { location: `${base}?done=moved` })
        const message =
          done.left.code === "sold_out" ? "That time has just filled up. Choose another." : done.left.message
        return show(failed(done.left), async (v) => {
          const times = await run((g) => g.times(handle, {}))
          return movePage(v, Either.isRight(times) ? (times.right as { data: Array<Slot> }).data : [], base, message)
        })
      }
      const body = (form.get("body") ?? "").trim()
      if (body === "" || body.length > 5000)
        return main(400, undefined, body === "" ? "Write a message first." : "A message is at most 5000 characters.")
      const sent = await run((g) => g.write(handle, body))
      if (Either.isRight(sent)) return send(res, 303, "text/plain", "", { location: `${base}?done=sent#messages` })
      return main(failed(sent.left), undefined, sent.left.message)
    }
    return send(res, 404, HTML, notFoundPage())
  }
}
