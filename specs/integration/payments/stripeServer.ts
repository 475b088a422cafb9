import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"

export interface StripeCall {
  readonly method: string
  readonly path: string
  readonly form: Record<string, string>
  readonly idempotencyKey: string | undefined
  readonly authorization: string | undefined
}

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = ""
    req.on("data", (c) => (body += c))
    req.on("end", () => resolve(body))
  })

/**
 * A local server answering in Stripe's wire format (form-encoded requests, JSON objects, Stripe's error shape) for the
 * calls the adapter makes: create and expire a Checkout Session, create and retrieve a refund. It replays the first
 * answer for a repeated Idempotency-Key, as Stripe does. `refundStatus` sets how new refunds come back; while
 * `checkoutGate` is set, a new Checkout Session is answered only once it resolves (the call is recorded at once).
 */
export const startStripeServer = async () => {
  const calls: StripeCall[] = []
  const sessions = new Map<string, Record<string, unknown>>()
  const refunds = new Map<string, Record<string, unknown>>()
  const replies = new Map<string, { status: number; body: unknown }>()
  let n = 0
  const state = {
    refundStatus: "pending" as "pending" | "succeeded" | "failed",
    checkoutGate: null as Promise<void> | null
  }
  const answer = (method: string, path: string, form: Record<string, string>): { status: number; body: unknown } => {
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const id = `cs_test_${++n}`
      const metadata = {
        org_id: form["metadata[org_id]"],
        booking_id: form["metadata[booking_id]"],
        gift_purchase_id: form["metadata[gift_purchase_id]"]
      }
      const s = {
        id,
        object: "checkout.session",
        mode: form.mode,
        status: "open",
        payment_status: "unpaid",
        url: `https://checkout.stripe.test/c/pay/${id}`,
        amount_total: Number(form["line_items[0][price_data][unit_amount]"]) * Number(form["line_items[0][quantity]"]),
        currency: form["line_items[0][price_data][currency]"],
        expires_at: Number(form.expires_at),
        metadata,
        payment_intent: null,
        client_reference_id: form.client_reference_id,
        success_url: form.success_url
      }
      sessions.set(id, s)
      return { status: 200, body: s }
    }
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path)
    if (method === "POST" && expire) {
      const s = sessions.get(expire[1])
      if (!s)
        return {
          status: 404,
          body: {
            error: {
              type: "invalid_request_error",
              code: "resource_missing",
              message: `No such checkout.session: '${expire[1]}'`
            }
          }
        }
      if (s.status !== "open")
        return {
          status: 400,
          body: {
            error: {
              type: "invalid_request_error",
              message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`
            }
          }
        }
      s.status = "expired"
      return { status: 200, body: s }
    }
    if (method === "POST" && path === "/v1/refunds") {
      const id = `re_test_${++n}`
      const r = {
        id,
        object: "refund",
        amount: Number(form.amount),
        payment_intent: form.payment_intent,
        status: state.refundStatus,
        currency: "eur",
        metadata: { org_id: form["metadata[org_id]"], booking_id: form["metadata[booking_id]"] },
        ...(state.refundStatus === "failed" ? { failure_reason: "expired_or_canceled_card" } : {})
      }
      refunds.set(id, r)
      return { status: 200, body: r }
    }
    const refund = /^\/v1\/refunds\/([^/]+)$/.exec(path)
    if (method === "GET" && refund && refunds.has(refund[1])) return { status: 200, body: refunds.get(refund[1]) }
    return {
      status: 404,
      body: { error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path})` } }
    }
  }
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x")
    const form = Object.fromEntries(new URLSearchParams(await read(req)))
    const key = req.headers["idempotency-key"] as string | undefined
    calls.push({
      method: req.method ?? "",
      path: url.pathname,
      form,
      idempotencyKey: key,
      authorization: req.headers.authorization
    })
    if (req.method === "POST" && url.pathname === "/v1/checkout/sessions" && state.checkoutGate !== null)
      await state.checkoutGate
    const cached = key === undefined ? undefined : replies.get(`${req.method} ${url.pathname} ${key}`)
    const reply = cached ?? answer(req.method ?? "", url.pathname, form)
    if (key !== undefined) replies.set(`${req.method} ${url.pathname} ${key}`, reply)
    res.writeHead(reply.status, {
      "content-type": "application/json",
      "request-id": `req_${calls.length}`,
      ...(cached ? { "idempotent-replayed": "true" } : {})
    })
    res.end(JSON.stringify(reply.body))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    calls,
    sessions,
    refunds,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
