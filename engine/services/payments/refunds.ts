import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { BookingRow } from "../../store/bookingRow.ts"
import { refundPart } from "../../store/payments.ts"

/** Retries of a failed refund wait this long (seconds), one after the other; after the last, it failed for good. */
export const REFUND_BACKOFF = [60, 600, 3600] as const

/** Half up to a whole minor unit: 12.5 -> 13. Exact for every total below 2^53 / 100. */
export const percentOf = (total: number, percent: number) => Math.floor((total * percent + 50) / 100)

/** What the checkout charges: the deposit (at most the total) or the whole total. */
export const chargeOf = (
  total: number,
  o: { readonly deposit_cents: number | null; readonly deposit_percent: number | null }
) =>
  o.deposit_cents !== null
    ? Math.min(o.deposit_cents, total)
    : o.deposit_percent !== null
      ? percentOf(total, o.deposit_percent)
      : total

/**
 * A booking being cancelled gives back what its online payment charged: `choice` null all of charged_cents, 0 none,
 * n that part. Runs in the cancelling transaction: it marks the payment's refund as due now (the refund job takes it
 * at the processor after the commit) and returns the booking's changes.
 */
export const refundOnCancel = (sql: SqlClient.SqlClient, row: BookingRow, choice: number | null, now: Date) =>
  Effect.gen(function* () {
    if (row.payment_intent_id === null || row.charged_cents === null)
      return choice === null ? {} : { refund_cents: choice }
    const amount = choice ?? row.charged_cents
    if (amount === 0) return { refund_cents: 0 }
    yield* refundPart(sql, row.payment_intent_id, amount, now)
    return { refund_cents: choice, refund_next_at: now }
  }).pipe(Effect.orDie)
