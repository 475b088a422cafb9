import { SqlClient } from "@effect/sql"
import { Effect, Either, Schema } from "effect"
import { Forbidden, notFound } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { Links } from "../../ports/Links.ts"
import type { BookingCreate } from "../../schema/booking.ts"
import type { GiftCardPurchase } from "../../schema/gift.ts"
import { PublicOffering } from "../../schema/public.ts"
import { addDays, endOfLocalDay, todayIn, toInstant } from "../../time/local.ts"
import { Bookings } from "../bookings/Bookings.ts"
import { discounts, requestPrice } from "../bookings/pricing.ts"
import { CurrentOrg, RequestSurface } from "../CurrentOrg.ts"
import { Availability } from "../calendar/Availability.ts"
import { makeCoalescer } from "../coalesce.ts"
import { GiftCards } from "../gifts/GiftCards.ts"
import { Inbox } from "../messages/Inbox.ts"
import { Orgs } from "../Orgs.ts"
import { Offerings } from "../offerings/Offerings.ts"
import { GiftPurchases } from "../payments/GiftPurchases.ts"
import { chargeOf } from "../payments/refunds.ts"
import { Promos } from "../promos/Promos.ts"
import { Waitlist } from "../waitlist/Waitlist.ts"
import { maskEmail } from "./maskEmail.ts"

const publicFields = Schema.encodeSync(PublicOffering)

/**
 * The public booking surface (/api/v1/public) for a publishable key: the org's active offerings, their times, and a
 * booking with source `widget` through the same bookings.create as every other surface. A request from a web origin
 * the org has not allowed is 403.
 */
