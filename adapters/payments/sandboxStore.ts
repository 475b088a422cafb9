import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Refund } from "../../engine/ports/Payments.ts"
import type { SandboxCheckoutRow } from "../../engine/ports/SandboxPages.ts"

/**
 * The sandbox processor's own tables, `sandbox_checkouts` and `sandbox_refunds` (its side of a processor: what the
 * engine's tables mirror). This file is their only writer.
 */

export interface SandboxRefund {
  readonly id: string
  readonly status: Refund["status"]
  readonly failure_reason: string | null
}

/** A settled refund whose event may have to be told again. */
export interface UntoldRefund extends SandboxRefund {
  readonly payment_intent_id: string
  readonly event_attempts: number
  /** The engine still waits on the payment's refund. */
  readonly waiting: boolean
}

export interface NewSandboxCheckout {
  readonly id: string
  readonly org_id: string
  readonly booking_id: string | null
  readonly gift_purchase_id: string | null
  readonly amount_cents: number
  readonly currency: string
  readonly description: string
  readonly starts_at: Date | null
  readonly expires_at: Date
  readonly created_at: Date
}

export interface NewSandboxRefund extends SandboxRefund {
  readonly payment_intent_id: string
  readonly amount_cents: number
  readonly idempotency_key: string
  readonly due_at: Date
  readonly created_at: Date
}

const seconds = (at: Date, n: number) => new Date(at.getTime() + n * 1000)

/** A checkout, once per id (the id is the hash of its idempotency key): when it expires, as first written. */
export const openCheckout = (sql: SqlClient.SqlClient, c: NewSandboxCheckout) =>
  Effect.gen(function* () {
    yield* sql`insert into sandbox_checkouts ${sql.insert({ ...c })} on conflict (id) do nothing`
    const [row] = yield* sql<{ expires_at: Date }>`select expires_at from sandbox_checkouts where id = ${c.id}`
    return row.expires_at
  })

export const expireCheckout = (sql: SqlClient.SqlClient, id: string) =>
  sql`update sandbox_checkouts set status = 'expired' where id = ${id} and status = 'open'`.pipe(Effect.asVoid)

/** What a payment charged and how much of it refunds took (those that did not fail). */
export const refundable = (sql: SqlClient.SqlClient, paymentIntentId: string) =>
  sql<{ amount_cents: number; taken: number }>`select c.amount_cents,
      coalesce((select sum(amount_cents) from sandbox_refunds f where f.payment_intent_id = c.payment_intent_id and f.status <> 'failed'), 0)::int as taken
    from sandbox_checkouts c where c.payment_intent_id = ${paymentIntentId}`.pipe(Effect.map((rows) => rows[0]))

export const refundByKey = (sql: SqlClient.SqlClient, idempotencyKey: string) =>
  sql<SandboxRefund>`select id, status, failure_reason from sandbox_refunds where idempotency_key = ${idempotencyKey}`.pipe(
    Effect.map((rows) => rows[0])
  )

export const refundById = (sql: SqlClient.SqlClient, id: string) =>
  sql<SandboxRefund>`select id, status, failure_reason from sandbox_refunds where id = ${id}`.pipe(
    Effect.map((rows) => rows[0])
  )

export const insertRefund = (sql: SqlClient.SqlClient, row: NewSandboxRefund) =>
  sql`insert into sandbox_refunds ${sql.insert({ ...row })}`.pipe(Effect.asVoid)

/** Pending refunds whose settle time came, locked (skipping those another instance holds), with the paying card. */
export const refundsToSettle = (sql: SqlClient.SqlClient, now: Date, limit: number) =>
  sql<{ id: string; payment_intent_id: string; card_last4: string | null }>`
    select f.id, f.payment_intent_id, c.card_last4 from sandbox_refunds f join sandbox_checkouts c on c.payment_intent_id = f.payment_intent_id
    where f.status = 'pending' and f.due_at <= ${now} order by f.due_at limit ${limit} for update of f skip locked`

