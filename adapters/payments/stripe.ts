import { Effect, Layer } from "effect"
import Stripe from "stripe"
import { Links } from "../../engine/ports/Links.ts"
import {
  type CheckoutRequest,
  InvalidSignature,
  PaymentProcessor,
  ProcessorEvent,
  ProcessorFailed,
  type RawEvent,
  type Refund,
  type RefundRequest
} from "../../engine/ports/Payments.ts"

export interface StripeSettings {
  readonly secretKey: string
  readonly webhookSecret: string
  /** Where the API is (tests point it at a local server that speaks Stripe's wire format). */
  readonly host?: string | undefined
  readonly port?: number | undefined
  readonly protocol?: "http" | "https" | undefined
}

/** Stripe refuses a Checkout Session that expires sooner than 30 minutes after it is created (by Stripe's clock). */
export const STRIPE_MIN_EXPIRY_MS = 30 * 60_000
/** A little more than the minimum, for the time the request takes. */
const EXPIRY_MARGIN_MS = 60_000

const idOf = (x: string | { readonly id: string } | null | undefined) =>
  x == null ? null : typeof x === "string" ? x : x.id
const refundOf = (r: Stripe.Refund): Refund => ({
  id: r.id,
  status:
    r.status === "succeeded" ? "succeeded" : r.status === "failed" || r.status === "canceled" ? "failed" : "pending",
  failure_reason: r.failure_reason ?? null
})

/** Stripe's events, as the engine understands them. */
export const toProcessorEvent = (event: Stripe.Event): ProcessorEvent => {
  const ignored = ProcessorEvent.Ignored({ event_id: event.id, type: event.type })
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const s = event.data.object
      const pi = idOf(s.payment_intent)
      if (s.payment_status !== "paid" || pi === null || !s.metadata?.org_id || s.amount_total == null) return ignored
      if (s.metadata.gift_purchase_id) {
        return ProcessorEvent.GiftPaymentLanded({
          event_id: event.id,
          org_id: s.metadata.org_id,
          gift_purchase_id: s.metadata.gift_purchase_id,
          checkout_id: s.id,
          payment_intent_id: pi,
          amount_cents: s.amount_total,
          currency: (s.currency ?? "").toUpperCase()
        })
      }
      if (!s.metadata.booking_id) return ignored
      return ProcessorEvent.PaymentLanded({
        event_id: event.id,
        org_id: s.metadata.org_id,
        booking_id: s.metadata.booking_id,
        checkout_id: s.id,
        payment_intent_id: pi,
        amount_cents: s.amount_total,
        currency: (s.currency ?? "").toUpperCase()
      })
    }
    case "checkout.session.expired":
      return ProcessorEvent.CheckoutExpired({ event_id: event.id, checkout_id: event.data.object.id })
    case "refund.updated":
    case "refund.failed": {
      const r = event.data.object
      const pi = idOf(r.payment_intent)
      if (pi === null) return ignored
      if (r.status === "succeeded")
        return ProcessorEvent.RefundSucceeded({ event_id: event.id, refund_id: r.id, payment_intent_id: pi })
      if (r.status === "failed" || r.status === "canceled") {
        return ProcessorEvent.RefundFailed({
          event_id: event.id,
          refund_id: r.id,
          payment_intent_id: pi,
          reason: r.failure_reason ?? r.status
        })
      }
      return ignored
    }
    case "charge.refunded": {
      const pi = idOf(event.data.object.payment_intent)
      return pi === null
        ? ignored
        : ProcessorEvent.RefundSucceeded({ event_id: event.id, refund_id: null, payment_intent_id: pi })
    }
    default:
      return ignored
  }
}

/** Stripe Checkout Sessions (payment mode) and refunds through the official SDK; one idempotency key per call. */
export const StripeLive = (settings: StripeSettings) =>
  Layer.effect(
    PaymentProcessor,
    Effect.gen(function* () {
      const { publicUrl } = yield* Links
      const stripe = new Stripe(settings.secretKey, {
        maxNetworkRetries: 2,
        telemetry: false,
        ...(settings.host ? { host: settings.host } : {}),
        ...(settings.port ? { port: settings.port } : {}),
        ...(settings.protocol ? { protocol: settings.protocol } : {})
      })
      const call = <A>(what: string, f: () => Promise<A>) =>
        Effect.tryPromise({
          try: f,
          catch: (e) =>
            new ProcessorFailed({ message: `stripe ${what}: ${e instanceof Error ? e.message : String(e)}` })
        })

      const createCheckout = (r: CheckoutRequest) =>
        Effect.gen(function* () {
          const expiresAt = new Date(
            Math.max(r.expires_at.getTime(), Date.now() + STRIPE_MIN_EXPIRY_MS + EXPIRY_MARGIN_MS)
          )
          // A booking's checkout names the booking; a gift card purchase's names the purchase.
          const metadata: Record<string, string> =
            r.booking_id !== null
              ? { org_id: r.org_id, booking_id: r.booking_id }
              : { org_id: r.org_id, gift_purchase_id: r.gift_purchase_id ?? "" }
          const session = yield* call("checkout", () =>
            stripe.checkout.sessions.create(
              {
                mode: "payment",
                line_items: [
                  {
                    quantity: 1,
                    price_data: {
                      currency: r.currency.toLowerCase(),
                      unit_amount: r.amount_cents,
                      product_data: { name: r.description }
                    }
                  }
                ],
                metadata,
                payment_intent_data: { metadata },
                client_reference_id: r.booking_id ?? r.gift_purchase_id ?? undefined,
                expires_at: Math.floor(expiresAt.getTime() / 1000),
                ...(r.customer_email ? { customer_email: r.customer_email } : {}),
                success_url: `${publicUrl}/pay/done?session_id={CHECKOUT_SESSION_ID}`,
                cancel_url: `${publicUrl}/pay/done?cancelled=1`
              },
              { idempotencyKey: r.idempotency_key }
            )
          )
          if (session.url === null)
            return yield* new ProcessorFailed({ message: "stripe checkout: no url in the answer" })
          return { id: session.id, url: session.url, expires_at: new Date(session.expires_at * 1000) }
        })

      const expireCheckout = (id: string) =>
        call("expire", () => stripe.checkout.sessions.expire(id, {}, { idempotencyKey: `${id}:expire` })).pipe(
          Effect.asVoid,
          // A session that completed or expired meanwhile cannot be expired: nothing to do.
          Effect.catchIf(
            (e) => /not.*open|status.*(complete|expired)/i.test(e.message),
            () => Effect.void
          )
        )

      const refund = (r: RefundRequest) =>
        call("refund", () =>
          stripe.refunds.create(
            { payment_intent: r.payment_intent_id, amount: r.amount_cents, metadata: { ...r.metadata } },
            { idempotencyKey: r.idempotency_key }
          )
        ).pipe(Effect.map(refundOf))

      const readRefund = (id: string) =>
        call("refund read", () => stripe.refunds.retrieve(id)).pipe(Effect.map(refundOf))

      const verifyEvent = (raw: RawEvent) =>
        Effect.try({
          try: () => stripe.webhooks.constructEvent(raw.body, raw.signature ?? "", settings.webhookSecret),
          catch: (e) => new InvalidSignature({ message: e instanceof Error ? e.message : String(e) })
        }).pipe(Effect.map(toProcessorEvent))

      return PaymentProcessor.of({
        name: "stripe",
        createCheckout,
        expireCheckout,
        refund,
        readRefund,
        verifyEvent,
        due: Effect.succeed([])
      })
    })
  )
