import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { BookingBusy, errorOf, notFound } from "../../errors/index.ts"
import { startBooking } from "../../machines/booking.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { Links } from "../../ports/Links.ts"
import { Prepared } from "../../ports/Prepared.ts"
import { Wakeups } from "../../ports/Wakeups.ts"
import type { Booking, BookingCreate, PaymentChoice } from "../../schema/booking.ts"
import { toBookingWith } from "../../store/bookingRow.ts"
import { bookingStore } from "../../store/bookings.ts"
import { toCustomer } from "../../store/customerRow.ts"
import { customerPlan } from "../../store/customers.ts"
import { retryTransient } from "../../store/refusals.ts"
import type { CurrentOrg, Surface } from "../CurrentOrg.ts"
import type { NewEvent } from "../Events.ts"
import { bookingMail } from "../mail/bookingMails.ts"
import { Mail } from "../mail/Mail.ts"
import { checkAnswers } from "./answers.ts"
import { foundGuest, NO_GUEST, NotWritten, type Read } from "./booked.ts"
import { bookingClaims } from "./claims.ts"
import { placesGate } from "./gate.ts"
import { newRow, writeValues } from "./newRow.ts"
import { settle } from "./payment.ts"
import { onHours, type Placement, soldOut } from "./placement.ts"
import { discounts } from "./pricing.ts"
import { refused } from "./refused.ts"
import { bookingScreen } from "./screen.ts"
import { READ } from "./statements.ts"

/**
 * How a surface other than the REST API books: `hold` keeps even a free booking held (a reseller's reservation,
 * confirmed by the reseller later); `reseller` marks it a reseller's (never called off); `quiet` sends the guest no mail.
 */
export interface CreateOptions {
  readonly hold?: boolean
  readonly reseller?: boolean
  readonly quiet?: boolean
  /** The public surface: an offering that is not active is not found there (404), as its reads say. */
  readonly activeOnly?: boolean
  /** How the business's booking is paid (bookings.create `payment`; the REST API's only). */
  readonly payment?: PaymentChoice
}

/** A hold keeps its place this long unless the caller asks for less (hold_minutes, 1 to 30). */
export const HOLD_MINUTES = 15
const MINUTE_MS = 60_000

/**
 * bookings.create in two statements: READ, then WRITE (its own transaction, or the caller's when an
 * Idempotency-Key opened one). Everything the response and the events carry is known before WRITE, so nothing is
 * read back. A refusal of the database (no room, the time gone, the quota) becomes its error; a time that is full
 * only because holds past their expiry still count has them lapsed first and is tried once more.
 */
