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
        yield* sql`insert into sandbox_checkouts ${sql.insert({
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
        })} on conflict (id) do nothing`
        const [row] = yield* sql<{ expires_at: Date }>`select expires_at from sandbox_checkouts where id = ${id}`
        const { publicUrl } = yield* Links
        return { id, url: `${publicUrl}/pay/${id}`, expires_at: row.expires_at } satisfies Checkout
      }).pipe(Effect.mapError(failed))

    const expireCheckout = (id: string) =>
      Effect.asVoid(sql`update sandbox_checkouts set status = 'expired' where id = ${id} and status = 'open'`).pipe(
        Effect.mapError(failed)
      )

    const toRefund = (r: { id: string; status: Refund["status"]; failure_reason: string | null }): Refund => ({
      id: r.id,
      status: r.status,
      failure_reason: r.failure_reason
    })

    const refund = (r: RefundRequest) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const [paid] = yield* sql<{ amount_cents: number; taken: number }>`select c.amount_cents,
          coalesce((select sum(amount_cents) from sandbox_refunds f where f.payment_intent_id = c.payment_intent_id and f.status <> 'failed'), 0)::int as taken
        from sandbox_checkouts c where c.payment_intent_id = ${r.payment_intent_id}`
        const [again] = yield* sql<{ id: string; status: Refund["status"]; failure_reason: string | null }>`
        select id, status, failure_reason from sandbox_refunds where idempotency_key = ${r.idempotency_key}`
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
        yield* sql`insert into sandbox_refunds ${sql.insert(row)}`
        yield* wakeups.poke
        return toRefund(row)
      }).pipe(sql.withTransaction, Effect.mapError(failed))

    const readRefund = (id: string) =>
      sql<{
        id: string
        status: Refund["status"]
        failure_reason: string | null
      }>`select id, status, failure_reason from sandbox_refunds where id = ${id}`.pipe(
        Effect.mapError(failed),
        Effect.flatMap((rows) =>
          rows[0] === undefined ? Effect.fail(failed(`no such refund ${id}`)) : Effect.succeed(toRefund(rows[0]))
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
      const rows = yield* sql<{ id: string; payment_intent_id: string; card_last4: string | null }>`
      select f.id, f.payment_intent_id, c.card_last4 from sandbox_refunds f join sandbox_checkouts c on c.payment_intent_id = f.payment_intent_id
      where f.status = 'pending' and f.due_at <= ${now} order by f.due_at limit 100 for update of f skip locked`
      const out: RawEvent[] = []
      for (const r of rows) {
        const fails = r.card_last4 === CARDS.refundFails.slice(-4)
        const reason = fails ? "the card 4000 0000 0000 5126 refuses refunds (sandbox)" : null
        yield* sql`update sandbox_refunds set status = ${fails ? "failed" : "succeeded"}, failure_reason = ${reason},
        event_due_at = ${new Date(now.getTime() + REDELIVER_SECONDS * 1000)} where id = ${r.id}`
        out.push(refundEvent({ ...r, status: fails ? "failed" : "succeeded", failure_reason: reason }))
      }
      // Settled refunds whose event the engine has not taken (it still waits on the payment's refund): told again.
      const untold = yield* sql<{
        id: string
        payment_intent_id: string
        status: string
        failure_reason: string | null
        event_attempts: number
        waiting: boolean
      }>`
      select f.id, f.payment_intent_id, f.status, f.failure_reason, f.event_attempts,
        exists (select 1 from payments p where p.payment_intent_id = f.payment_intent_id and p.refund_state in ('pending', 'taken')) as waiting
      from sandbox_refunds f where f.event_due_at <= ${now} and f.status <> 'pending'
      order by f.event_due_at limit 100 for update of f skip locked`
      for (const f of untold) {
        const again = f.waiting && f.event_attempts < REDELIVERIES
        yield* sql`update sandbox_refunds set event_attempts = event_attempts + 1,
        event_due_at = ${again ? new Date(now.getTime() + REDELIVER_SECONDS * 1000 * 2 ** f.event_attempts) : null} where id = ${f.id}`
        if (f.waiting) out.push(refundEvent(f))
      }
      // Payments whose event the engine has not taken (a crash right after paying): delivered again, as Stripe retries.
      const unheard = yield* sql<SandboxCheckoutRow>`
      select c.* from sandbox_checkouts c
      where c.event_due_at <= ${now} and c.status = 'complete'
      order by c.event_due_at limit 100 for update of c skip locked`
      for (const c of unheard) {
        const [taken] = yield* sql<{
          ok: boolean
        }>`select exists (select 1 from payments where payment_intent_id = ${c.payment_intent_id}) as ok`
        const attempts = c.event_attempts ?? 0
        const again = !taken.ok && attempts < REDELIVERIES
        yield* sql`update sandbox_checkouts set event_attempts = event_attempts + 1,
        event_due_at = ${again ? new Date(now.getTime() + REDELIVER_SECONDS * 1000 * 2 ** attempts) : null} where id = ${c.id}`
        if (!taken.ok) out.push(paidEvent(c))
      }
      return out as ReadonlyArray<RawEvent>
    }).pipe(sql.withTransaction, Effect.orDie)

    const view = (id: string) =>
      sql<SandboxCheckoutRow>`select c.*, o.timezone, o.locale from sandbox_checkouts c join orgs o on o.id = c.org_id
        where c.id = ${id}`.pipe(
        Effect.orDie,
        Effect.map((r) => Option.fromNullable(r[0]))
      )

    const pay = (id: string, cardNumber: string) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const [c] = yield* sql<SandboxCheckoutRow>`select * from sandbox_checkouts where id = ${id} for update`
        if (c === undefined) return { _tag: "not_found" } as const
        if (c.status === "complete") return { _tag: "already_paid", checkout: c } as const
        if (c.status === "expired" || c.expires_at.getTime() <= now.getTime())
          return { _tag: "expired", checkout: c } as const
        const card = cardNumber.replace(/[\s-]/g, "")
        if (card === CARDS.declined) {
          yield* sql`update sandbox_checkouts set declines = declines + 1 where id = ${id}`
          return { _tag: "declined", checkout: c } as const
        }
        if (card !== CARDS.pays && card !== CARDS.refundFails) return { _tag: "invalid_card", checkout: c } as const
        const pi = token("pi_sandbox")
        const [paid] =
          yield* sql<SandboxCheckoutRow>`update sandbox_checkouts set status = 'complete', payment_intent_id = ${pi}, card_last4 = ${card.slice(-4)},
        event_due_at = ${new Date(now.getTime() + REDELIVER_SECONDS * 1000)} where id = ${id} returning *`
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
      next: sql`least((select min(due_at) from sandbox_refunds where status = 'pending'), (select min(event_due_at) from sandbox_checkouts where event_due_at is not null),
      (select min(event_due_at) from sandbox_refunds where event_due_at is not null))`
    })
    return Context.make(PaymentProcessor, processor).pipe(Context.add(SandboxPages, { view, pay }))
  })
)
