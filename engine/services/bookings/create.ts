import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Data, Effect, Either, Option } from "effect"
import {
  BookingBusy,
  errorOf,
  InvalidPeriods,
  InvalidQuantity,
  InvalidSeriesId,
  InvalidSessionId,
  notFound,
  OfferingPaused,
  PlanQuotaExceeded,
  PromoCodeUsedUp,
  TooManySignatures,
  WaiverMissing,
  WaiverNotAsked
} from "../../errors/index.ts"
import { startBooking } from "../../machines/booking.ts"
import { Prepared } from "../../ports/Prepared.ts"
import type { Booking, BookingCreate } from "../../schema/booking.ts"
import { type BookingRow, lifecycleColumns, toBooking } from "../../store/bookingRow.ts"
import { bookingStore } from "../../store/bookings.ts"
import { newHandle, newReference } from "../../store/codes.ts"
import { type CustomerRow, toCustomer } from "../../store/customerRow.ts"
import { customerPlan } from "../../store/customers.ts"
import { isTransient, type Refusal, refusalOf, retryTransient } from "../../store/refusals.ts"
import { monthIn } from "../../time/local.ts"
import { EngineClock } from "../Clock.ts"
import type { CurrentOrg, Surface } from "../CurrentOrg.ts"
import type { NewEvent } from "../Events.ts"
import { Events } from "../Events.ts"
import { GiftCards } from "../gifts/GiftCards.ts"
import { Links } from "../Links.ts"
import { bookingMail } from "../mail/bookingMails.ts"
import { Mail } from "../mail/Mail.ts"
import type { OfferingRow } from "../offerings/row.ts"
import { Promos } from "../promos/Promos.ts"
import { Wakeups } from "../Wakeups.ts"
import { endEntries } from "../waitlist/open.ts"
import { newSignatures } from "../waivers/sign.ts"
import { checkAnswers } from "./answers.ts"
import { isFull, placesGate } from "./gate.ts"
import { holdLapses } from "./lapse.ts"
import {
  calendarPlacement,
  onHours,
  type PlacedOffering,
  type Placement,
  placementOf,
  placesOf,
  soldOut
} from "./placement.ts"
import { priceOf } from "./pricing.ts"
import { MONTHLY_QUOTA } from "./quota.ts"
import { READ } from "./statements.ts"

type Promo = { readonly id: string; readonly code: string; readonly discount: number }
type Gift = { readonly id: string; readonly cents: number }
/** A gift card's balance changed between its check and its take: the booking is tried again. */
class GiftChanged extends Data.TaggedError("GiftChanged") {}
/** WRITE wrote no booking (the time changed meanwhile): what the claims before it took is undone with it. */
class NotWritten extends Data.TaggedError("NotWritten")<{ readonly written: number }> {}

/**
 * How a surface other than the REST API books: `hold` keeps even a free booking held (a reseller's reservation,
 * confirmed by the reseller later); `reseller` marks it a reseller's (never called off); `quiet` sends the guest no mail.
 */
export interface CreateOptions {
  readonly hold?: boolean
  readonly reseller?: boolean
  readonly quiet?: boolean
}

/** A hold keeps its place this long unless the caller asks for less (hold_minutes, 1 to 30). */
export const HOLD_MINUTES = 15
const MINUTE_MS = 60_000

/** What a booking reads of its offering: READ selects these columns only (the pg driver decodes every column it is sent). */
type Booked = PlacedOffering &
  Pick<
    OfferingRow,
    | "name"
    | "state"
    | "max_per_booking"
    | "price_cents"
    | "guest_price_cents"
    | "questions"
    | "waiver_required"
    | "waitlist_enabled"
  >

type Read = Booked & {
  readonly s_id: string | null
  readonly s_starts_at: Date | null
  readonly s_ends_at: Date | null
  readonly s_state: string | null
  readonly s_booked: number | null
  readonly s_cap: number | null
  readonly c_id: string | null
  readonly c_name: string | null
  readonly c_email: string | null
  readonly c_phone: string | null
  readonly c_created_at: Date | null
  readonly c_updated_at: Date | null
  readonly g_cancel_hours: number | null
}

/** What the gate keeps of a READ: nothing of the guest it was read for. */
const NO_GUEST = {
  c_id: null,
  c_name: null,
  c_email: null,
  c_phone: null,
  c_created_at: null,
  c_updated_at: null
} as const