export const bookingCreator = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const prepared = yield* Prepared
  const clock = yield* EngineClock
  const links = yield* Links
  const wakeups = yield* Wakeups
  const discountsOf = yield* discounts
  const store = yield* bookingStore
  const mails = yield* Mail
  const gate = yield* placesGate<Read>()
  const { claims, bookerSigns, bookedFromWaitlist } = yield* bookingClaims
  const { place, freeExpired, screen, fullHere } = yield* bookingScreen(gate)
  const inTransaction = Effect.map(Effect.serviceOption(SqlClient.TransactionConnection), Option.isSome)
  // The gate's refusal, made once: a crowd refused from memory does not build an error (and its stack) per guest.
  const full = soldOut()

  const attempt = (org: CurrentOrg["Type"], source: Surface, input: BookingCreate, options: CreateOptions) =>
    Effect.gen(function* () {
      const now = yield* clock.now
      const epoch = gate.epoch
      const [o] = yield* prepared.run<Read>(READ, [
        input.offering_id,
        org.id,
        input.session_id ?? null,
        input.starts_at ?? null,
        input.customer.email
      ])
      if (o === undefined || (options.activeOnly === true && o.state !== "active")) return yield* notFound("offering")
      // The gate keeps what READ says of a calendar time's offering (not the guest's row) to judge the next requests.
      if (o.s_id !== null && !o.course && !onHours(o))
        gate.remember(o.s_id, { org: org.id, offering: o.id, read: { ...o, ...NO_GUEST } }, epoch)
      const { quantity, price } = yield* screen(o, input)
      const { promo, gift, giftCents } = yield* discountsOf(org, o.id, price, input)
      yield* checkAnswers(o.questions, input.answers ?? {})
      const { placed: p, full } = yield* place(o, input, quantity, org.timezone, now)
      if (full) return { _tag: "full" as const, o, p }
      const customer = customerPlan(foundGuest(o, org.id), input.customer, org.id, now)
      // What the gift card pays counts as paid: only the rest is held for a checkout (or paid as the business says).
      const settled = settle(options.payment, price, promo?.discount ?? 0, giftCents, options.hold === true)
      const { total, hold } = settled
      const expires = hold ? new Date(now.getTime() + (input.hold_minutes ?? HOLD_MINUTES) * MINUTE_MS) : null
      const started = startBooking({
        at: now.toISOString(),
        hold,
        starts_at: p.starts_at.toISOString(),
        ends_at: p.ends_at.toISOString(),
        session_id: p.session_id,
        series_id: p.series_id,
        is_reseller: options.reseller === true,
        expires_at: expires?.toISOString() ?? null,
        paid: settled.paidOnline,
        paid_by_hand: settled.paidByHand
      })
      const parts = { org, source, input, o, p, customer, started, quantity, total, promo, gift, giftCents, hold, now }
      const row = newRow(parts, settled)
      const signed = input.waiver === undefined ? undefined : yield* bookerSigns(org.id, o, row, input.waiver, now)
      if (signed !== undefined)
        Object.assign(row, { waiver_signed: signed.signatures.length, waiver_signatures: signed.signatures })
      const booking = toBookingWith(row, {
        c_name: customer.row.name,
        c_email: customer.row.email,
        c_phone: customer.row.phone,
        o_name: o.name,
        o_kind: o.kind,
        o_questions: o.questions
      })
      const events: Array<NewEvent> = [
        ...(customer.event ? [{ type: "customer.updated", data: toCustomer(customer.row) }] : []),
        ...started.emits.map((type) => ({ type, data: booking })),
        ...(signed?.events ?? [])
      ]
      const mail = bookingMail(
        hold ? "held" : "confirmed",
        row,
        customer.row.email ?? input.customer.email,
        o.name,
        links.publicUrl
      )
      const write = store.insert(customer.mode, writeValues(parts, row, mail, events, options))
      // A promo code's use and a gift card's part are taken with the booking, in one transaction (undone with it when
      // the booking is not written).
      const written = yield* (
        promo === undefined &&
        gift === undefined &&
        signed === undefined &&
        !settled.paidByHand &&
        settled.discount === 0
          ? write
          : Effect.gen(function* () {
              yield* claims(org.id, row, promo, gift, now)
              const r = yield* write
              if (r[0].written !== 1) return yield* Effect.fail(new NotWritten({ written: r[0].written }))
              yield* store.recordExtras(row)
              return r
            }).pipe(
              sql.withTransaction,
              Effect.catchTags({
                GiftChanged: () => Effect.succeed([{ written: -1 }]),
                NotWritten: (e) => Effect.succeed([{ written: e.written }])
              })
            )
      ).pipe(
        Effect.map((r) => r[0].written),
        Effect.catchTag("SqlError", refused(org, now, o, p))
      )
      return typeof written !== "number"
        ? written
        : written === 1
          ? {
              _tag: "booked" as const,
              booking,
              waitlist: o.waitlist_enabled,
              // A confirmation goes as a text too when the org wants it: only a guest with a phone is looked at.
              text:
                options.quiet !== true && booking.status === "confirmed" && booking.customer?.phone ? mail : undefined
            }
          : written === -1
            ? { _tag: "giftChanged" as const }
            : { _tag: "changed" as const }
    })

  /** No place here, and nothing lapsed: the gate reads the time's places, so the next guests are answered from memory. */
  const noPlace = <E>(p: Placement, refusal: Effect.Effect<never, E>) =>
    Effect.zipRight(p.session_id !== null && p.series_id === null ? gate.load(p.session_id) : Effect.void, refusal)

  /** At most a few tries: after a guest appears or changes concurrently, or after holds past expiry lapsed. */
  const tries = (
    org: CurrentOrg["Type"],
    source: Surface,
    input: BookingCreate,
    options: CreateOptions,
    nested: boolean
  ) =>
    Effect.gen(function* () {
      let freed = false
      // A gift card's balance taken by a racing booking is not this booking's doing: such retries are counted apart.
      let giftRaces = 0
      for (let tries = 0; tries < 4; tries++) {
        const result = yield* attempt(org, source, input, options).pipe(
          retryTransient(nested ? 0 : 3),
          Effect.catchTag("SqlError", Effect.die)
        )
        switch (result._tag) {
          case "booked":
            if (result.text !== undefined) yield* mails.alsoText(org.id, result.text)
            // A guest who waited for this time and got it leaves the waitlist (only offerings that keep one look).
            if (result.waitlist && result.booking.session_id !== null) yield* bookedFromWaitlist(org.id, result.booking)
            yield* wakeups.poke
            return result.booking as Booking
          case "changed":
            continue
          case "giftChanged":
            if (++giftRaces < 50) tries--
            continue
          case "full":
            if (!freed && (yield* freeExpired(result.o, result.p))) {
              freed = true
              continue
            }
            return yield* noPlace(result.p, soldOut())
          case "refused":
            // Inside the caller's transaction the failed statement aborted it: no second try there.
            if (result.reason === "sold_out" && !nested && !freed && (yield* freeExpired(result.o, result.p))) {
              freed = true
              continue
            }
            if (result.reason === "sold_out" && !nested && !freed)
              return yield* noPlace(result.p, errorOf(result.reason, result.message))
            return yield* errorOf(result.reason, result.message)
        }
      }
      return yield* new BookingBusy({ message: "the time or the guest kept changing while booking; try again" })
    })

  /**
   * A booking of a calendar time (by session_id, without a promo code or gift card, outside a caller's transaction)
   * goes through the gate: refused at once when this instance has heard that the time is full, every other check
   * passing (after a sync: whatever committed before has been heard); else it waits for one of the time's turns, and
   * is judged again when it gets one. The database still decides every place it takes.
   */
  const create = (org: CurrentOrg["Type"], source: Surface, input: BookingCreate, options: CreateOptions = {}) =>
    Effect.gen(function* () {
      const nested = yield* inTransaction
      const id = input.session_id
      if (id === undefined || nested || input.promo_code !== undefined || input.gift_card_code !== undefined)
        return yield* tries(org, source, input, options, nested)
      for (;;) {
        if ((yield* fullHere(org, input, id)) && (yield* gate.sync) && (yield* fullHere(org, input, id))) {
          gate.pass(id)
          return yield* full
        }
        const leave = gate.enter(id)
        if (leave !== undefined) return yield* Effect.ensuring(tries(org, source, input, options, false), leave)
        yield* gate.wait(id)
      }
    })

  /**
   * The gate's refusal asked apart from `create`, for a caller that answers it without running `create`: the time's
   * id when `create` would now be refused from memory (before its sync), else undefined. After a `synced` that came
   * back true, asking again and getting the id is `create`'s refusal (the same answer, without asking, when `look`
   * before and `unchanged` after say nothing the gate holds of the time changed); `refused` then does what `create`
   * does with it.
   */
  const atOnce = {
    full: (org: CurrentOrg["Type"], input: BookingCreate) =>
      Effect.flatMap(inTransaction, (nested) => {
        const id = input.session_id
        if (id === undefined || nested || input.promo_code !== undefined || input.gift_card_code !== undefined)
          return Effect.succeed(undefined)
        return Effect.map(fullHere(org, input, id), (full) => (full ? id : undefined))
      }),
    synced: gate.synced,
    mayRefuse: gate.mayRefuse,
    look: gate.look,
    unchanged: gate.unchanged,
    refused: (id: string) => gate.pass(id)
  } as const

  return {
    create,
    atOnce
  } as const
})
