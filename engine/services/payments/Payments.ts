import { randomUUID } from "node:crypto"
import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Either, Option } from "effect"
import { BookingNotHeld, NotPaidOnline, notFound } from "../../errors/index.ts"
import { decideBooking } from "../../machines/booking.ts"
import { PaymentProcessor, type ProcessorEvent, type RawEvent, type Refund } from "../../ports/Payments.ts"
import { type BookingRow, machineRow, toBooking } from "../../store/bookingRow.ts"
import { bookingStore } from "../../store/bookings.ts"
import { retakeGift } from "../../store/giftCards.ts"
import { transaction } from "../../store/transaction.ts"
import { fn } from "../../tracing.ts"
import { EngineClock } from "../Clock.ts"
import { Events, type NewEvent } from "../Events.ts"
import { issuePurchased, type PurchaseRow } from "../gifts/purchased.ts"
import { Jobs } from "../Jobs.ts"
import { Links } from "../Links.ts"
import { type BookingMailKind, bookingMail } from "../mail/bookingMails.ts"
import { Mail } from "../mail/Mail.ts"
import { Wakeups } from "../Wakeups.ts"
import { chargeOf, REFUND_BACKOFF } from "./refunds.ts"

/** A checkout opened again for a hold that lapsed (the nudge's link) stays open this long. */
const FRESH_CHECKOUT_MINUTES = 30
/** A refund the processor took is looked at again after this long if no event settled it. */
const POLL_SECONDS = 3600
/** A refund being taken is leased this long, so another instance leaves it alone. */
const LEASE_SECONDS = 60

interface PaymentRow {
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

interface CheckoutSource extends BookingRow {
  readonly o_name: string
  readonly deposit_cents: number | null
  readonly deposit_percent: number | null
  readonly c_email: string | null
  readonly currency: string
  readonly payments: "online" | "offline"
}

const later = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000)

/**
 * Online payments: checkouts at the processor for held bookings, the inbound events that confirm them (deduplicated
 * on the processor's event id, in any order), and refunds, taken at the processor by a job after the cancelling
 * transaction commits, settled by the processor's events (or by asking it), retried with backoff when they fail.
 * Every movement of money is a row of `payments` written in the same transaction as the booking it changes.
 */
