import { SqlClient } from "@effect/sql"
import { Effect, Either, Option } from "effect"
import { Wakeups } from "../../ports/Wakeups.ts"
import type { BookingCreate } from "../../schema/booking.ts"
import { type BookingRow, toBooking } from "../../store/bookingRow.ts"
import { bookingStore } from "../../store/bookings.ts"
import { CurrentOrg, RequestSurface } from "../CurrentOrg.ts"
import { Events } from "../Events.ts"
import { Mail } from "../mail/Mail.ts"
import { Offerings } from "../offerings/Offerings.ts"
import { Payments } from "../payments/Payments.ts"
import { refundOnCancel } from "../payments/refunds.ts"
import { bookingActs, type Plan } from "./acts.ts"
import { bookingCreator, type CreateOptions } from "./create.ts"
import { holdLapses } from "./lapse.ts"
import { listBookings } from "./list.ts"
import { checkPayment } from "./payment.ts"
import { type Placement, placementOf } from "./placement.ts"

export { HOLD_MINUTES } from "./create.ts"

import {
  BookingCancelled,
  CourseBooking,
  CustomerErased,
  InvalidBody,
  InvalidPaidCents,
  InvalidRefundCents
} from "../../errors/index.ts"
import { fn, traced } from "../../tracing.ts"
import { GiftCards } from "../gifts/GiftCards.ts"
import { Promos } from "../promos/Promos.ts"