export class Public extends Effect.Service<Public>()("Public", {
  dependencies: [
    Offerings.Default,
    Availability.Default,
    Bookings.Default,
    Orgs.Default,
    Promos.Default,
    GiftCards.Default,
    Waitlist.Default,
    GiftPurchases.Default,
    Inbox.Default
  ],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const offerings = yield* Offerings
    const availability = yield* Availability
    const bookings = yield* Bookings
    const orgs = yield* Orgs
    const links = yield* Links
    const clock = yield* EngineClock
    const discountsOf = yield* discounts
    const waitlist = yield* Waitlist
    const purchases = yield* GiftPurchases
    const inbox = yield* Inbox
    /** The engine's own pages (/demo) call the public surface from PUBLIC_URL's origin. */
    const ownOrigin = (() => {
      try {
        return new URL(links.publicUrl).origin.toLowerCase()
      } catch {
        return undefined
      }
    })()

    const checkOrigin = (origin: string | undefined) =>
      Effect.flatMap(CurrentOrg, (org) =>
        origin === undefined ||
        origin.toLowerCase() === ownOrigin ||
        (org.allowedOrigins ?? []).includes(origin.toLowerCase())
          ? Effect.void
          : Effect.fail(
              new Forbidden({ message: `the origin ${origin.slice(0, 100)} is not among the org's allowed_origins` })
            )
      )

    const org = (origin: string | undefined) =>
      Effect.gen(function* () {
        yield* checkOrigin(origin)
        const o = yield* orgs.get
        const waiver = yield* orgs.waiver
        return {
          name: o.name,
          timezone: o.timezone,
          currency: o.currency,
          currency_minor_units: o.currency_minor_units,
          locale: o.locale,
          waiver_text: waiver.text,
          waiver_version: waiver.version,
          today: todayIn(yield* clock.now, o.timezone)
        }
      })

    const list = (origin: string | undefined) =>
      Effect.gen(function* () {
        yield* checkOrigin(origin)
        const all = yield* offerings.list()
        return { data: all.data.filter((o) => o.active).map((o) => publicFields(o)) }
      })

    const activeOffering = (id: string) =>
      Effect.flatMap(offerings.get(id), (o) => (o.active ? Effect.succeed(o) : Effect.fail(notFound("offering"))))

    const get = (id: string, origin: string | undefined) =>
      Effect.zipRight(
        checkOrigin(origin),
        Effect.map(activeOffering(id), (o) => publicFields(o))
      )

    /**
     * An active offering's bookable times; with waitlist_enabled, its full calendar times too (remaining 0), so a
     * guest can join their waitlist.
     */
    const readTimes = (id: string, query: { from?: string; to?: string }) =>
      Effect.gen(function* () {
        const o = yield* activeOffering(id)
        const open = yield* availability.get(id, query)
        if (!o.waitlist_enabled) return open
        const org = yield* CurrentOrg
        const from = query.from ?? todayIn(yield* clock.now, org.timezone)
        const to = query.to ?? addDays(from, 13)
        const full = yield* sql<{ id: string; starts_at: Date; ends_at: Date; cap: number }>`
          select id, starts_at, ends_at, cap from sessions
          where offering_id = ${id} and state = 'scheduled' and booked >= cap and starts_at > ${yield* clock.now}
            and starts_at >= ${toInstant(from, "00:00:00", org.timezone)} and starts_at < ${endOfLocalDay(to, org.timezone)}`.pipe(
          Effect.orDie
        )
        const data = [
          ...open.data,
          ...full.map((f) => ({
            starts_at: f.starts_at.toISOString(),
            ends_at: f.ends_at.toISOString(),
            capacity: f.cap,
            remaining: 0,
            session_id: f.id
          }))
        ].sort((a, b) => a.starts_at.localeCompare(b.starts_at))
        return { ...open, data }
      })

    // A sale's page polls this from every open browser: reads of the same times share their runs (coalesce.ts).
    const shared = makeCoalescer<
      Effect.Effect.Success<ReturnType<typeof readTimes>>,
      Effect.Effect.Error<ReturnType<typeof readTimes>>
    >()
    const times = (id: string, query: { from?: string; to?: string }, origin: string | undefined) =>
      Effect.zipRight(
        checkOrigin(origin),
        Effect.flatMap(CurrentOrg, (org) =>
          shared(`${org.id} ${id} ${query.from ?? ""} ${query.to ?? ""}`, readTimes(id, query))
        )
      )

    const book = (input: BookingCreate, origin: string | undefined) =>
      Effect.gen(function* () {
        yield* checkOrigin(origin)
        // No read of the offering first: the booking path's own READ finds it (404 unless active), and a guest asking
        // for a time this instance knows is full is refused by its gate without reading anything.
        const b = yield* bookings
          .create(input, { activeOnly: true })
          .pipe(Effect.provideService(RequestSurface, "widget"))
        // The guest's page is mailed to the guest only: whoever books (a widget, a secret key, an agent) learns where.
        return {
          id: b.id,
          reference: b.reference,
          status: b.status,
          offering_id: b.offering_id,
          session_id: b.session_id,
          starts_at: b.starts_at,
          ends_at: b.ends_at,
          quantity: b.quantity,
          total_cents: b.total_cents,
          discount_cents: b.discount_cents,
          gift_cents: b.gift_cents,
          expires_at: b.expires_at,
          checkout_url: b.checkout_url,
          mailed_to: maskEmail(input.customer.email)
        }
      })

    /** What `book` would refuse from memory, asked apart from it (Bookings' atOnce): the full time's id, or undefined. */
    const bookAtOnce = (input: BookingCreate, origin: string | undefined) =>
      Effect.flatMap(Effect.either(checkOrigin(origin)), (checked) =>
        Either.isLeft(checked) ? Effect.succeed(undefined) : bookings.atOnce.create(input)
      )

    const quote = (
      input: {
        offering_id: string
        quantity?: number | undefined
        periods?: number | undefined
        promo_code?: string | undefined
        gift_card_code?: string | undefined
      },
      origin: string | undefined
    ) =>
      Effect.gen(function* () {
        yield* checkOrigin(origin)
        const org = yield* CurrentOrg
        const o = yield* activeOffering(input.offering_id)
        const { price } = yield* requestPrice(o, input)
        const { discount, giftCents } = yield* discountsOf(org, o.id, price, input)
        // A deposit is what the checkout takes where guests pay online (as the booking's checkout does); the rest is
        // due at the start. Paying at the venue, all of it is.
        const left = price - discount - giftCents
        const online = (yield* orgs.get).payments === "online"
        const now = online ? chargeOf(left, o) : left
        return {
          price_cents: price,
          discount_cents: discount,
          total_cents: price - discount,
          gift_cents: giftCents,
          due_cents: now,
          due_at_start_cents: left - now,
          currency: org.currency
        }
      })

    /** Joins the waitlist of a full time, as the guest; the entry's details stay with the business. */
    const wait = (input: Parameters<typeof waitlist.join>[0], origin: string | undefined) =>
      Effect.gen(function* () {
        yield* checkOrigin(origin)
        if (input.offering_id !== undefined) yield* activeOffering(input.offering_id)
        const entry = yield* waitlist.join(input)
        return { starts_at: entry.starts_at, places: entry.places, created_at: entry.created_at }
      })

    /** Buys a gift card as the guest (source widget): the checkout to pay; the card is issued when it is paid. */
    const buyGiftCard = (input: GiftCardPurchase, origin: string | undefined) =>
      Effect.zipRight(
        checkOrigin(origin),
        purchases.purchase(input).pipe(Effect.provideService(RequestSurface, "widget"))
      )

    /** A visitor's question before booking: a thread on the guest alone, answered by the business by email. */
    const ask = (input: { name: string; email: string; question: string }, origin: string | undefined) =>
      Effect.gen(function* () {
        yield* checkOrigin(origin)
        const org = yield* CurrentOrg
        const message = yield* inbox.question(org.id, input)
        return { id: message.id, created_at: message.created_at }
      })

    return { org, list, get, times, book, bookAtOnce, quote, wait, buyGiftCard, ask } as const
  })
}) {}