export class Payments extends Effect.Service<Payments>()("Payments", {
  dependencies: [Events.Default, Mail.Default, Jobs.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const processor = yield* PaymentProcessor
    const events = yield* Events
    const mail = yield* Mail
    const jobs = yield* Jobs
    const wakeups = yield* Wakeups
    const store = yield* bookingStore
    const links = yield* Links
    const mailTo = (kind: BookingMailKind, b: BookingRow & { c_email?: string | null; o_name?: string }) =>
      b.c_email
        ? mail.enqueue(b.org_id, bookingMail(kind, b, b.c_email, b.o_name ?? "your booking", links.publicUrl))
        : Effect.void
    const tx = <A, E, R>(effect: Effect.Effect<A, E, R>) => effect.pipe(transaction(sql))

    const source = (where: { id: string } | { handle: string }) =>
      sql<CheckoutSource>`select b.*, o.name as o_name, o.deposit_cents, o.deposit_percent, c.email as c_email, g.currency, g.payments
        from bookings b join offerings o on o.id = b.offering_id join orgs g on g.id = b.org_id join customers c on c.id = b.customer_id
        where ${"id" in where ? sql`b.id = ${where.id}::uuid` : sql`b.handle = ${where.handle}`}`.pipe(
        Effect.orDie,
        Effect.map((r) => Option.fromNullable(r[0]))
      )

    /** Opens a checkout for a held, priced booking of an org that takes payments online; its URL, or none. */
    const open = (b: CheckoutSource) =>
      Effect.gen(function* () {
        // What a gift card paid is paid already: the checkout is for the rest.
        if (b.payments !== "online" || b.status !== "held" || b.total_cents - b.gift_cents <= 0)
          return Option.none<string>()
        const now = yield* clock.now
        const keeping = b.keeps_place && b.expires_at !== null && b.expires_at.getTime() > now.getTime()
        const [{ n }] = yield* sql<{
          n: number
        }>`select count(*)::int as n from payment_checkouts where booking_id = ${b.id}`.pipe(Effect.orDie)
        const amount = chargeOf(b.total_cents - b.gift_cents, b)
        const checkout = yield* processor.createCheckout({
          org_id: b.org_id,
          booking_id: b.id,
          amount_cents: amount,
          currency: b.currency,
          expires_at: keeping ? b.expires_at! : later(now, FRESH_CHECKOUT_MINUTES * 60),
          description: b.o_name,
          starts_at: b.starts_at,
          customer_email: b.c_email,
          idempotency_key: `${b.id}:checkout:${n}`
        })
        // The processor was called outside the booking's lock: if the hold was confirmed or cancelled meanwhile (which
        // closed the checkouts it knew of), this one is closed as it is written, and never shown.
        const needed = yield* Effect.gen(function* () {
          const held = yield* store.checkoutOpened(b.org_id, b.id, checkout.url, now)
          yield* sql`insert into payment_checkouts ${sql.insert({
            id: checkout.id,
            org_id: b.org_id,
            booking_id: b.id,
            amount_cents: amount,
            currency: b.currency,
            url: checkout.url,
            expires_at: checkout.expires_at,
            status: held ? "open" : "expiring",
            created_at: now
          })} on conflict (id) do nothing`
          return held
        }).pipe(transaction(sql), Effect.orDie)
        if (!needed) yield* wakeups.poke
        return needed ? Option.some(checkout.url) : Option.none<string>()
      })

    /** After bookings.create committed: the checkout of a priced hold, outside any lock. A processor failure leaves it without one. */
    const checkoutFor = fn("Payments.checkoutFor")(function* (bookingId: string) {
      const b = yield* source({ id: bookingId })
      if (Option.isNone(b)) return Option.none<string>()
      return yield* open(b.value).pipe(
        Effect.catchTag("ProcessorFailed", (e) =>
          Effect.as(Effect.logWarning("payments: no checkout for a new hold", e.message), Option.none<string>())
        )
      )
    })

    /** The guest's link to pay (the nudge mail's): a fresh checkout for their held booking. */
    const resume = fn("Payments.resume")(function* (handle: string) {
      const b = yield* source({ handle })
      if (Option.isNone(b)) return yield* notFound("booking")
      if (b.value.status !== "held") return yield* new BookingNotHeld({ message: `the booking is ${b.value.status}` })
      const url = yield* open(b.value)
      if (Option.isSome(url)) return url.value
      const after = yield* source({ handle })
      if (Option.isSome(after) && after.value.status !== "held")
        return yield* new BookingNotHeld({ message: `the booking is ${after.value.status}` })
      return yield* new NotPaidOnline({ message: "this booking is not paid online" })
    })

    /**
     * A checkout for a gift card purchase (gift_cards.purchase): no booking, no place held. Written to
     * payment_checkouts beside the booking checkouts; the purchase row exists before (its id is the metadata).
     */
    const giftCheckout = fn("Payments.giftCheckout")(function* (p: {
      readonly id: string
      readonly org_id: string
      readonly amount_cents: number
      readonly currency: string
      readonly description: string
      readonly buyer_email: string | null
      readonly expires_at: Date
    }) {
      const now = yield* clock.now
      const checkout = yield* processor.createCheckout({
        org_id: p.org_id,
        booking_id: null,
        gift_purchase_id: p.id,
        amount_cents: p.amount_cents,
        currency: p.currency,
        expires_at: p.expires_at,
        description: p.description,
        starts_at: null,
        customer_email: p.buyer_email,
        idempotency_key: `${p.id}:gift_checkout`
      })
      yield* sql`insert into payment_checkouts ${sql.insert({
        id: checkout.id,
        org_id: p.org_id,
        booking_id: null,
        gift_purchase_id: p.id,
        amount_cents: p.amount_cents,
        currency: p.currency,
        url: checkout.url,
        expires_at: checkout.expires_at,
        created_at: now
      })} on conflict (id) do nothing`.pipe(Effect.orDie)
      return checkout
    })

    const seen = (id: string, type: string, now: Date) =>
      Effect.map(
        sql`insert into processor_events (id, type, received_at) values (${id}, ${type}, ${now}) on conflict (id) do nothing returning id`,
        (r) => r.length === 0
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
            yield* sql`update payment_checkouts set status = 'complete' where id = ${e.checkout_id}`
            const inserted = yield* sql`insert into payments ${sql.insert({
              id: randomUUID(),
              org_id: e.org_id,
              booking_id: b.id,
              checkout_id: e.checkout_id,
              payment_intent_id: e.payment_intent_id,
              amount_cents: e.amount_cents,
              currency: e.currency,
              created_at: now
            })} on conflict (payment_intent_id) do nothing returning id`
            if (inserted.length === 0) return
            const paid = { payment_intent_id: e.payment_intent_id, charged_cents: e.amount_cents }
            const refundInFull = sql`update payments set refund_cents = amount_cents, refund_state = 'pending', refund_next_at = ${now} where payment_intent_id = ${e.payment_intent_id}`
            // The booking has its payment: this one goes back whole.
            if (b.payment_intent_id !== null) return yield* refundInFull
            const pay = { type: "pay", at: now.toISOString() } as const
            if (b.status === "confirmed") {
              // Confirmed by hand before its checkout closed: the payment pays it, unless it was paid by hand already.
              if (!decideBooking(machineRow(b), pay).ok) return yield* refundInFull
              const gift = b.gift_returned_at == null ? b.gift_cents : 0
              const applied = yield* store.apply(b, pay, now, { ...paid, paid_cents: e.amount_cents + gift })
              return yield* appendFor(b.org_id, applied.events)
            }
            if (b.status === "cancelled") {
              yield* refundInFull
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
            yield* refundInFull
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
          const [p] =
            yield* sql<PurchaseRow>`select * from gift_purchases where id = ${e.gift_purchase_id}::uuid and org_id = ${e.org_id}::uuid for update`
          if (p === undefined)
            return yield* Effect.logWarning(
              `payments: ${e.payment_intent_id} names no gift purchase ${e.gift_purchase_id}`
            )
          yield* sql`update payment_checkouts set status = 'complete' where id = ${e.checkout_id}`
          const inserted = yield* sql`insert into payments ${sql.insert({
            id: randomUUID(),
            org_id: e.org_id,
            booking_id: null,
            gift_purchase_id: p.id,
            checkout_id: e.checkout_id,
            payment_intent_id: e.payment_intent_id,
            amount_cents: e.amount_cents,
            currency: e.currency,
            created_at: now
          })} on conflict (payment_intent_id) do nothing returning id`
          if (inserted.length === 0) return
          if (p.gift_card_id !== null) {
            yield* sql`update payments set refund_cents = amount_cents, refund_state = 'pending', refund_next_at = ${now} where payment_intent_id = ${e.payment_intent_id}`
            return
          }
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
        const [p] =
          yield* sql<PaymentRow>`select * from payments where payment_intent_id = ${pi} and refund_state in ('pending', 'taken')
          and (${refundId}::text is null or refund_id is null or refund_id = ${refundId}) for update`
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
        yield* sql`update payments set ${sql.update({ ...change, refund_id: refundId ?? p.refund_id })} where id = ${p.id}`
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
          return once(() =>
            Effect.zipRight(
              sql`update payment_checkouts set status = 'expired' where id = ${e.checkout_id} and status in ('open', 'expiring')`,
              sql`update gift_purchases set status = 'expired' where checkout_id = ${e.checkout_id} and status = 'open'`
            )
          )
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
    const lease = (which: Statement.Fragment, now: Date) =>
      tx(
        Effect.gen(function* () {
          const rows = yield* sql<PaymentRow>`select * from payments where ${which} for update skip locked`
          if (rows.length > 0)
            yield* sql`update payments set refund_next_at = ${later(now, LEASE_SECONDS)} where id in ${sql.in(rows.map((r) => r.id))}`
          return rows
        })
      )

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
        const rows = yield* sql<{ refund_state: string | null; refund_failed_at: Date | null }>`
          select refund_state, refund_failed_at from payments where payment_intent_id in ${sql.in(paymentIntentIds)}
          and refund_state is not null`
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
              yield* sql`update payments set refund_next_at = ${later(now, POLL_SECONDS)} where id = ${p.id} and refund_state = 'taken'`
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
              const moved =
                yield* sql`update payments set refund_id = ${r.id}, refund_state = 'taken', refund_next_at = ${later(now, POLL_SECONDS)}
            where id = ${p.id} and refund_state = 'pending' returning id`
              if (moved.length > 0) {
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
      const rows = yield* sql<{
        id: string
      }>`select id from payment_checkouts where status = 'expiring' order by created_at limit 50`
      for (const c of rows) {
        yield* processor.expireCheckout(c.id).pipe(
          Effect.zipRight(
            sql`update payment_checkouts set status = 'expired' where id = ${c.id} and status = 'expiring'`
          ),
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

    yield* jobs.register({
      name: "payments.refunds",
      run: refunds,
      next: sql`(select min(refund_next_at) from payments where refund_state in ('pending', 'taken'))`
    })
    yield* jobs.register({
      name: "payments.expire_checkouts",
      run: expire,
      next: sql`(select min(created_at) from payment_checkouts where status = 'expiring')`
    })
    yield* jobs.register({
      name: "payments.processor",
      run: processorDue,
      ...(processor.next ? { next: processor.next } : {})
    })

    return { checkoutFor, resume, giftCheckout, receive, refundNow, now: clock.now, processor: processor.name } as const
  })
}) {}
