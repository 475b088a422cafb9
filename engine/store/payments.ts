import type { SqlClient, Statement } from "@effect/sql"
import { Effect } from "effect"

/**
 * Tables `payments` (the ledger of money that landed online, one row per processor payment, with its refund),
 * `payment_checkouts` (every checkout opened at the processor, for a booking or a gift card purchase) and
 * `processor_events` (the processor's events already handled). This store is their only writer.
 */

export interface PaymentRow {
  readonly id: string
  readonly org_id: string
  /** null for the payment of a gift card purchase (gift_purchase_id). */
  readonly booking_id: string | null
  readonly gift_purchase_id: string | null
  readonly payment_intent_id: string
  readonly amount_cents: number
  readonly refund_cents: number
  readonly refund_state: "pending" | "taken" | "refunded" | "failed" | null
  readonly refund_id: string | null
  readonly refund_attempts: number
}

export interface NewPayment {
  readonly id: string
  readonly org_id: string
  readonly booking_id: string | null
  readonly gift_purchase_id?: string
  readonly checkout_id: string
  readonly payment_intent_id: string
  readonly amount_cents: number
  readonly currency: string
  readonly created_at: Date
}

export interface NewCheckout {
  readonly id: string
  readonly org_id: string
  readonly booking_id: string | null
  readonly gift_purchase_id?: string
  readonly amount_cents: number
  readonly currency: string
  readonly url: string
  readonly expires_at: Date
  readonly status?: "open" | "expiring"
  readonly created_at: Date
}

// processor_events

/** Whether the processor's event was handled before; noted as handled now if not. */
export const seenBefore = (sql: SqlClient.SqlClient, id: string, type: string, now: Date) =>
  sql`insert into processor_events (id, type, received_at) values (${id}, ${type}, ${now})
    on conflict (id) do nothing returning id`.pipe(Effect.map((rows) => rows.length === 0))

// payment_checkouts

/** How many checkouts a booking had opened (the next one's idempotency key counts them). */
export const checkoutCount = (sql: SqlClient.SqlClient, bookingId: string) =>
  sql<{ n: number }>`select count(*)::int as n from payment_checkouts where booking_id = ${bookingId}`.pipe(
    Effect.map((rows) => rows[0].n)
  )

/** A checkout the processor opened (once: it may be written again by a retry). */
export const insertCheckout = (sql: SqlClient.SqlClient, checkout: NewCheckout) =>
  sql`insert into payment_checkouts ${sql.insert({ ...checkout })} on conflict (id) do nothing`.pipe(Effect.asVoid)

/** Its payment landed. */
export const checkoutComplete = (sql: SqlClient.SqlClient, id: string) =>
  sql`update payment_checkouts set status = 'complete' where id = ${id}`.pipe(Effect.asVoid)

/** The processor says it lapsed unpaid. */
export const checkoutLapsed = (sql: SqlClient.SqlClient, id: string) =>
  sql`update payment_checkouts set status = 'expired' where id = ${id} and status in ('open', 'expiring')`.pipe(
    Effect.asVoid
  )

/**
 * A booking stopped needing its open checkouts (it left its hold, confirmed or cancelled, or the hold lapsed): they are
 * marked `expiring` in the caller's transaction, and the payments.expire_checkouts job expires them at the processor
 * after the commit. A payment that still lands on one is a late payment (Payments.landed).
 */
export const closeCheckouts = (sql: SqlClient.SqlClient, bookingId: string) =>
  sql`update payment_checkouts set status = 'expiring' where booking_id = ${bookingId} and status = 'open'`.pipe(
    Effect.asVoid
  )

/** Checkouts to expire at the processor, oldest first. */
export const checkoutsExpiring = (sql: SqlClient.SqlClient, limit: number) =>
  sql<{ id: string }>`select id from payment_checkouts where status = 'expiring' order by created_at limit ${limit}`

/** Expired at the processor too. */
export const checkoutExpired = (sql: SqlClient.SqlClient, id: string) =>
  sql`update payment_checkouts set status = 'expired' where id = ${id} and status = 'expiring'`.pipe(Effect.asVoid)

