import { Effect } from "effect"
import { NoFailedRefund } from "../../errors/index.ts"
import { toBooking } from "../../store/bookingRow.ts"
import { lockPaymentsOf, refundsDueAgain } from "../../store/payments.ts"
import { fn } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import type { PaymentsBase } from "./base.ts"

const STATE_SAYS: Record<string, string> = {
  pending: "its refund is on its way (the engine retries it on its own schedule: refund_next_at)",
  taken: "its refund is on its way at the processor",
  refunded: "it was refunded"
}

/**
 * bookings.retry_refund (not in the spec, our extension; docs/payments.md): the refunds of a booking's payments that
 * failed for good are due again, now. Under the booking's lock each goes back to `pending` with the same amount (a
 * ledger row is one payment with one refund, which failed: nothing of it was refunded; refund_failed_at and refund_error
 * are cleared, on the booking too, so it reads as a refund due), so of two retries at once one
 * finds them failed and the other finds nothing failed (409). After the commit they are taken at the processor at once
 * (`refundNow`) under the next attempt's idempotency key, and settle as any refund: booking.refunded, or
 * booking.refund_failed again with the owners emailed (no further automatic retries: the attempts were used).
 */
export const paymentRetries = (
  base: PaymentsBase,
  refundNow: (paymentIntentIds: ReadonlyArray<string>) => Effect.Effect<unknown>
) => {
  const { sql, clock, store, tx } = base

  const retryRefund = fn("Payments.retryRefund")(function* (id: string) {
    const org = yield* CurrentOrg
    const due = yield* tx(
      Effect.gen(function* () {
        const now = yield* clock.now
        const row = yield* store.lock(org.id, id)
        const rows = yield* lockPaymentsOf(sql, row.id)
        const failed = rows.filter((p) => p.refund_state === "failed")
        if (failed.length === 0) {
          const own = rows.find((p) => p.payment_intent_id === row.payment_intent_id && p.refund_state !== null)
          const says = own === undefined ? "nothing of it is being refunded" : STATE_SAYS[own.refund_state ?? ""]
          return yield* new NoFailedRefund({ message: `no refund of this booking failed for good: ${says}` })
        }
        // Due again, as a new refund: what failed before stays in its booking.refund_failed event and the owners' mail.
        const again = { refund_next_at: now, refund_failed_at: null, refund_error: null }
        yield* refundsDueAgain(
          sql,
          failed.map((p) => p.id),
          now
        )
        if (failed.some((p) => p.payment_intent_id === row.payment_intent_id) && row.payment_intent_id !== null)
          yield* store.recordMoney(row.id, row.payment_intent_id, again)
        return failed.map((p) => p.payment_intent_id)
      })
    ).pipe(Effect.catchTag("SqlError", (e) => Effect.die(e)))
    yield* refundNow(due)
    return toBooking(yield* store.find(org.id, id))
  })

  return { retryRefund } as const
}