export class Bookings extends Effect.Service<Bookings>()("Bookings", {
  dependencies: [Events.Default, Offerings.Default, Mail.Default, Payments.Default, Promos.Default, GiftCards.Default],
  scoped: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const store = yield* bookingStore
    const placement = yield* placementOf
    const list = yield* listBookings
    const creator = yield* bookingCreator
    const lapses = yield* holdLapses
    const payments = yield* Payments
    const wakeups = yield* Wakeups

    const { tx, notify, act, at, expired, precheck, replace } = yield* bookingActs(store, placement, lapses)

    // Its span captures no stack: Effect.fn takes one per call, which was the booking path's costliest span.
    const book = (input: BookingCreate, options: Pick<CreateOptions, "activeOnly" | "payment">) =>
      Effect.gen(function* () {
        const booking = yield* creator.create(yield* CurrentOrg, yield* RequestSurface, input, options)
        if (booking.status !== "held" || booking.total_cents - booking.gift_cents <= 0) return booking
        // The booking is written; the processor is called now, outside its transaction and lock.
        const url = yield* payments.checkoutFor(booking.id)
        return Option.isSome(url) ? { ...booking, checkout_url: url.value } : booking
      }).pipe(traced("Bookings.create", { captureStackTrace: false }))

    /** A guest's booking on the public surface: what it costs is paid online. */
    const create = (input: BookingCreate, options: Pick<CreateOptions, "activeOnly"> = {}) => book(input, options)

    /** bookings.create of the REST API: the business says how the guest pays (`payment`, docs/payments.md). */
    const take = (input: BookingCreate) =>
      Effect.zipRight(checkPayment(input.payment, input), book(input, { payment: input.payment }))

    /**
     * What `create` and `take` would refuse from memory, asked apart from them (the full time's id, or undefined: see
     * bookingCreator's atOnce); every check before the gate's counts, so a request they would refuse otherwise is not.
     */
    const atOnce = {
      create: (input: BookingCreate) => Effect.flatMap(CurrentOrg, (org) => creator.atOnce.full(org, input)),
      take: (input: BookingCreate) =>
        Effect.flatMap(Effect.either(checkPayment(input.payment, input)), (checked) =>
          Either.isLeft(checked)
            ? Effect.succeed(undefined)
            : Effect.flatMap(CurrentOrg, (org) => creator.atOnce.full(org, input))
        ),
      synced: creator.atOnce.synced,
      mayRefuse: creator.atOnce.mayRefuse,
      look: creator.atOnce.look,
      unchanged: creator.atOnce.unchanged,
      refused: creator.atOnce.refused
    } as const

    /**
     * A hold an assistant makes for a guest (/api/mcp/book/{slug}): always held, for 30 minutes, the guest emailed a
     * link to their page to confirm it, or a checkout when there is something to pay.
     */
    const holdForGuest = fn("Bookings.holdForGuest")(function* (input: BookingCreate) {
      const booking = yield* creator.create(
        yield* CurrentOrg,
        "assistant",
        { ...input, hold_minutes: 30 },
        { hold: true }
      )
      if (booking.total_cents - booking.gift_cents <= 0) return booking
      const url = yield* payments.checkoutFor(booking.id)
      return Option.isSome(url) ? { ...booking, checkout_url: url.value } : booking
    })

    /** A reseller's reservation (OCTO): always held until the reseller confirms it, no checkout, no guest mail. */
    const reserve = fn("Bookings.reserve")(function* (input: BookingCreate) {
      return yield* creator.create(yield* CurrentOrg, "octo", input, { hold: true, reseller: true, quiet: true })
    })

    const confirm = fn("Bookings.confirm")(function* (id: string, options: { readonly quiet?: boolean } = {}) {
      return yield* act(
        id,
        (_, now) =>
          Effect.succeed({
            event: { type: "confirm", at: at(now) },
            ...(options.quiet === true ? {} : { mail: "confirmed" as const })
          }),
        (row, now) =>
          row.status === "held" && (!row.keeps_place || expired(row, now))
            ? Effect.asVoid(replace(row, { starts_at: row.starts_at, session_id: row.session_id ?? undefined }, now))
            : Effect.void
      )
    })

    const cancel = fn("Bookings.cancel")(function* (
      id: string,
      body: { refund_cents?: number | null; reason?: string; quiet?: boolean }
    ) {
      return yield* act(id, (row, now) =>
        Effect.gen(function* () {
          const refund = body.refund_cents ?? null
          // Only what was charged online can go back: nothing, for a booking not paid online.
          const charged = row.payment_intent_id === null ? 0 : (row.charged_cents ?? 0)
          if (refund !== null && refund > charged) {
            return yield* new InvalidRefundCents({
              message: `refund_cents: at most ${charged}, what was charged online`
            })
          }
          const refunding = yield* refundOnCancel(sql, row, refund, now)
          return {
            event: { type: "cancel", at: at(now) },
            facts: { refund_cents: refund, cancel_reason: body.reason ?? null, ...refunding },
            ...(body.quiet === true ? {} : { mail: "cancelled" as const })
          }
        })
      ).pipe(Effect.tap(() => wakeups.poke))
    })

    const move = fn("Bookings.move")(function* (
      id: string,
      body: { starts_at?: Date; session_id?: string },
      options: { readonly quiet?: boolean } = {}
    ) {
      if (body.starts_at === undefined && body.session_id === undefined)
        return yield* new InvalidBody({ message: "send starts_at or session_id of the new time" })
      return yield* act(
        id,
        (_, now, placed: Placement) =>
          Effect.succeed({
            event: {
              type: "move",
              at: at(now),
              starts_at: placed.starts_at.toISOString(),
              ends_at: placed.ends_at.toISOString(),
              session_id: placed.session_id
            },
            ...(options.quiet === true ? {} : { mail: "moved" as const })
          }),
        (row, now) =>
          Effect.gen(function* () {
            if (row.series_id !== null)
              return yield* new CourseBooking({
                message: "a course booking holds every time of its course and cannot move"
              })
            const move = {
              type: "move",
              at: at(now),
              starts_at: row.starts_at.toISOString(),
              ends_at: row.ends_at.toISOString(),
              session_id: row.session_id
            } as const
            yield* precheck(row, move, now)
            return yield* replace(row, body, now)
          })
      )
    })

    const setAttendance = fn("Bookings.setAttendance")(function* (
      id: string,
      attendance: "checked_in" | "no_show" | "clear"
    ) {
      return yield* act(id, (_, now) =>
        Effect.succeed({
          event: {
            type: attendance === "checked_in" ? "check_in" : attendance === "no_show" ? "no_show" : "clear_attendance",
            at: at(now)
          }
        })
      )
    })

    /**
     * What a booking has paid other than by hand: its online payment (paid_at as the ledger has it) and what its gift
     * card paid (while the card has not had it back); paid_at null when neither paid it.
     */
    const paidOtherwise = (row: BookingRow) =>
      Effect.gen(function* () {
        const gift = row.gift_returned_at == null ? row.gift_cents : 0
        const [online] =
          row.payment_intent_id === null
            ? []
            : yield* sql<{
                amount_cents: number
                created_at: Date
              }>`select amount_cents, created_at from payments where payment_intent_id = ${row.payment_intent_id}`.pipe(
                Effect.orDie
              )
        const cents = (online?.amount_cents ?? 0) + gift
        const paidAt = online?.created_at ?? (gift > 0 && gift >= row.total_cents ? row.created_at : null)
        return { paid_at: paidAt, paid_cents: cents > 0 ? cents : null }
      })

    const markPaid = fn("Bookings.markPaid")(function* (id: string, paidCents: number | undefined) {
      return yield* act(id, (row, now) =>
        Effect.gen(function* () {
          if (paidCents !== undefined && paidCents > row.total_cents)
            return yield* new InvalidPaidCents({ message: `paid_cents: at most the total, ${row.total_cents}` })
          const otherwise = (yield* paidOtherwise(row)).paid_cents ?? 0
          if (paidCents !== undefined && paidCents < otherwise) {
            return yield* new InvalidPaidCents({
              message: `paid_cents: at least ${otherwise}, what was paid online and by gift card`
            })
          }
          return {
            event: { type: "mark_paid", at: at(now) },
            facts: { paid_cents: paidCents ?? row.total_cents }
          } satisfies Plan
        })
      )
    })

    /** Takes back the hand payment only: what was paid online or by gift card stays paid. */
    const markUnpaid = fn("Bookings.markUnpaid")(function* (id: string) {
      return yield* act(id, (row, now) =>
        Effect.map(
          paidOtherwise(row),
          (paid) =>
            ({ event: { type: "mark_unpaid", at: at(now) }, facts: { paid_cents: paid.paid_cents } }) satisfies Plan
        )
      )
    })

    const nudge = fn("Bookings.nudge")(function* (id: string) {
      return yield* act(id, (_, now) =>
        Effect.succeed({ event: { type: "nudge", at: at(now) }, mail: "nudged" as const })
      )
    })

    /** Emails the guest their booking page again; changes nothing. */
    const resend = fn("Bookings.resend")(function* (id: string) {
      const org = yield* CurrentOrg
      return yield* tx(
        Effect.gen(function* () {
          const booking = yield* store.find(org.id, id)
          if (booking.status === "cancelled")
            return yield* new BookingCancelled({ message: "the booking is cancelled" })
          if (!booking.c_email) return yield* new CustomerErased({ message: "the guest's email was erased" })
          yield* notify("resend", booking)
          return toBooking(booking)
        })
      )
    })

    const get = fn("Bookings.get")(function* (id: string) {
      const org = yield* CurrentOrg
      return toBooking(yield* store.find(org.id, id))
    })

    return {
      create,
      take,
      atOnce,
      holdForGuest,
      reserve,
      list,
      get,
      confirm,
      cancel,
      move,
      setAttendance,
      markPaid,
      markUnpaid,
      nudge,
      resend
    } as const
  })
}) {}