/** When the oldest checkout to expire was opened: a subquery for the job scheduler's `next`. */
export const nextCheckoutToExpire = (sql: SqlClient.SqlClient) =>
  sql`(select min(created_at) from payment_checkouts where status = 'expiring')`

// payments

/** A payment that landed, once per payment intent: whether it was new. */
export const insertPayment = (sql: SqlClient.SqlClient, payment: NewPayment) =>
  sql`insert into payments ${sql.insert({ ...payment })} on conflict (payment_intent_id) do nothing returning id`.pipe(
    Effect.map((rows) => rows.length > 0)
  )

/** The whole payment goes back: its refund is due now. */
export const refundInFull = (sql: SqlClient.SqlClient, paymentIntentId: string, now: Date) =>
  sql`update payments set refund_cents = amount_cents, refund_state = 'pending', refund_next_at = ${now}
    where payment_intent_id = ${paymentIntentId}`.pipe(Effect.asVoid)

/** `amount` of a payment not being refunded yet goes back: its refund is due now. */
export const refundPart = (sql: SqlClient.SqlClient, paymentIntentId: string, amount: number, now: Date) =>
  sql`update payments set refund_cents = ${amount}, refund_state = 'pending', refund_next_at = ${now}
    where payment_intent_id = ${paymentIntentId} and refund_state is null`.pipe(Effect.asVoid)

/** The payment whose refund is on its way (by refund id, or any when the refund has none yet), locked. */
export const lockRefunding = (sql: SqlClient.SqlClient, paymentIntentId: string, refundId: string | null) =>
  sql<PaymentRow>`select * from payments where payment_intent_id = ${paymentIntentId} and refund_state in ('pending', 'taken')
    and (${refundId}::text is null or refund_id is null or refund_id = ${refundId}) for update`.pipe(
    Effect.map((rows) => rows[0])
  )

/** What became of a refund: the refund's columns given. */
export const refundChanged = (sql: SqlClient.SqlClient, id: string, change: Record<string, unknown>) =>
  sql`update payments set ${sql.update(change)} where id = ${id}`.pipe(Effect.asVoid)

/** The payments `which` picks, locked, skipping those another transaction holds, and leased until `until`. */
export const leaseRefunds = (sql: SqlClient.SqlClient, which: Statement.Fragment, until: Date) =>
  Effect.gen(function* () {
    const rows = yield* sql<PaymentRow>`select * from payments where ${which} for update skip locked`
    if (rows.length > 0)
      yield* sql`update payments set refund_next_at = ${until} where id in ${sql.in(rows.map((r) => r.id))}`
    return rows
  })

/** The refunds of these payments, as they stand. */
export const refundStates = (sql: SqlClient.SqlClient, paymentIntentIds: ReadonlyArray<string>) =>
  sql<{ refund_state: string | null; refund_failed_at: Date | null }>`
    select refund_state, refund_failed_at from payments where payment_intent_id in ${sql.in([...paymentIntentIds])}
    and refund_state is not null`

/** A refund the processor has not settled yet is looked at again at `at`. */
export const pollAgain = (sql: SqlClient.SqlClient, id: string, at: Date) =>
  sql`update payments set refund_next_at = ${at} where id = ${id} and refund_state = 'taken'`.pipe(Effect.asVoid)

/** The processor took the refund: whether this was the one to note it (it was still pending). */
export const refundTaken = (sql: SqlClient.SqlClient, id: string, refundId: string, pollAt: Date) =>
  sql`update payments set refund_id = ${refundId}, refund_state = 'taken', refund_next_at = ${pollAt}
    where id = ${id} and refund_state = 'pending' returning id`.pipe(Effect.map((rows) => rows.length > 0))

/** A booking's payments, locked, oldest first. */
export const lockPaymentsOf = (sql: SqlClient.SqlClient, bookingId: string) =>
  sql<PaymentRow>`select * from payments where booking_id = ${bookingId}
    order by created_at, payment_intent_id for update`

/** Refunds that failed for good, due again now as new refunds. */
export const refundsDueAgain = (sql: SqlClient.SqlClient, ids: ReadonlyArray<string>, now: Date) =>
  sql`update payments set ${sql.update({ refund_state: "pending", refund_next_at: now, refund_failed_at: null, refund_error: null })}
    where id in ${sql.in([...ids])} and refund_state = 'failed'`.pipe(Effect.asVoid)

