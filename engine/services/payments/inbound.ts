import { randomUUID } from "node:crypto"
import { Effect, Option } from "effect"
import { decideBooking } from "../../machines/booking.ts"
import type { ProcessorEvent, RawEvent } from "../../ports/Payments.ts"
import { machineRow, toBooking } from "../../store/bookingRow.ts"
import { retakeGift } from "../../store/giftCards.ts"
import { lockPurchase, purchaseExpired } from "../../store/giftPurchases.ts"
import {
  checkoutComplete,
  checkoutLapsed,
  insertPayment,
  lockRefunding,
  refundChanged,
  refundInFull,
  seenBefore
} from "../../store/payments.ts"
import { fn } from "../../tracing.ts"
import type { NewEvent } from "../Events.ts"
import { issuePurchased } from "../gifts/purchased.ts"
import { later, type PaymentsBase } from "./base.ts"
import { REFUND_BACKOFF } from "./refunds.ts"

/** The processor's events: payments landed (bookings and gift cards) and refunds settled, each handled once. */
export const paymentInbound = (base: PaymentsBase) => {
  const { sql, clock, processor, events, mail, wakeups, store, mailTo, tx } = base
  const seen = (id: string, type: string, now: Date) => seenBefore(sql, id, type, now)

  /** A payment landed on its checkout: the checkout complete, and the payment in the ledger once (whether it was new). */
  const ledger = (
    e: Extract<ProcessorEvent, { _tag: "PaymentLanded" | "GiftPaymentLanded" }>,
    of: { readonly booking_id: string } | { readonly booking_id: null; readonly gift_purchase_id: string },
    now: Date
  ) =>
    Effect.zipRight(
      checkoutComplete(sql, e.checkout_id),
      insertPayment(sql, {
        id: randomUUID(),
        org_id: e.org_id,
        ...of,
        checkout_id: e.checkout_id,
        payment_intent_id: e.payment_intent_id,
        amount_cents: e.amount_cents,
        currency: e.currency,
        created_at: now
      })
    )

  const lockBooking = (id: string, orgId: string) => Effect.option(store.lock(orgId, id))

  const appendFor = (orgId: string, out: ReadonlyArray<NewEvent>) =>
    out.length > 0 ? events.append(orgId, out) : Effect.void

  /**
   * A payment landed. It becomes the booking's payment when the booking has none: a hold not yet paid is confirmed (a
   * lapsed one only if its place is still free: the database takes it or refuses), a booking confirmed by hand and not
   * paid yet is paid (booking.paid), and a hold whose place is gone, or a cancelled booking, is cancelled with this
   * payment refunded in full (its fields say so: charged_cents, refund_cents null). A payment for a booking that has
   * one already, or that was paid by hand, is refunded in full and only the ledger shows it.
   */
  const landed = (e: Extract<ProcessorEvent, { _tag: "PaymentLanded" }>) => {
    const attempt = (placeLeft: boolean) =>
      tx(
        Effect.gen(function* () {
          const now = yield* clock.now
          if (yield* seen(e.event_id, e._tag, now)) return
          const row = yield* lockBooking(e.booking_id, e.org_id)
          if (Option.isNone(row))
            return yield* Effect.logWarning(`payments: ${e.payment_intent_id} names no booking ${e.booking_id}`)
          const b = row.value
          if (!(yield* ledger(e, { booking_id: b.id }, now))) return
          const paid = { payment_intent_id: e.payment_intent_id, charged_cents: e.amount_cents }
          const backWhole = refundInFull(sql, e.payment_intent_id, now)
          // The booking has its payment: this one goes back whole.
          if (b.payment_intent_id !== null) return yield* backWhole
          const pay = { type: "pay", at: now.toISOString() } as const
          if (b.status === "confirmed") {
            // Confirmed by hand before its checkout closed: the payment pays it, unless it was paid by hand already.
            if (!decideBooking(machineRow(b), pay).ok) return yield* backWhole
            const gift = b.gift_returned_at == null ? b.gift_cents : 0
            const applied = yield* store.apply(b, pay, now, { ...paid, paid_cents: e.amount_cents + gift })
            return yield* appendFor(b.org_id, applied.events)
          }
          if (b.status === "cancelled") {
            yield* backWhole
            return yield* store.recordMoney(
              b.id,
              e.payment_intent_id,
              { ...paid, refund_cents: null, refund_next_at: now },
              true
            )
          }
          // A lapsed hold whose gift card part went back needs the card to pay it again.
          const giftPaid = placeLeft ? yield* retakeGift(sql, b, now) : true
          if (placeLeft && giftPaid) {
            // Retaken from the card (its part was let go when the hold lapsed), or still reserved: taken on confirming.
            const retaken = b.gift_returned_at != null && b.gift_card_id !== null && b.gift_cents > 0
            const gift = { gift_returned_at: null, ...(retaken ? { gift_taken_at: now } : {}) }
            const applied = yield* store.apply({ ...b, ...gift }, pay, now, {
              ...paid,
              paid_cents: e.amount_cents + b.gift_cents,
              ...gift
            })
            yield* mailTo("confirmed", applied.booking)
            return yield* appendFor(b.org_id, applied.events)
          }
          yield* backWhole
          const applied = yield* store.apply(b, { type: "cancel", at: now.toISOString() }, now, {
            ...paid,
            cancel_reason: "paid_after_hold_lapsed_no_room",
            refund_cents: null,
            refund_next_at: now
          })
          yield* mailTo("cancelled", applied.booking)
          return yield* appendFor(b.org_id, applied.events)
        })
      )
    return attempt(true).pipe(
      Effect.catchIf(
        (x) => x._tag !== "SqlError",
        () => attempt(false)
      ),
      Effect.zipLeft(wakeups.poke)
    )
  }

  /**
   * The checkout of a gift card purchase was paid: the payment goes in the ledger (once per payment intent) and
   * the purchase's card is issued, once: the purchase row is locked and a purchase that has its card already
   * issues none (a second payment for it, which one checkout cannot make, would be refunded in full).
   */
  const giftLanded = (e: Extract<ProcessorEvent, { _tag: "GiftPaymentLanded" }>) =>
    tx(
      Effect.gen(function* () {
        const now = yield* clock.now
        if (yield* seen(e.event_id, e._tag, now)) return
        const p = yield* lockPurchase(sql, e.org_id, e.gift_purchase_id)
        if (p === undefined)
          return yield* Effect.logWarning(
            `payments: ${e.payment_intent_id} names no gift purchase ${e.gift_purchase_id}`
          )
        if (!(yield* ledger(e, { booking_id: null, gift_purchase_id: p.id }, now))) return
        if (p.gift_card_id !== null) return yield* refundInFull(sql, e.payment_intent_id, now)
        yield* appendFor(p.org_id, yield* issuePurchased(sql, mail, p, e.payment_intent_id, now))
      })
    ).pipe(Effect.zipLeft(wakeups.poke))

  const owners = (orgId: string) =>
    sql<{
      email: string
    }>`select email from members where org_id = ${orgId} and role = 'owner' and removed_at is null`

  /** A refund settled, matched to the payment whose refund is on its way (by refund id, or by payment when it has none yet). */
  const settled = (refundId: string | null, pi: string, outcome: { ok: true } | { ok: false; reason: string }) =>
    Effect.gen(function* () {
      const now = yield* clock.now
      const p = yield* lockRefunding(sql, pi, refundId)
      if (p === undefined) return
      const attempts = p.refund_attempts + 1
      const final = !outcome.ok && attempts > REFUND_BACKOFF.length
      const change = outcome.ok
        ? { refund_state: "refunded", refunded_at: now, refund_next_at: null }
        : {
            refund_state: final ? "failed" : "pending",
            refund_attempts: attempts,
            refund_error: outcome.reason,
            refund_failed_at: now,
            refund_next_at: final ? null : later(now, REFUND_BACKOFF[attempts - 1])
          }
      yield* refundChanged(sql, p.id, { ...change, refund_id: refundId ?? p.refund_id })
      // A gift purchase's payment (refunded only when paid twice) has no booking to mirror it or event to tell.
      if (p.booking_id === null) return
      const { refund_state: _, refund_attempts: __, ...mirror } = change as Record<string, unknown>
      yield* store.recordMoney(p.booking_id, pi, {
        ...mirror,
        refund_id: refundId ?? p.refund_id,
        ...(outcome.ok ? { refund_failed_at: null, refund_error: null } : {})
      })
      if (!outcome.ok && !final) return
      const booking = yield* store.find(p.org_id, p.booking_id).pipe(Effect.orDie)
      const payment = { payment_intent_id: pi, refund_id: refundId ?? p.refund_id, refund_cents: p.refund_cents }
      yield* events.append(p.org_id, [
        { type: outcome.ok ? "booking.refunded" : "booking.refund_failed", data: { ...toBooking(booking), payment } }
      ])
      if (outcome.ok) return
      for (const o of yield* owners(p.org_id)) {
        yield* mail.enqueue(p.org_id, {
          to: o.email,
          kind: "booking.refund_failed",
          bookingId: p.booking_id,
          subject: `Refund failed for good: ${booking.reference}`,
          text: `The refund of ${p.refund_cents} (minor units) for booking ${booking.reference} failed ${attempts} times and will not be retried.\nWhy: ${outcome.reason}\nPayment: ${pi}`
        })
      }
    })

  const handle = (e: ProcessorEvent): Effect.Effect<void> => {
    const once = <A>(body: (now: Date) => Effect.Effect<A, unknown>) =>
      tx(
        Effect.gen(function* () {
          const now = yield* clock.now
          if (yield* seen(e.event_id, e._tag, now)) return
          yield* body(now)
        })
      ).pipe(Effect.orDie)
    switch (e._tag) {
      case "PaymentLanded":
        return landed(e).pipe(Effect.orDie)
      case "GiftPaymentLanded":
        return giftLanded(e).pipe(Effect.orDie)
      case "CheckoutExpired":
        return once(() => Effect.zipRight(checkoutLapsed(sql, e.checkout_id), purchaseExpired(sql, e.checkout_id)))
      case "RefundSucceeded":
        return once(() => settled(e.refund_id, e.payment_intent_id, { ok: true }))
      case "RefundFailed":
        return once(() => settled(e.refund_id, e.payment_intent_id, { ok: false, reason: e.reason }))
      case "Ignored":
        return once(() => Effect.void)
    }
  }

  /** The inbound path of every processor event: verified on the raw body, then handled once. */
  const receive = fn("Payments.receive")(function* (raw: RawEvent) {
    const event = yield* processor.verifyEvent(raw)
    yield* handle(event)
    return event
  })

  return { receive, settled } as const
}
