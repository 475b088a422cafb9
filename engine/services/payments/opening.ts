import { Effect, Option } from "effect"
import { BookingNotHeld, NotPaidOnline, notFound } from "../../errors/index.ts"
import { checkoutCount, insertCheckout } from "../../store/payments.ts"
import { transaction } from "../../store/transaction.ts"
import { fn } from "../../tracing.ts"
import { type CheckoutSource, FRESH_CHECKOUT_MINUTES, later, type PaymentsBase } from "./base.ts"
import { chargeOf } from "./refunds.ts"

/** Checkouts at the processor: for a new hold, for the guest's link to pay, for a gift card purchase. */
export const paymentCheckouts = (base: PaymentsBase) => {
  const { sql, clock, processor, wakeups, store } = base
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
      const n = yield* checkoutCount(sql, b.id).pipe(Effect.orDie)
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
        yield* insertCheckout(sql, {
          id: checkout.id,
          org_id: b.org_id,
          booking_id: b.id,
          amount_cents: amount,
          currency: b.currency,
          url: checkout.url,
          expires_at: checkout.expires_at,
          status: held ? "open" : "expiring",
          created_at: now
        })
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
    yield* insertCheckout(sql, {
      id: checkout.id,
      org_id: p.org_id,
      booking_id: null,
      gift_purchase_id: p.id,
      amount_cents: p.amount_cents,
      currency: p.currency,
      url: checkout.url,
      expires_at: checkout.expires_at,
      created_at: now
    }).pipe(Effect.orDie)
    return checkout
  })

  return { checkoutFor, resume, giftCheckout } as const
}
