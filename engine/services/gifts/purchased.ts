import { randomUUID } from "node:crypto"
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { minorUnits } from "../../schema/currency.ts"
import { hashGiftCode, insertCard, newGiftCode } from "../../store/giftCards.ts"
import { type PurchaseRow, purchasePaid } from "../../store/giftPurchases.ts"
import type { NewEvent } from "../Events.ts"
import type { Mail } from "../mail/Mail.ts"

export type { PurchaseRow }

/** 1234 minor units of EUR in en as "€12.34"; an unknown locale falls back to en. */
export const formatAmount = (cents: number, currency: string, locale: string) => {
  const major = cents / minorUnits(currency)
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency }).format(major)
  } catch {
    return new Intl.NumberFormat("en", { style: "currency", currency }).format(major)
  }
}

/**
 * The payment of a purchase landed: its card is issued (a new code, stored as its hash; an `issue` move), the
 * purchase marked paid with the card, and the code mailed to for_email with the buyer's message (the mail outbox,
 * in this transaction). Runs in the caller's transaction with the purchase row locked and unpaid. The event
 * `gift_card.purchased` it returns never carries the code.
 */
export const issuePurchased = (
  sql: SqlClient.SqlClient,
  mail: Mail,
  p: PurchaseRow,
  paymentIntentId: string,
  now: Date
) =>
  Effect.gen(function* () {
    const code = newGiftCode()
    const cardId = randomUUID()
    const note = `bought${p.buyer_name ? ` by ${p.buyer_name}` : p.buyer_email ? ` by ${p.buyer_email}` : ""} (purchase ${p.id})`
    yield* insertCard(
      sql,
      {
        id: cardId,
        org_id: p.org_id,
        last4: code.slice(-4),
        amount_cents: p.amount_cents,
        balance_cents: p.amount_cents,
        currency: p.currency,
        for_email: p.for_email,
        note,
        created_at: now,
        updated_at: null
      },
      hashGiftCode(code)
    )
    yield* purchasePaid(sql, p.id, cardId, paymentIntentId, now)
    const [org] = yield* sql<{ name: string; locale: string }>`select name, locale from orgs where id = ${p.org_id}`
    const amount = formatAmount(p.amount_cents, p.currency, org?.locale ?? "en")
    const from = p.buyer_name ?? p.buyer_email ?? "Someone"
    yield* mail.enqueue(p.org_id, {
      to: p.for_email,
      kind: "gift_card.purchased",
      subject: `A gift card for you: ${amount} at ${org?.name ?? "us"}`,
      text: [
        `${from} sent you a gift card of ${amount} for ${org?.name ?? "us"}.`,
        ...(p.message ? ["", p.message, ""] : []),
        `Your gift card code: ${code}`,
        "Type it as the gift card code when you book. Keep it safe: whoever has the code can spend it."
      ].join("\n"),
      ...(p.buyer_email ? { replyTo: p.buyer_email } : {})
    })
    return [
      {
        type: "gift_card.purchased",
        data: {
          gift_card_id: cardId,
          gift_purchase_id: p.id,
          amount_cents: p.amount_cents,
          currency: p.currency,
          for_email: p.for_email,
          buyer_email: p.buyer_email,
          source: p.source,
          payment_intent_id: paymentIntentId
        }
      }
    ] satisfies ReadonlyArray<NewEvent>
  })
