import type { Statement } from "@effect/sql"
import { Context, Data, type Effect } from "effect"

/**
 * A checkout for one booking, or for one gift card purchase (booking_id null, gift_purchase_id set): the amount in
 * the org's currency, in its minor units (yen for JPY).
 */
export interface CheckoutRequest {
  readonly org_id: string
  readonly booking_id: string | null
  readonly gift_purchase_id?: string | null | undefined
  readonly amount_cents: number
  readonly currency: string
  /** When the hold lapses; the processor may keep it open longer (Stripe: at least 30 minutes), see docs/payments.md. */
  readonly expires_at: Date
  readonly description: string
  readonly starts_at: Date | null
  readonly customer_email: string | null
  readonly idempotency_key: string
}

export interface Checkout {
  readonly id: string
  readonly url: string
  readonly expires_at: Date
}

export interface RefundRequest {
  readonly payment_intent_id: string
  readonly amount_cents: number
  readonly idempotency_key: string
  readonly metadata: { readonly org_id: string; readonly booking_id?: string; readonly gift_purchase_id?: string }
}

export interface Refund {
  readonly id: string
  readonly status: "pending" | "succeeded" | "failed"
  readonly failure_reason: string | null
}

/** Inbound processor events, as the engine understands them; everything else is `Ignored`. */
export type ProcessorEvent = Data.TaggedEnum<{
  PaymentLanded: {
    readonly event_id: string
    readonly org_id: string
    readonly booking_id: string
    readonly checkout_id: string
    readonly payment_intent_id: string
    readonly amount_cents: number
    readonly currency: string
  }
  /** The checkout of a gift card purchase was paid. */
  GiftPaymentLanded: {
    readonly event_id: string
    readonly org_id: string
    readonly gift_purchase_id: string
    readonly checkout_id: string
    readonly payment_intent_id: string
    readonly amount_cents: number
    readonly currency: string
  }
  CheckoutExpired: { readonly event_id: string; readonly checkout_id: string }
  /** refund_id null: the processor named only the payment (charge.refunded). */
  RefundSucceeded: { readonly event_id: string; readonly refund_id: string | null; readonly payment_intent_id: string }
  RefundFailed: {
    readonly event_id: string
    readonly refund_id: string
    readonly payment_intent_id: string
    readonly reason: string
  }
  Ignored: { readonly event_id: string; readonly type: string }
}>
export const ProcessorEvent = Data.taggedEnum<ProcessorEvent>()

/** The processor refused or could not be reached. */
export class ProcessorFailed extends Data.TaggedError("ProcessorFailed")<{ readonly message: string }> {}
/** An inbound event whose signature does not verify (or that cannot be read). */
export class InvalidSignature extends Data.TaggedError("InvalidSignature")<{ readonly message: string }> {}

/** An inbound event as it arrived: the raw body and its signature header. */
export interface RawEvent {
  readonly body: string
  readonly signature: string | undefined
}

/** The payment processor behind online payments: Stripe, or the built-in sandbox. The engine never imports either. */
export class PaymentProcessor extends Context.Tag("PaymentProcessor")<
  PaymentProcessor,
  {
    readonly name: "stripe" | "sandbox"
    readonly createCheckout: (request: CheckoutRequest) => Effect.Effect<Checkout, ProcessorFailed>
    readonly expireCheckout: (checkoutId: string) => Effect.Effect<void, ProcessorFailed>
    readonly refund: (request: RefundRequest) => Effect.Effect<Refund, ProcessorFailed>
    readonly readRefund: (refundId: string) => Effect.Effect<Refund, ProcessorFailed>
    readonly verifyEvent: (event: RawEvent) => Effect.Effect<ProcessorEvent, InvalidSignature>
    /**
     * Events the processor has ready by the engine clock (the sandbox settles its refunds this way), to go through
     * the same inbound path as a processor's POST; `next` says when it next has some (a timestamptz expression).
     */
    readonly due: Effect.Effect<ReadonlyArray<RawEvent>>
    readonly next?: Statement.Fragment
  }
>() {}