/** Settled (succeeded, or failed with the reason), its event due again `redeliver` seconds later. */
export const settleRefund = (
  sql: SqlClient.SqlClient,
  id: string,
  failure: string | null,
  now: Date,
  redeliver: number
) =>
  sql`update sandbox_refunds set status = ${failure === null ? "succeeded" : "failed"}, failure_reason = ${failure},
    event_due_at = ${seconds(now, redeliver)} where id = ${id}`.pipe(Effect.asVoid)

/** Settled refunds whose event is due again, locked, with whether the engine still waits on them. */
export const refundsUntold = (sql: SqlClient.SqlClient, now: Date, limit: number) =>
  sql<UntoldRefund>`
    select f.id, f.payment_intent_id, f.status, f.failure_reason, f.event_attempts,
      exists (select 1 from payments p where p.payment_intent_id = f.payment_intent_id and p.refund_state in ('pending', 'taken')) as waiting
    from sandbox_refunds f where f.event_due_at <= ${now} and f.status <> 'pending'
    order by f.event_due_at limit ${limit} for update of f skip locked`

/** Its event told once more: due again at `again`, or never (null). */
export const refundTold = (sql: SqlClient.SqlClient, id: string, again: Date | null) =>
  sql`update sandbox_refunds set event_attempts = event_attempts + 1, event_due_at = ${again} where id = ${id}`.pipe(
    Effect.asVoid
  )

/** Paid checkouts whose event is due again, locked, with whether the engine has the payment. */
export const checkoutsUnheard = (sql: SqlClient.SqlClient, now: Date, limit: number) =>
  sql<SandboxCheckoutRow & { taken: boolean }>`
    select c.*, exists (select 1 from payments p where p.payment_intent_id = c.payment_intent_id) as taken
    from sandbox_checkouts c
    where c.event_due_at <= ${now} and c.status = 'complete'
    order by c.event_due_at limit ${limit} for update of c skip locked`

/** Its event told once more: due again at `again`, or never (null). */
export const checkoutTold = (sql: SqlClient.SqlClient, id: string, again: Date | null) =>
  sql`update sandbox_checkouts set event_attempts = event_attempts + 1, event_due_at = ${again} where id = ${id}`.pipe(
    Effect.asVoid
  )

/** The checkout page's view: the checkout with its org's zone and locale. */
export const checkoutView = (sql: SqlClient.SqlClient, id: string) =>
  sql<SandboxCheckoutRow>`select c.*, o.timezone, o.locale from sandbox_checkouts c join orgs o on o.id = c.org_id
    where c.id = ${id}`.pipe(Effect.map((rows) => rows[0]))

export const lockCheckout = (sql: SqlClient.SqlClient, id: string) =>
  sql<SandboxCheckoutRow>`select * from sandbox_checkouts where id = ${id} for update`.pipe(
    Effect.map((rows) => rows[0])
  )

export const checkoutDeclined = (sql: SqlClient.SqlClient, id: string) =>
  sql`update sandbox_checkouts set declines = declines + 1 where id = ${id}`.pipe(Effect.asVoid)

/** Paid by the card: its payment intent, the card's last four, its event due again `redeliver` seconds later. */
export const checkoutPaid = (
  sql: SqlClient.SqlClient,
  id: string,
  paymentIntentId: string,
  last4: string,
  now: Date,
  redeliver: number
) =>
  sql<SandboxCheckoutRow>`update sandbox_checkouts set status = 'complete', payment_intent_id = ${paymentIntentId},
    card_last4 = ${last4}, event_due_at = ${seconds(now, redeliver)} where id = ${id} returning *`.pipe(
    Effect.map((rows) => rows[0])
  )

/** When the sandbox has something due next: a subquery for the job scheduler's `next`. */
export const nextDue = (sql: SqlClient.SqlClient) =>
  sql`least((select min(due_at) from sandbox_refunds where status = 'pending'), (select min(event_due_at) from sandbox_checkouts where event_due_at is not null),
    (select min(event_due_at) from sandbox_refunds where event_due_at is not null))`
