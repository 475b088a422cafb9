import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import { EngineClock } from "../../engine/ports/Clock.ts"
import { Links } from "../../engine/ports/Links.ts"
import {
  type Checkout,
  type CheckoutRequest,
  InvalidSignature,
  PaymentProcessor,
  ProcessorEvent,
  ProcessorFailed,
  type RawEvent,
  type Refund,
  type RefundRequest
} from "../../engine/ports/Payments.ts"
import { type SandboxCheckoutRow, SandboxPages } from "../../engine/ports/SandboxPages.ts"
import { Wakeups } from "../../engine/ports/Wakeups.ts"
import * as store from "./sandboxStore.ts"

/** Stripe's test cards, as the sandbox reads them (spaces ignored). */
export const CARDS = {
  pays: "4242424242424242",
  declined: "4000000000000002",
  refundFails: "4000000000005126"
} as const
/** A sandbox refund is settled this long after it is taken, on the engine clock. */
export const SETTLE_SECONDS = 5
/** A payment's or refund's event is delivered again after 10 s, then 20, 40, ... (8 times in all), until the engine has taken it. */
const REDELIVER_SECONDS = 10
const REDELIVERIES = 8

const token = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`

/**
 * The built-in processor (no keys): checkouts are pages of this server at PUBLIC_URL/pay/{id}, payments follow
 * Stripe's test cards, refunds are taken at once and settled SETTLE_SECONDS later by the engine clock. Its state is
 * in Postgres; its events are signed with a key of this process and go through the engine's inbound path.
 */
export const SandboxLive = Layer.effectContext(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const wakeups = yield* Wakeups
    const secret = randomBytes(32)
    const sign = (body: string) => createHmac("sha256", secret).update(body).digest("hex")
    const signed = (event: ProcessorEvent): RawEvent => {
      const body = JSON.stringify(event)
      return { body, signature: sign(body) }
    }
    const failed = (e: unknown) => new ProcessorFailed({ message: `sandbox: ${String(e)}` })

    const createCheckout = (r: CheckoutRequest) =>
      Effect.gen(function* () {
        const id = `cs_sandbox_${createHash("sha256").update(r.idempotency_key).digest("hex").slice(0, 24)}`
        const expiresAt = yield* store.openCheckout(sql, {
          id,
          org_id: r.org_id,
          booking_id: r.booking_id,
          gift_purchase_id: r.gift_purchase_id ?? null,
          amount_cents: r.amount_cents,
          currency: r.currency,
          description: r.description,
          starts_at: r.starts_at,
          expires_at: r.expires_at,
          created_at: yield* clock.now
        })
        const { publicUrl } = yield* Links
        return { id, url: `${publicUrl}/pay/${id}`, expires_at: expiresAt } satisfies Checkout
      }).pipe(Effect.mapError(failed))

    const expireCheckout = (id: string) => store.expireCheckout(sql, id).pipe(Effect.mapError(failed))

    const toRefund = (r: { id: string; status: Refund["status"]; failure_reason: string | null }): Refund => ({
      id: r.id,
      status: r.status,
      failure_reason: r.failure_reason
    })

    const refund = (r: RefundRequest) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const paid = yield* store.refundable(sql, r.payment_intent_id)
        const again = yield* store.refundByKey(sql, r.idempotency_key)
        if (again !== undefined) return toRefund(again)
        if (paid === undefined) return yield* Effect.fail(`no such payment ${r.payment_intent_id}`)
        if (r.amount_cents > paid.amount_cents - paid.taken)
          return yield* Effect.fail(
            `refund of ${r.amount_cents} exceeds what is left of the payment (${paid.amount_cents - paid.taken})`
          )
        const row = {
          id: token("re_sandbox"),
          payment_intent_id: r.payment_intent_id,
          amount_cents: r.amount_cents,
          idempotency_key: r.idempotency_key,
          status: "pending" as const,
          failure_reason: null,
          due_at: new Date(now.getTime() + SETTLE_SECONDS * 1000),
          created_at: now
        }
        yield* store.insertRefund(sql, row)
        yield* wakeups.poke
        return toRefund(row)
      }).pipe(sql.withTransaction, Effect.mapError(failed))

    const readRefund = (id: string) =>
      store.refundById(sql, id).pipe(
        Effect.mapError(failed),
        Effect.flatMap((row) =>
          row === undefined ? Effect.fail(failed(`no such refund ${id}`)) : Effect.succeed(toRefund(row))
        )
      )

    const verifyEvent = (raw: RawEvent) =>
      Effect.gen(function* () {
        const want = Buffer.from(sign(raw.body), "hex")
        const got = Buffer.from(raw.signature ?? "", "hex")
        if (got.length !== want.length || !timingSafeEqual(got, want))
          return yield* new InvalidSignature({ message: "the signature does not match" })
        return JSON.parse(raw.body) as ProcessorEvent
      })

    /** Refunds whose settle time came: a payment by the 5126 card fails its refunds, every other succeeds. */
    const due = Effect.gen(function* () {
      const now = yield* clock.now
      const rows = yield* store.refundsToSettle(sql, now, 100)
      const out: RawEvent[] = []
      for (const r of rows) {
        const fails = r.card_last4 === CARDS.refundFails.slice(-4)
        const reason = fails ? "the card 4000 0000 0000 5126 refuses refunds (sandbox)" : null
        yield* store.settleRefund(sql, r.id, reason, now, REDELIVER_SECONDS)
        out.push(refundEvent({ ...r, status: fails ? "failed" : "succeeded", failure_reason: reason }))
      }
      // Settled refunds whose event the engine has not taken (it still waits on the payment's refund): told again.
      const untold = yield* store.refundsUntold(sql, now, 100)
      for (const f of untold) {
        const again = f.waiting && f.event_attempts < REDELIVERIES
        yield* store.refundTold(
          sql,
          f.id,
          again ? new Date(now.getTime() + REDELIVER_SECONDS * 1000 * 2 ** f.event_attempts) : null
        )
        if (f.waiting) out.push(refundEvent(f))
      }
      // Payments whose event the engine has not taken (a crash right after paying): delivered again, as Stripe retries.
      const unheard = yield* store.checkoutsUnheard(sql, now, 100)
      for (const { taken, ...c } of unheard) {
        const attempts = c.event_attempts ?? 0
        const again = !taken && attempts < REDELIVERIES
        yield* store.checkoutTold(
          sql,
          c.id,
          again ? new Date(now.getTime() + REDELIVER_SECONDS * 1000 * 2 ** attempts) : null
        )
        if (!taken) out.push(paidEvent(c))
      }
      return out as ReadonlyArray<RawEvent>
    }).pipe(sql.withTransaction, Effect.orDie)

    const view = (id: string) => store.checkoutView(sql, id).pipe(Effect.orDie, Effect.map(Option.fromNullable))

    const pay = (id: string, cardNumber: string) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const c = yield* store.lockCheckout(sql, id)
        if (c === undefined) return { _tag: "not_found" } as const
        if (c.status === "complete") return { _tag: "already_paid", checkout: c } as const
        if (c.status === "expired" || c.expires_at.getTime() <= now.getTime())
          return { _tag: "expired", checkout: c } as const
        const card = cardNumber.replace(/[\s-]/g, "")
        if (card === CARDS.declined) {
          yield* store.checkoutDeclined(sql, id)
          return { _tag: "declined", checkout: c } as const
        }
        if (card !== CARDS.pays && card !== CARDS.refundFails) return { _tag: "invalid_card", checkout: c } as const
        const pi = token("pi_sandbox")
        const paid = yield* store.checkoutPaid(sql, id, pi, card.slice(-4), now, REDELIVER_SECONDS)
        return { _tag: "paid", checkout: paid, event: paidEvent(paid) } as const
      }).pipe(sql.withTransaction, Effect.orDie)

    function refundEvent(r: { id: string; payment_intent_id: string; status: string; failure_reason: string | null }) {
      return signed(
        r.status === "failed"
          ? ProcessorEvent.RefundFailed({
              event_id: `evt_${r.id}`,
              refund_id: r.id,
              payment_intent_id: r.payment_intent_id,
              reason: r.failure_reason ?? "refused"
            })
          : ProcessorEvent.RefundSucceeded({
              event_id: `evt_${r.id}`,
              refund_id: r.id,
              payment_intent_id: r.payment_intent_id
            })
      )
    }

    /** A paid checkout's event: for a booking, or for a gift card purchase. */
    function paidEvent(c: SandboxCheckoutRow) {
      const pi = c.payment_intent_id!
      return signed(
        c.gift_purchase_id !== null
          ? ProcessorEvent.GiftPaymentLanded({
              event_id: `evt_${pi}`,
              org_id: c.org_id,
              gift_purchase_id: c.gift_purchase_id,
              checkout_id: c.id,
              payment_intent_id: pi,
              amount_cents: c.amount_cents,
              currency: c.currency
            })
          : ProcessorEvent.PaymentLanded({
              event_id: `evt_${pi}`,
              org_id: c.org_id,
              booking_id: c.booking_id!,
              checkout_id: c.id,
              payment_intent_id: pi,
              amount_cents: c.amount_cents,
              currency: c.currency
            })
      )
    }

    const processor = PaymentProcessor.of({
      name: "sandbox",
      createCheckout,
      expireCheckout,
      refund,
      readRefund,
      verifyEvent,
      due,
      next: store.nextDue(sql)
    })
    return Context.make(PaymentProcessor, processor).pipe(Context.add(SandboxPages, { view, pay }))
  })
)
