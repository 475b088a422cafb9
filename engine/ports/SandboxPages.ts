import { Context, type Effect, type Option } from "effect"
import type { RawEvent } from "./Payments.ts"

/**
 * The built-in sandbox processor's own checkout page (what `npm start` uses with no Stripe keys): the adapter provides
 * it beside the processor, and the payment pages (transports/payments) serve it when it is there.
 */
export interface SandboxCheckoutRow {
  readonly id: string
  readonly org_id: string
  readonly booking_id: string | null
  readonly gift_purchase_id: string | null
  readonly amount_cents: number
  readonly currency: string
  readonly description: string
  readonly starts_at: Date | null
  readonly expires_at: Date
  readonly status: "open" | "complete" | "expired"
  readonly payment_intent_id: string | null
  readonly card_last4: string | null
  readonly declines: number
  readonly event_attempts?: number
  readonly timezone?: string // the org's zone and language (view only), for the checkout page's time
  readonly locale?: string
}

export type PayResult =
  | { readonly _tag: "paid"; readonly checkout: SandboxCheckoutRow; readonly event: RawEvent }
  | { readonly _tag: "declined" | "invalid_card" | "expired" | "already_paid"; readonly checkout: SandboxCheckoutRow }
  | { readonly _tag: "not_found" }

/** What the sandbox's own checkout page needs: read a checkout, pay it with a card number. */
export class SandboxPages extends Context.Tag("SandboxPages")<
  SandboxPages,
  {
    readonly view: (id: string) => Effect.Effect<Option.Option<SandboxCheckoutRow>>
    readonly pay: (id: string, cardNumber: string) => Effect.Effect<PayResult>
  }
>() {}