/** The guest as READ found them, if the org knows their email. */
const foundGuest = (read: Read, orgId: string): CustomerRow | undefined =>
  read.c_id === null
    ? undefined
    : {
        id: read.c_id,
        org_id: orgId,
        email: read.c_email,
        name: read.c_name,
        phone: read.c_phone,
        created_at: read.c_created_at!,
        updated_at: read.c_updated_at,
        erased_at: null
      }

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
  const placement = yield* placementOf
  const lapses = yield* holdLapses
  const wakeups = yield* Wakeups
  const promos = yield* Promos
  const gifts = yield* GiftCards
  const store = yield* bookingStore
  const mails = yield* Mail
  const gate = yield* placesGate<Read>()
  /**
   * What a promo code or gift card claims for a booking, in the booking's transaction before WRITE (so that every
   * path locks a card or a code before the org's event clock, as confirming and adjusting do): the code's use is
   * counted (if it is still active and not used up) and the card's part taken (confirmed at once) or reserved (held).
   * A code used up meanwhile fails the booking; a card whose free balance changed meanwhile has the booking tried
   * again with the new balance. After WRITE the booking's row records code, discount, gift and signatures.
   */
  const claims = (orgId: string, row: BookingRow, promo: Promo | undefined, gift: Gift | undefined, now: Date) =>
    Effect.gen(function* () {
      if (promo !== undefined) {
        const claimed = yield* sql`update promo_codes set uses = uses + 1
          where id = ${promo.id} and active and (max_uses is null or uses < max_uses) returning uses`
        if (claimed.length === 0)
          return yield* new PromoCodeUsedUp({
            message: `promo_code: ${promo.code} was used up or switched off just now`
          })
      }
      if (gift !== undefined && !(yield* gifts.take(orgId, gift, row.id, row.status === "confirmed", now)))
        return yield* Effect.fail(new GiftChanged())
    })
  /** The booker signs the org's waiver as they book, for themselves and the children they name: one signature each. */
  const bookerSigns = (
    orgId: string,
    o: Booked,
    row: BookingRow,
    waiver: NonNullable<BookingCreate["waiver"]>,
    now: Date
  ) =>
    Effect.gen(function* () {
      if (!o.waiver_required || row.waiver_needed === null)
        return yield* new WaiverNotAsked({ message: "waiver: this offering asks for no waiver" })
      const [text] = yield* sql<{
        waiver_text: string | null
        waiver_version: number
      }>`select waiver_text, waiver_version from orgs where id = ${orgId}`.pipe(Effect.orDie)
      if (text.waiver_text === null)
        return yield* new WaiverMissing({ message: "waiver: the org has no waiver text to sign yet" })
      const people = [
        { name: waiver.name, for: "booker" as const },
        ...(waiver.children ?? []).map((name) => ({ name, for: "child" as const }))
      ]
      if (people.length > row.waiver_needed) {
        return yield* new TooManySignatures({
          message: `waiver: this booking needs ${row.waiver_needed} signature(s); ${people.length} were given`
        })
      }
      return newSignatures(row, [], people, row.waiver_needed, text.waiver_version, now)
    })
  const events = yield* Events
  const bookedFromWaitlist = (orgId: string, booking: Booking) =>
    Effect.gen(function* () {
      const now = yield* clock.now
      const [entry] = yield* sql<{ id: string }>`select id from waitlist_entries
        where session_id = ${booking.session_id} and customer_id = ${booking.customer_id} and ended_at is null`
      if (entry === undefined) return
      const left = yield* endEntries(sql, { ids: [entry.id] }, "booked", now)
      yield* events.append(
        orgId,
        left.map(({ type, data }) => ({ type, data }))
      )
    }).pipe(sql.withTransaction, Effect.orDie)
  const inTransaction = Effect.map(Effect.serviceOption(SqlClient.TransactionConnection), Option.isSome)

  /** Where the booking goes; `full` when READ already shows too few places at a calendar time. */
  const place = (o: Read, input: BookingCreate, quantity: number, zone: string, now: Date) =>
    o.course || onHours(o)
      ? Effect.map(placement.place(o, { ...input, quantity }, zone, now), (placed) => ({ placed, full: false }))
      : Effect.gen(function* () {
          if (input.session_id === undefined && input.starts_at === undefined)
            return yield* new InvalidSessionId({ message: "session_id (or starts_at of one of its times) is required" })
          const time =
            o.s_id === null
              ? undefined
              : {
                  id: o.s_id,
                  starts_at: o.s_starts_at!,
                  ends_at: o.s_ends_at!,
                  state: o.s_state!,
                  booked: o.s_booked!,
                  cap: o.s_cap!
                }
          const placed = yield* calendarPlacement(o, time, now)
          return { placed, full: time !== undefined && time.booked + placesOf(o, quantity) > time.cap }
        })

  /** Lapses holds past expiry at the placement's time (or over it, for hours and rentals); true if any lapsed. */
  const freeExpired = (o: Booked, p: Placement) =>
    Effect.map(
      lapses.lapse(
        p.session_id !== null && p.series_id === null
          ? sql`session_id = ${p.session_id}`
          : p.series_id !== null
            ? sql`series_id = ${p.series_id}`
            : sql`offering_id = ${o.id} and starts_at < ${p.ends_at} and ends_at > ${p.starts_at}`
      ),
      (n) => n > 0
    )

  /** What READ's offering says of the request before its place is looked at; answers the price. */
  const screen = (o: Read, input: BookingCreate, quantity: number) =>
    Effect.gen(function* () {
      if (o.state !== "active")
        return yield* new OfferingPaused({ message: "this offering is paused and takes no bookings" })
      if (quantity > o.max_per_booking)
        return yield* new InvalidQuantity({ message: `quantity: at most ${o.max_per_booking} in one booking` })
      if (input.series_id !== undefined && !o.course)
        return yield* new InvalidSeriesId({ message: "series_id books a course; this offering is not one" })
      if (input.periods !== undefined && o.kind !== "rental")
        return yield* new InvalidPeriods({ message: "periods apply to rentals only" })
      return yield* priceOf(o, quantity, input.periods ?? 1)
    })

  /**
   * Whether what this instance heard says the time has no place left for this request, every other check of it
   * passing on what READ last read of the offering (any other refusal is left to the database path to give).
   */
  const fullHere = (org: CurrentOrg["Type"], input: BookingCreate, sessionId: string) =>
    Effect.gen(function* () {
      const seen = gate.peek(sessionId)
      if (seen === undefined || seen.org !== org.id || seen.offering !== input.offering_id) return false
      const now = yield* clock.now
      if (!isFull(seen.places, now)) return false
      const o: Read = { ...seen.read, s_booked: seen.places.booked, s_cap: seen.places.cap, s_state: seen.places.state }
      if (o.course || onHours(o)) return false
      const quantity = input.quantity ?? 1
      const judged = yield* Effect.either(
        Effect.gen(function* () {
          yield* screen(o, input, quantity)
          yield* checkAnswers(o.questions, input.answers ?? {})
          return (yield* place(o, input, quantity, org.timezone, now)).full
        })
      )
      return Either.isRight(judged) && judged.right
    })

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
      if (o === undefined) return yield* notFound("offering")
      // The gate keeps what READ says of a calendar time's offering (not the guest's row) to judge the next requests.
      if (o.s_id !== null && !o.course && !onHours(o))
        gate.remember(o.s_id, { org: org.id, offering: o.id, read: { ...o, ...NO_GUEST } }, epoch)
      const quantity = input.quantity ?? 1
      const price = yield* screen(o, input, quantity)
      const promo =
        input.promo_code === undefined
          ? undefined
          : yield* promos.check(org.id, org.timezone, o.id, input.promo_code, price)
      const total = price - (promo?.discount ?? 0)
      const gift =
        input.gift_card_code === undefined ? undefined : yield* gifts.check(org.id, input.gift_card_code, total)
      const giftCents = gift?.cents ?? 0
      yield* checkAnswers(o.questions, input.answers ?? {})
      const { placed: p, full } = yield* place(o, input, quantity, org.timezone, now)
      if (full) return { _tag: "full" as const, o, p }
      const customer = customerPlan(foundGuest(o, org.id), input.customer, org.id, now)
      // What the gift card pays counts as paid: only the rest is held for a checkout.
      const hold = options.hold === true || total - giftCents > 0
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
        paid: giftCents > 0 && !hold
      })
      // The machine's columns come from its start (lifecycleColumns); the rest is what this booking is.
      const { machine: _, previous: __, ...lifecycle } = lifecycleColumns(started.state, started.context)
      const row: BookingRow = {
        ...lifecycle,
        id: randomUUID(),
        org_id: org.id,
        offering_id: o.id,
        customer_id: customer.row.id,
        series_id: p.series_id,
        quantity,
        places: placesOf(o, quantity),
        machine: started.context,
        previous: null,
        total_cents: total,
        discount_cents: promo?.discount ?? 0,
        promo_code: promo?.code ?? null,
        gift_card_id: gift?.id ?? null,
        gift_cents: giftCents,
        // Confirmed at once, the card's part is taken now; held, it is only reserved until the booking is confirmed.
        gift_taken_at: giftCents > 0 && !hold ? now : null,
        reference: newReference(),
        handle: newHandle(),
        source,
        notes: input.notes ?? "",
        answers: input.answers ?? {},
        metadata: input.metadata ?? {},
        checkout_url: null,
        paid_cents: giftCents > 0 ? giftCents : null,
        payment_intent_id: null,
        charged_cents: null,
        refund_id: null,
        refund_cents: null,
        refunded_at: null,
        refund_failed_at: null,
        refund_error: null,
        refund_next_at: null,
        guest_cancel_hours: o.g_cancel_hours,
        waiver_token: o.waiver_required ? newHandle() : null,
        reseller_reference: null,
        cancel_reason: null,
        created_at: now,
        updated_at: null,
        waiver_needed: o.waiver_required ? (o.kind === "rental" ? 1 : quantity) : null,
        waiver_signed: 0
      }
      const signed = input.waiver === undefined ? undefined : yield* bookerSigns(org.id, o, row, input.waiver, now)
      if (signed !== undefined)
        Object.assign(row, { waiver_signed: signed.signatures.length, waiver_signatures: signed.signatures })
      const booking = toBooking({
        ...row,
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
      const month = monthIn(now, org.timezone)
      const write = store.insert(customer.mode, [
        org.id,
        customer.mode,
        customer.row.id,
        customer.row.email,
        input.customer.name,
        input.customer.phone ?? null,
        now,
        o.c_name,
        o.c_phone,
        row.id,
        o.id,
        row.session_id,
        row.series_id,
        row.starts_at,
        row.ends_at,
        row.quantity,
        row.places,
        row.state,
        JSON.stringify(row.machine),
        row.status,
        row.expires_at,
        row.total_cents,
        row.reference,
        row.handle,
        row.source,
        row.notes,
        JSON.stringify(row.answers),
        JSON.stringify(row.metadata),
        row.confirmed_at,
        row.waiver_token,
        row.waiver_needed,
        randomUUID(),
        options.quiet === true ? null : mail.to,
        mail.subject,
        mail.text,
        mail.kind,
        month,
        MONTHLY_QUOTA[org.plan],
        events.map((e) => e.type),
        JSON.stringify(events.map((e) => e.data)),
        JSON.stringify(mail.vars),
        row.guest_cancel_hours
      ])
      // A promo code's use and a gift card's part are taken with the booking, in one transaction (undone with it when
      // the booking is not written).
      const written = yield* (
        promo === undefined && gift === undefined && signed === undefined
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

  interface Refused {
    readonly _tag: "refused"
    readonly reason: Exclude<Refusal, "plan_quota_exceeded">
    readonly message: string
    readonly o: Booked
    readonly p: Placement
  }
  /** A refusal of WRITE as a value; the quota is 402; a deadlock stays an SqlError (to retry); anything else dies. */
  const refused =
    (org: CurrentOrg["Type"], now: Date, o: Booked, p: Placement) =>
    (e: SqlError): Effect.Effect<Refused, PlanQuotaExceeded | SqlError> => {
      const r = refusalOf(e)
      if (r === undefined) return isTransient(e) ? Effect.fail(e) : Effect.die(e)
      if (r.reason === "plan_quota_exceeded") {
        const month = monthIn(now, org.timezone)
        return Effect.fail(
          new PlanQuotaExceeded({
            message: `the ${org.plan} plan includes ${MONTHLY_QUOTA[org.plan]} bookings a month and ${month} has used them; upgrade the plan or wait for next month`
          })
        )
      }
      return Effect.succeed({ _tag: "refused" as const, reason: r.reason, message: r.message, o, p })
    }

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
          return yield* soldOut()
        }
        const leave = gate.enter(id)
        if (leave !== undefined) return yield* Effect.ensuring(tries(org, source, input, options, false), leave)
        yield* gate.wait(id)
      }
    })

  return { create } as const
})
