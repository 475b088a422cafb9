import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { type BookingEvent, bookingStatus, decideBooking, startBooking } from "../../machines/booking.ts"
import { rowOf } from "../../machines/decide.ts"
import type { BookingCreate } from "../../schema/booking.ts"
import { type BadRequest, badRequest, type Conflict, conflict, type NotFound } from "../../schema/errors.ts"
import { EngineClock } from "../Clock.ts"
import { CurrentOrg, RequestSurface } from "../CurrentOrg.ts"
import { Customers } from "../customers/Customers.ts"
import { Events } from "../Events.ts"
import { Links } from "../Links.ts"
import { Mail } from "../mail/Mail.ts"
import { Offerings } from "../offerings/Offerings.ts"
import type { OfferingRow } from "../offerings/row.ts"
import { checkAnswers } from "./answers.ts"
import { newHandle, newReference } from "./codes.ts"
import { listBookings } from "./list.ts"
import { type BookingMailKind, bookingMail } from "./mails.ts"
import { type Placement, placementOf } from "./placement.ts"
import { totalOf } from "./pricing.ts"
import { takeQuota } from "./quota.ts"
import { type BookingRow, machineRow, stateText, toBooking } from "./row.ts"
import { bookingStore } from "./store.ts"

/** The booking row changed between the unlocked read a `prepare` planned on and its lock. */
class Stale {
  readonly _tag = "Stale"
}
const sameRow = (a: BookingRow, b: BookingRow) =>
  a.state === b.state && a.keeps_place === b.keeps_place && a.session_id === b.session_id && a.starts_at.getTime() === b.starts_at.getTime()

interface Plan {
  readonly event: BookingEvent
  readonly changes?: Record<string, unknown>
  readonly mail?: BookingMailKind
}

/** A hold keeps its place this long unless the caller asks for less (hold_minutes, 1 to 30). */
export const HOLD_MINUTES = 15
const MINUTE_MS = 60_000

