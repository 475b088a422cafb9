import type { Statement } from "@effect/sql"
import { Effect, Either } from "effect"
import type { Refund } from "../../ports/Payments.ts"
import {
  checkoutExpired,
  checkoutsExpiring,
  leaseRefunds,
  pollAgain,
  refundStates,
  refundTaken
} from "../../store/payments.ts"
import { LEASE_SECONDS, later, type PaymentRow, type PaymentsBase, POLL_SECONDS } from "./base.ts"
import type { paymentInbound } from "./inbound.ts"

/** The jobs of payments: refunds taken and polled, checkouts expired, the processor's due events. */
export const paymentRuns = (base: PaymentsBase, inbound: ReturnType<typeof paymentInbound>) => {
  const { sql, clock, processor, store, tx } = base
  const { receive, settled } = inbound
  const outcomeOf = (p: PaymentRow, r: Refund) =>
    r.status === "pending"
      ? Effect.void
      : settled(
          r.id,
          p.payment_intent_id,
          r.status === "succeeded"
            ? { ok: true }
            : { ok: false, reason: r.failure_reason ?? "the processor failed the refund" }
        )

  /** Leases the payments `which` picks (locked, skipping those another instance holds) for this run of refunds. */
  const lease = (which: Statement.Fragment, now: Date) => tx(leaseRefunds(sql, which, later(now, LEASE_SECONDS)))

  /** Takes due refunds at the processor (pending), or asks it about those it took and never settled (taken). */
  const refunds = Effect.gen(function* () {
    const now = yield* clock.now
    yield* take(
      yield* lease(
        sql`refund_state in ('pending', 'taken') and refund_next_at <= ${now} order by refund_next_at limit 20`,
        now
      ),
      now
    )
  }).pipe(Effect.orDie)

  /**
   * The refunds of these payments taken at the processor now rather than by the job (an offering deleted with its
   * bookings answers what became of them): each is then refunded (the processor says so at once), refund_failed (it
   * refused; retried with backoff as any refund) or refunding (on its way).
   */
  const refundNow = (paymentIntentIds: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      if (paymentIntentIds.length === 0) return { refunded: 0, refunding: 0, refund_failed: 0 }
      const now = yield* clock.now
      yield* take(
        yield* lease(sql`payment_intent_id in ${sql.in(paymentIntentIds)} and refund_state = 'pending'`, now),
        now
      )
      const rows = yield* refundStates(sql, paymentIntentIds)
      const refunded = rows.filter((r) => r.refund_state === "refunded").length
      const failed = rows.filter(
        (r) => r.refund_state === "failed" || (r.refund_state !== "refunded" && r.refund_failed_at !== null)
      ).length
      return { refunded, refunding: rows.length - refunded - failed, refund_failed: failed }
    }).pipe(Effect.orDie)

  const take = (due: ReadonlyArray<PaymentRow>, now: Date) =>
    Effect.gen(function* () {
      for (const p of due) {
        if (p.refund_state === "taken" && p.refund_id !== null) {
          const r = yield* Effect.either(processor.readRefund(p.refund_id))
          if (Either.isLeft(r) || r.right.status === "pending") {
            yield* pollAgain(sql, p.id, later(now, POLL_SECONDS))
          } else yield* tx(outcomeOf(p, r.right))
          continue
        }
        const taken = yield* Effect.either(
          processor.refund({
            payment_intent_id: p.payment_intent_id,
            amount_cents: p.refund_cents,
            idempotency_key: `${p.id}:refund:${p.refund_attempts}`,
            metadata:
              p.booking_id !== null
                ? { org_id: p.org_id, booking_id: p.booking_id }
                : { org_id: p.org_id, gift_purchase_id: p.gift_purchase_id ?? "" }
          })
        )
        if (Either.isLeft(taken)) {
          yield* tx(settled(null, p.payment_intent_id, { ok: false, reason: taken.left.message }))
          continue
        }
        const r = taken.right
        yield* tx(
          Effect.gen(function* () {
            if (yield* refundTaken(sql, p.id, r.id, later(now, POLL_SECONDS))) {
              if (p.booking_id !== null)
                yield* store.recordMoney(p.booking_id, p.payment_intent_id, {
                  refund_id: r.id,
                  refund_next_at: later(now, POLL_SECONDS)
                })
            }
            yield* outcomeOf({ ...p, refund_id: r.id }, r)
          })
        )
      }
    })

  /** Checkouts of holds that lapsed or were paid another way: expired at the processor too. */
  const expire = Effect.gen(function* () {
    const rows = yield* checkoutsExpiring(sql, 50)
    for (const c of rows) {
      yield* processor.expireCheckout(c.id).pipe(
        Effect.zipRight(checkoutExpired(sql, c.id)),
        Effect.catchTag("ProcessorFailed", (e) =>
          Effect.logWarning(`payments: checkout ${c.id} not expired`, e.message)
        )
      )
    }
  }).pipe(Effect.orDie)

  /** Events the processor has ready by the engine clock (the sandbox's refunds), through the same inbound path. */
  const processorDue = Effect.gen(function* () {
    for (const raw of yield* processor.due) {
      yield* receive(raw).pipe(Effect.catchAll((e) => Effect.logError("payments: a processor event was refused", e)))
    }
  })

  return { refunds, refundNow, expire, processorDue } as const
}
