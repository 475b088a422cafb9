import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Table `gift_purchases`: gift cards bought through a checkout, from open to paid (with the card issued), expired or
 * failed. This store is its only writer (the gift purchase service opens them, the payments' inbound path settles
 * them).
 */

/** A purchase as stored (migration 0086). */
export interface PurchaseRow {
  readonly id: string
  readonly org_id: string
  readonly amount_cents: number
  readonly currency: string
  readonly for_email: string
  readonly message: string | null
  readonly buyer_email: string | null
  readonly buyer_name: string | null
  readonly source: string
  readonly status: "open" | "paid" | "expired" | "failed"
  readonly checkout_id: string | null
  readonly checkout_url: string | null
  readonly expires_at: Date | null
  readonly payment_intent_id: string | null
  readonly gift_card_id: string | null
  readonly created_at: Date
  readonly paid_at: Date | null
}

export const insertPurchase = (sql: SqlClient.SqlClient, row: PurchaseRow) =>
  sql`insert into gift_purchases ${sql.insert({ ...row })}`.pipe(Effect.asVoid)

/** The processor opened no checkout for it. */
export const purchaseFailed = (sql: SqlClient.SqlClient, id: string) =>
  sql`update gift_purchases set status = 'failed' where id = ${id}`.pipe(Effect.asVoid)

/** Its checkout, opened: answers the purchase after. */
export const purchaseOpened = (
  sql: SqlClient.SqlClient,
  id: string,
  checkout: { readonly id: string; readonly url: string; readonly expires_at: Date }
) =>
  sql<PurchaseRow>`update gift_purchases set checkout_id = ${checkout.id}, checkout_url = ${checkout.url}, expires_at = ${checkout.expires_at}
    where id = ${id} returning *`.pipe(Effect.map((rows) => rows[0]))

/** The org's purchase, held to the end of the caller's transaction. */
export const lockPurchase = (sql: SqlClient.SqlClient, orgId: string, id: string) =>
  sql<PurchaseRow>`select * from gift_purchases where id = ${id}::uuid and org_id = ${orgId}::uuid for update`.pipe(
    Effect.map((rows) => rows[0])
  )

/** Paid by the payment intent, with the card it issued. */
export const purchasePaid = (
  sql: SqlClient.SqlClient,
  id: string,
  cardId: string,
  paymentIntentId: string,
  now: Date
) =>
  sql`update gift_purchases set status = 'paid', gift_card_id = ${cardId}, payment_intent_id = ${paymentIntentId}, paid_at = ${now}
    where id = ${id}`.pipe(Effect.asVoid)

/** The checkout lapsed unpaid: its purchase, if still open, expired. */
export const purchaseExpired = (sql: SqlClient.SqlClient, checkoutId: string) =>
  sql`update gift_purchases set status = 'expired' where checkout_id = ${checkoutId} and status = 'open'`.pipe(
    Effect.asVoid
  )
