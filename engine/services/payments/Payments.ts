import { Effect } from "effect"
import { nextCheckoutToExpire, nextRefundDue } from "../../store/payments.ts"
import { Events } from "../Events.ts"
import { Jobs } from "../Jobs.ts"
import { Mail } from "../mail/Mail.ts"
import { paymentsBase } from "./base.ts"
import { paymentInbound } from "./inbound.ts"
import { paymentCheckouts } from "./opening.ts"
import { paymentRuns } from "./refundRuns.ts"
import { paymentRetries } from "./retry.ts"

/**
 * Online payments: checkouts at the processor for held bookings, the inbound events that confirm them (deduplicated
 * on the processor's event id, in any order), and refunds, taken at the processor by a job after the cancelling
 * transaction commits, settled by the processor's events (or by asking it), retried with backoff when they fail, and
 * once more when an owner asks (retryRefund) after they failed for good.
 * Every movement of money is a row of `payments` written in the same transaction as the booking it changes.
 */
export class Payments extends Effect.Service<Payments>()("Payments", {
  dependencies: [Events.Default, Mail.Default, Jobs.Default],
  effect: Effect.gen(function* () {
    const base = yield* paymentsBase
    const { sql, clock, processor, jobs } = base
    const { checkoutFor, resume, giftCheckout } = paymentCheckouts(base)
    const inbound = paymentInbound(base)
    const { receive } = inbound
    const { refunds, refundNow, expire, processorDue } = paymentRuns(base, inbound)
    const { retryRefund } = paymentRetries(base, refundNow)

    yield* jobs.register({
      name: "payments.refunds",
      run: refunds,
      next: nextRefundDue(sql)
    })
    yield* jobs.register({
      name: "payments.expire_checkouts",
      run: expire,
      next: nextCheckoutToExpire(sql)
    })
    yield* jobs.register({
      name: "payments.processor",
      run: processorDue,
      ...(processor.next ? { next: processor.next } : {})
    })

    return {
      checkoutFor,
      resume,
      giftCheckout,
      receive,
      refundNow,
      retryRefund,
      now: clock.now,
      processor: processor.name
    } as const
  })
}) {}