export class Bookings extends Effect.Service<Bookings>()("Bookings", {
  dependencies: [Events.Default, Offerings.Default, Customers.Default, Mail.Default],
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events
    const offerings = yield* Offerings
    const customers = yield* Customers
    const mail = yield* Mail
    const store = yield* bookingStore
    const placement = yield* placementOf
    const list = yield* listBookings

    const tx = <A, E, R>(effect: Effect.Effect<A, E, R>) => effect.pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die))
    const onHours = (o: OfferingRow) => o.kind === "rental" || (o.kind === "appointment" && o.schedule === "hours")
    /** Weekly hours and rentals decide capacity under the offering row's lock: take it and re-read the row under it. */
    const lockOffering = (o: OfferingRow) => (onHours(o) ? offerings.load(o.id, true) : Effect.succeed(o))

    const notify = (orgId: string, kind: BookingMailKind, b: BookingRow & { c_email?: string | null; o_name?: string }, note?: string | null) =>
      Effect.gen(function*() {
        if (!b.c_email) return
        const { publicUrl } = yield* Links
        yield* mail.enqueue(orgId, bookingMail(kind, b, b.c_email, b.o_name ?? "your booking", publicUrl, note))
      })

    const create = Effect.fn("Bookings.create")(function*(input: BookingCreate) {
      const org = yield* CurrentOrg
      const source = yield* RequestSurface
      return yield* tx(Effect.gen(function*() {
        const now = yield* clock.now
        const o = yield* offerings.load(input.offering_id)
        if (o.state !== "active") return yield* conflict("offering_paused", "this offering is paused and takes no bookings")
        const quantity = input.quantity ?? 1
        if (quantity > o.max_per_booking) return yield* badRequest("invalid_quantity", `quantity: at most ${o.max_per_booking} in one booking`)
        if (input.series_id !== undefined && !o.course) return yield* badRequest("invalid_series_id", "series_id books a course; this offering is not one")
        if (input.periods !== undefined && o.kind !== "rental") return yield* badRequest("invalid_periods", "periods apply to rentals only")
        yield* checkAnswers(o.questions, input.answers ?? {})
        const locked = yield* lockOffering(o)
        if (locked.state !== "active") return yield* conflict("offering_paused", "this offering is paused and takes no bookings")
        const placed = yield* placement.place(locked, { ...input, quantity }, org.timezone, now)
        // The customer's event (if any) goes out with the booking's, so nothing takes an org-wide lock until the end.
        const { customer, events: customerEvents } = yield* customers.upsert(org.id, { email: input.customer.email, name: input.customer.name, phone: input.customer.phone ?? null })
        const total = totalOf(o, quantity, placed.periods)
        const hold = total > 0
        const expires = hold ? new Date(now.getTime() + (input.hold_minutes ?? HOLD_MINUTES) * MINUTE_MS) : null
        const started = startBooking({
          at: now.toISOString(), hold, starts_at: placed.starts_at.toISOString(), ends_at: placed.ends_at.toISOString(),
          session_id: placed.session_id, series_id: placed.series_id, is_reseller: false, expires_at: expires?.toISOString() ?? null
        })
        const id = randomUUID()
        yield* sql`insert into bookings ${
          sql.insert({
            id, org_id: org.id, offering_id: o.id, customer_id: customer.id, session_id: placed.session_id, series_id: placed.series_id,
            starts_at: placed.starts_at, ends_at: placed.ends_at, quantity, state: stateText(started.state), machine: JSON.stringify(started.context),
            status: bookingStatus(started.state), keeps_place: true, expires_at: expires, total_cents: total, reference: newReference(),
            handle: newHandle(), source, notes: input.notes ?? "", answers: JSON.stringify(input.answers ?? {}),
            metadata: JSON.stringify(input.metadata ?? {}), confirmed_at: hold ? null : now, created_at: now,
            waiver_token: o.waiver_required ? newHandle() : null, waiver_needed: o.waiver_required ? (o.kind === "rental" ? 1 : quantity) : null
          })
        }`
        const booking = yield* store.find(org.id, id)
        yield* notify(org.id, hold ? "held" : "confirmed", booking)
        // Last, in this order: the quota row, then the org's event lock. Every create takes them quota -> events
        // (no deadlock), and both org-wide locks are held only for these statements and the commit.
        yield* takeQuota(org, now)
        yield* events.append(org.id, [...customerEvents, ...started.emits.map((type) => ({ type, data: toBooking(booking) }))])
        return toBooking(booking)
      }))
    })

    /**
     * One machine event on one booking of the current org. `prepare` runs first on an unlocked read and
     * takes the locks of what the booking will consume (sessions, offering) before the booking row's own,
     * the same order creates and session cancels use, so they never deadlock.
     */
    const act = <P = undefined>(
      id: string,
      build: (row: BookingRow, now: Date, prepared: P) => Effect.Effect<Plan, BadRequest | Conflict | NotFound, CurrentOrg>,
      prepare?: (row: BookingRow, now: Date) => Effect.Effect<P, BadRequest | Conflict | NotFound, CurrentOrg>
    ) =>
      Effect.gen(function*() {
        const org = yield* CurrentOrg
        return yield* tx(Effect.gen(function*() {
          const now = yield* clock.now
          const seen = prepare ? yield* store.find(org.id, id) : undefined
          const prepared = prepare && seen ? yield* prepare(seen, now) : (undefined as P)
          const locked = yield* store.lock(org.id, id)
          // prepare planned on an unlocked read; if the row changed before its lock (the lapse job, a session cancel),
          // what it decided may no longer hold: run the whole transaction again.
          if (seen !== undefined && !sameRow(seen, locked)) return yield* Effect.fail(new Stale())
          const row = yield* settle(locked, now)
          const plan = yield* build(row, now, prepared)
          const applied = yield* store.apply(row, plan.event, plan.changes ?? {}, now)
          yield* events.append(org.id, applied.events)
          if (plan.mail) yield* notify(org.id, plan.mail, applied.booking)
          return toBooking(applied.booking)
        })).pipe(
          Effect.retry({ times: 3, while: (e) => e instanceof Stale }),
          Effect.catchIf((e): e is Stale => e instanceof Stale, () => conflict("booking_busy", "the booking kept changing while this ran; try again"))
        )
      })

    const at = (now: Date) => now.toISOString()

    /** Whether a hold passed expires_at: it keeps no place from then on, whether or not the lapse job has run. */
    const expired = (row: BookingRow, now: Date) => row.status === "held" && row.expires_at !== null && row.expires_at.getTime() <= now.getTime()

    /**
     * A hold past expires_at that the lapse job has not reached yet is lapsed first (no event), so every operation
     * sees the state the clock says: confirm re-checks its place, move is refused, nudge is allowed.
     */
    const settle = (row: BookingRow, now: Date) =>
      row.keeps_place && expired(row, now)
        ? Effect.map(store.apply(row, { type: "lapse", at: at(now) }, { keeps_place: false }, now), (lapsed) => lapsed.booking as BookingRow)
        : Effect.succeed(row)

    /**
     * The machine's answer to `event` on an unlocked read, as the clock sees the row (a hold past expires_at lapsed),
     * so a refused operation says why before looking for a place (whose sold_out would hide the reason).
     */
    const precheck = (row: BookingRow, event: BookingEvent, now: Date) => {
      const lapsed = row.keeps_place && expired(row, now) ? decideBooking(machineRow(row), { type: "lapse", at: at(now) }) : undefined
      const decided = decideBooking(lapsed?.ok ? rowOf(lapsed) : machineRow(row), event)
      return decided.ok ? Effect.void : Effect.fail(conflict(decided.code, decided.message))
    }

    /** Re-takes a place for a hold that lapsed (or a move), under the lock of what it consumes. */
    const replace = (row: BookingRow, want: { starts_at?: Date; session_id?: string }, now: Date) =>
      Effect.gen(function*() {
        const org = yield* CurrentOrg
        const o = yield* lockOffering(yield* offerings.load(row.offering_id))
        const periods = Math.max(1, Math.round((row.ends_at.getTime() - row.starts_at.getTime()) / (o.duration_minutes * MINUTE_MS)))
        return yield* placement.place(o, { ...want, series_id: row.series_id ?? undefined, quantity: row.quantity, periods: o.kind === "rental" ? periods : undefined }, org.timezone, now, row.id)
      })

    const confirm = Effect.fn("Bookings.confirm")(function*(id: string) {
      return yield* act(
        id,
        (_, now) => Effect.succeed({ event: { type: "confirm", at: at(now) }, changes: { confirmed_at: now, expires_at: null, keeps_place: true }, mail: "confirmed" }),
        (row, now) =>
          row.status === "held" && (!row.keeps_place || expired(row, now))
            ? Effect.asVoid(replace(row, { starts_at: row.starts_at, session_id: row.session_id ?? undefined }, now))
            : Effect.void
      )
    })

    const cancel = Effect.fn("Bookings.cancel")(function*(id: string, body: { refund_cents?: number | null; reason?: string }) {
      return yield* act(id, (row, now) =>
        Effect.gen(function*() {
          const refund = body.refund_cents ?? null
          if (refund !== null && row.charged_cents !== null && refund > row.charged_cents) {
            return yield* badRequest("invalid_refund_cents", `refund_cents: at most ${row.charged_cents}, what the checkout charged`)
          }
          return { event: { type: "cancel", at: at(now) }, changes: { cancelled_at: now, refund_cents: refund, cancel_reason: body.reason ?? null }, mail: "cancelled" as const }
        }))
    })

    const move = Effect.fn("Bookings.move")(function*(id: string, body: { starts_at?: Date; session_id?: string }) {
      if (body.starts_at === undefined && body.session_id === undefined) return yield* badRequest("invalid_body", "send starts_at or session_id of the new time")
      return yield* act<Placement>(
        id,
        (row, now, placed) => {
          const previous = { starts_at: row.starts_at.toISOString(), ends_at: row.ends_at.toISOString(), session_id: row.session_id }
          return Effect.succeed({
            event: { type: "move", at: at(now), starts_at: placed.starts_at.toISOString(), ends_at: placed.ends_at.toISOString(), session_id: placed.session_id },
            changes: { starts_at: placed.starts_at, ends_at: placed.ends_at, session_id: placed.session_id, previous: JSON.stringify(previous), choose_by: null, keeps_place: true },
            mail: "moved"
          })
        },
        (row, now) =>
          row.series_id !== null
            ? Effect.fail(conflict("course_booking", "a course booking holds every time of its course and cannot move"))
            : Effect.zipRight(
              precheck(row, { type: "move", at: at(now), starts_at: row.starts_at.toISOString(), ends_at: row.ends_at.toISOString(), session_id: row.session_id }, now),
              replace(row, body, now)
            )
      )
    })

    const setAttendance = Effect.fn("Bookings.setAttendance")(function*(id: string, attendance: "checked_in" | "no_show" | "clear") {
      return yield* act(id, (_, now) =>
        Effect.succeed(
          attendance === "checked_in"
            ? { event: { type: "check_in", at: at(now) }, changes: { checked_in_at: now, no_show_at: null } }
            : attendance === "no_show"
            ? { event: { type: "no_show", at: at(now) }, changes: { no_show_at: now, checked_in_at: null } }
            : { event: { type: "clear_attendance", at: at(now) }, changes: { checked_in_at: null, no_show_at: null } }
        ))
    })

    const markPaid = Effect.fn("Bookings.markPaid")(function*(id: string, paidCents: number | undefined) {
      return yield* act(id, (row, now) =>
        paidCents !== undefined && paidCents > row.total_cents
          ? Effect.fail(badRequest("invalid_paid_cents", `paid_cents: at most the total, ${row.total_cents}`))
          : Effect.succeed({ event: { type: "mark_paid", at: at(now) }, changes: { paid_at: now, paid_cents: paidCents ?? row.total_cents } }))
    })

    const markUnpaid = Effect.fn("Bookings.markUnpaid")(function*(id: string) {
      return yield* act(id, (_, now) => Effect.succeed({ event: { type: "mark_unpaid", at: at(now) }, changes: { paid_at: null, paid_cents: null } }))
    })

    const nudge = Effect.fn("Bookings.nudge")(function*(id: string) {
      return yield* act(id, (_, now) => Effect.succeed({ event: { type: "nudge", at: at(now) }, changes: { nudged_at: now }, mail: "nudged" as const }))
    })

    /** Emails the guest their booking page again; changes nothing. */
    const resend = Effect.fn("Bookings.resend")(function*(id: string) {
      const org = yield* CurrentOrg
      return yield* tx(Effect.gen(function*() {
        const booking = yield* store.find(org.id, id)
        if (booking.status === "cancelled") return yield* conflict("booking_cancelled", "the booking is cancelled")
        if (!booking.c_email) return yield* conflict("customer_erased", "the guest's email was erased")
        yield* notify(org.id, "resend", booking)
        return toBooking(booking)
      }))
    })

    const get = Effect.fn("Bookings.get")(function*(id: string) {
      const org = yield* CurrentOrg
      return toBooking(yield* store.find(org.id, id))
    })

    return { create, list, get, confirm, cancel, move, setAttendance, markPaid, markUnpaid, nudge, resend } as const
  })
}) {}
