import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { CheckoutUnavailable, InvalidAmount, NotPaidOnline } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { currencyDecimals, minorUnits } from "../../schema/currency.ts"
import type { GiftCardPurchase, GiftCardPurchased } from "../../schema/gift.ts"
import { insertPurchase, type PurchaseRow, purchaseFailed, purchaseOpened } from "../../store/giftPurchases.ts"
import { fn } from "../../tracing.ts"
import { CurrentOrg, RequestSurface } from "../CurrentOrg.ts"
import { formatAmount } from "../gifts/purchased.ts"
import { Payments } from "./Payments.ts"

/** A purchase's checkout stays open this long (Stripe keeps its sessions open at least 30 minutes). */
export const PURCHASE_CHECKOUT_MINUTES = 60

const toPurchased = (r: PurchaseRow, now: Date): GiftCardPurchased => ({
  id: r.id,
  // The sandbox's checkouts lapse without an event: past its expiry an unpaid purchase reads as expired.
  status:
    r.status === "open" && r.expires_at !== null && r.expires_at.getTime() <= now.getTime() ? "expired" : r.status,
  amount_cents: r.amount_cents,
  currency: r.currency,
  for_email: r.for_email,
  checkout_url: r.status === "open" ? r.checkout_url : null,
  expires_at: r.expires_at?.toISOString() ?? null,
  created_at: r.created_at.toISOString()
})

/**
 * gift_cards.purchase: a guest buys a card through a checkout of the processor. The purchase is written, then the
 * checkout opened (outside any transaction); the card is issued and its code mailed when the payment lands
 * (Payments, on the processor's event), never before.
 */
export class GiftPurchases extends Effect.Service<GiftPurchases>()("GiftPurchases", {
  dependencies: [Payments.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const payments = yield* Payments

    const purchase = fn("GiftPurchases.purchase")(function* (input: GiftCardPurchase) {
      const org = yield* CurrentOrg
      const surface = yield* RequestSurface
      const [o] = yield* sql<{
        name: string
        locale: string
        payments: "online" | "offline"
      }>`select name, locale, payments from orgs where id = ${org.id}`.pipe(Effect.orDie)
      if (o.payments !== "online")
        return yield* new NotPaidOnline({
          message: "the org does not take payments online: it issues gift cards itself (gift_cards.issue)"
        })
      const unit = minorUnits(org.currency)
      if (input.amount_cents < unit) {
        return yield* new InvalidAmount({
          message: `amount_cents: at least one whole ${org.currency} (${unit} in minor units, ${currencyDecimals(org.currency)} decimals)`
        })
      }
      const now = yield* clock.now
      const row: PurchaseRow = {
        id: randomUUID(),
        org_id: org.id,
        amount_cents: input.amount_cents,
        currency: org.currency,
        for_email: input.for_email.toLowerCase(),
        message: input.message === undefined || input.message.trim() === "" ? null : input.message,
        buyer_email: input.buyer_email?.toLowerCase() ?? null,
        buyer_name: input.buyer_name ?? null,
        source: surface,
        status: "open",
        checkout_id: null,
        checkout_url: null,
        expires_at: new Date(now.getTime() + PURCHASE_CHECKOUT_MINUTES * 60_000),
        payment_intent_id: null,
        gift_card_id: null,
        created_at: now,
        paid_at: null
      }
      yield* insertPurchase(sql, row).pipe(Effect.orDie)
      const checkout = yield* payments
        .giftCheckout({
          id: row.id,
          org_id: org.id,
          amount_cents: row.amount_cents,
          currency: row.currency,
          buyer_email: row.buyer_email,
          expires_at: row.expires_at!,
          description: `Gift card ${formatAmount(row.amount_cents, row.currency, o.locale)}: ${o.name}`
        })
        .pipe(
          Effect.catchTag("ProcessorFailed", (e) =>
            Effect.zipRight(
              Effect.zipRight(
                Effect.logWarning("payments: no checkout for a gift card purchase", e.message),
                purchaseFailed(sql, row.id).pipe(Effect.orDie)
              ),
              Effect.fail(
                new CheckoutUnavailable({
                  message: "the payment processor did not open a checkout: nothing was charged, try again"
                })
              )
            )
          )
        )
      const stored = yield* purchaseOpened(sql, row.id, checkout).pipe(Effect.orDie)
      return toPurchased(stored, now)
    })

    return { purchase } as const
  })
}) {}