/** When the next refund is due: a subquery for the job scheduler's `next`. */
export const nextRefundDue = (sql: SqlClient.SqlClient) =>
  sql`(select min(refund_next_at) from payments where refund_state in ('pending', 'taken'))`

// the ledger, as exports.payments reads it

/** A row of the ledger: a payment, or the refund of one (its time: when refunded or failed, else its payment's). */
export interface LedgerRow {
  readonly id: string
  readonly kind: "payment" | "refund"
  readonly at: Date
  readonly amount_cents: number
  readonly currency: string
  readonly status: string
  readonly booking_id: string | null
  readonly reference: string | null
  readonly gift_purchase_id: string | null
  readonly payment_intent_id: string
  readonly refund_id: string | null
}

export interface LedgerScope {
  readonly org: string
  readonly start: Date | undefined
  readonly end: Date | undefined
  readonly kind: "payment" | "refund" | undefined
  readonly bookingId: string | undefined
}

/** Where a row of the ledger sits in its order (time, payment id, payment before refund); none for another org's. */
export const ledgerCursor = (sql: SqlClient.SqlClient, org: string, kind: "payment" | "refund", id: string) =>
  sql<{
    at: Date
  }>`select ${kind === "payment" ? sql`created_at` : sql`coalesce(refunded_at, refund_failed_at, created_at)`} as at
    from payments where id = ${id}::uuid and org_id = ${org}
    ${kind === "refund" ? sql`and refund_state is not null and refund_cents > 0` : sql``}`.pipe(
    Effect.map((rows) => (rows[0] === undefined ? undefined : { kind, id, at: rows[0].at }))
  )

/**
 * A page of the ledger after a cursor, oldest first: each branch reads its own index (migration 0183) and the two
 * are merged in order, so a page costs its rows whatever its place in a long year.
 */
export const ledgerPage = (
  sql: SqlClient.SqlClient,
  s: LedgerScope,
  after: { readonly kind: "payment" | "refund"; readonly id: string; readonly at: Date } | undefined,
  limit: number
) => {
  const refundAt = sql`coalesce(p.refunded_at, p.refund_failed_at, p.created_at)`
  const within = (at: Statement.Fragment) =>
    sql`${s.start ? sql`and ${at} >= ${s.start}` : sql``} ${s.end ? sql`and ${at} < ${s.end}` : sql``}
      ${s.bookingId ? sql`and p.booking_id = ${s.bookingId}` : sql``}`
  const payments = sql`select p.id, 'payment' as kind, 0 as ord, p.created_at as at, p.amount_cents, p.currency,
      'paid' as status, p.booking_id, p.gift_purchase_id, p.payment_intent_id, null::text as refund_id
    from payments p where p.org_id = ${s.org} ${within(sql`p.created_at`)}
    ${after ? sql`and (p.created_at, p.id) > (${after.at}, ${after.id}::uuid)` : sql``}`
  const refunds = sql`select p.id, 'refund' as kind, 1 as ord, ${refundAt} as at, p.refund_cents as amount_cents,
      p.currency, p.refund_state as status, p.booking_id, p.gift_purchase_id, p.payment_intent_id, p.refund_id
    from payments p where p.org_id = ${s.org} and p.refund_state is not null and p.refund_cents > 0 ${within(refundAt)}
    ${after ? (after.kind === "payment" ? sql`and (${refundAt}, p.id) >= (${after.at}, ${after.id}::uuid)` : sql`and (${refundAt}, p.id) > (${after.at}, ${after.id}::uuid)`) : sql``}`
  const branches =
    s.kind === "payment" ? payments : s.kind === "refund" ? refunds : sql`(${payments}) union all (${refunds})`
  return sql<LedgerRow>`select x.id::text as id, x.kind, x.at, x.amount_cents, x.currency, x.status,
      x.booking_id::text as booking_id, b.reference, x.gift_purchase_id::text as gift_purchase_id, x.payment_intent_id, x.refund_id
    from (${branches}) x left join bookings b on b.id = x.booking_id
    order by x.at, x.id, x.ord limit ${limit}`
}
