import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { BookingBusy, errorOf, SoldOut } from "../../errors/index.ts"
import { type BookingEvent, decideBooking } from "../../machines/booking.ts"
import { rowOf } from "../../machines/decide.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { type BookingRow, machineRow, toBooking } from "../../store/bookingRow.ts"
import type { BookingFacts, bookingStore } from "../../store/bookings.ts"
import { conflictOrDie } from "../../store/refusals.ts"
import { transaction } from "../../store/transaction.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Events, type NewEvent } from "../Events.ts"
import type { BookingMailKind } from "../mail/bookingMails.ts"
import { guestMail } from "../mail/guestMail.ts"
import { Offerings } from "../offerings/Offerings.ts"
import type { holdLapses } from "./lapse.ts"
import type { placementOf } from "./placement.ts"

/** The booking row changed between the unlocked read a `prepare` planned on and its lock. */
class Stale {
  readonly _tag = "Stale"
}
const sameRow = (a: BookingRow, b: BookingRow) =>
  a.state === b.state &&
  a.keeps_place === b.keeps_place &&
  a.session_id === b.session_id &&
  a.starts_at.getTime() === b.starts_at.getTime()

export interface Plan {
  readonly event: BookingEvent
  readonly facts?: BookingFacts
  readonly mail?: BookingMailKind
}

const MINUTE_MS = 60_000

/** How every operation on one booking runs: in a transaction, on its locked row as the clock sees it, then mailed. */
export const bookingActs = (
  store: Effect.Effect.Success<typeof bookingStore>,
  placement: Effect.Effect.Success<typeof placementOf>,
  lapses: Effect.Effect.Success<typeof holdLapses>
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events
    const offerings = yield* Offerings

    /** A refusal of the database (no room at the time) is the operation's 409; other SQL errors are defects. */
    const tx = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      effect.pipe(
        transaction(sql),
        Effect.catchIf((e): e is SqlError => e instanceof SqlError, conflictOrDie)
      )

    const toGuest = yield* guestMail
    const notify = (
      kind: BookingMailKind,
      b: BookingRow & { c_email?: string | null; o_name?: string },
      note?: string | null
    ) => toGuest(kind, b, { note })

    /**
     * One machine event on one booking of the current org. `prepare` runs first on an unlocked read (where the
     * booking goes, for a move or a lapsed hold confirmed again); the places it gains are taken, or refused, by the
     * database as the row is written (bookings_places). A refusal rolls the whole transaction back.
     */
    const act = <P = undefined, E = never, EP = never>(
      id: string,
      build: (row: BookingRow, now: Date, prepared: P) => Effect.Effect<Plan, E, CurrentOrg>,
      prepare?: (row: BookingRow, now: Date) => Effect.Effect<P, EP, CurrentOrg>
    ) =>
      Effect.gen(function* () {
        const org = yield* CurrentOrg
        const once = tx(
          Effect.gen(function* () {
            const now = yield* clock.now
            const seen = prepare ? yield* store.find(org.id, id) : undefined
            const prepared = prepare && seen ? yield* prepare(seen, now) : (undefined as P)
            const locked = yield* store.lock(org.id, id)
            // prepare planned on an unlocked read; if the row changed before its lock (the lapse job, a session cancel),
            // what it decided may no longer hold: run the whole transaction again.
            if (seen !== undefined && !sameRow(seen, locked)) return yield* Effect.fail(new Stale())
            const settled = yield* settle(locked, now)
            const row = settled.booking
            const plan = yield* build(row, now, prepared)
            const applied = yield* store.apply(row, plan.event, now, plan.facts)
            yield* events.append(org.id, [...settled.events, ...applied.events])
            if (plan.mail) yield* notify(plan.mail, applied.booking)
            return toBooking(applied.booking)
          })
        ).pipe(
          Effect.retry({ times: 3, while: (e) => e instanceof Stale }),
          Effect.catchIf(
            (e): e is Stale => e instanceof Stale,
            () => new BookingBusy({ message: "the booking kept changing while this ran; try again" })
          )
        )
        // No room where it goes: holds there past their expiry may still count until the lapse job reaches them.
        // Lapse every due hold now and, if any did, try once more.
        return yield* once.pipe(
          Effect.catchIf(
            (e): e is SoldOut => e instanceof SoldOut,
            (e) => Effect.flatMap(lapses.lapse(), (n) => (n > 0 ? once : Effect.fail(e)))
          )
        )
      })

    const at = (now: Date) => now.toISOString()

    /** Whether a hold passed expires_at: it keeps no place from then on, whether or not the lapse job has run. */
    const expired = (row: BookingRow, now: Date) =>
      row.status === "held" && row.expires_at !== null && row.expires_at.getTime() <= now.getTime()

    /**
     * A hold past expires_at that the lapse job has not reached yet lapses first (its guest nudged once, as the job
     * would), so every operation sees the state the clock says: confirm re-checks its place, move is refused.
     */
    const settle = (row: BookingRow, now: Date) =>
      row.keeps_place && expired(row, now)
        ? Effect.map(lapses.lapseRow(row, now), (lapsed) => ({
            booking: lapsed.booking as BookingRow,
            events: lapsed.events
          }))
        : Effect.succeed({ booking: row, events: [] as ReadonlyArray<NewEvent> })

    /**
     * The machine's answer to `event` on an unlocked read, as the clock sees the row (a hold past expires_at lapsed),
     * so a refused operation says why before looking for a place (whose sold_out would hide the reason).
     */
    const precheck = (row: BookingRow, event: BookingEvent, now: Date) => {
      const lapsed =
        row.keeps_place && expired(row, now)
          ? decideBooking(machineRow(row), { type: "lapse", at: at(now) })
          : undefined
      const decided = decideBooking(lapsed?.ok ? rowOf(lapsed) : machineRow(row), event)
      return decided.ok ? Effect.void : Effect.fail(errorOf(decided.code, decided.message))
    }

    /**
     * Where a hold that lapsed (confirmed again) or a move goes, with the rules of a new booking (the window, a time
     * that is offered); whether it has room is decided as the booking is written (the bookings_places trigger).
     */
    const replace = (row: BookingRow, want: { starts_at?: Date; session_id?: string }, now: Date) =>
      Effect.gen(function* () {
        const org = yield* CurrentOrg
        const o = yield* offerings.load(row.offering_id)
        const periods = Math.max(
          1,
          Math.round((row.ends_at.getTime() - row.starts_at.getTime()) / (o.duration_minutes * MINUTE_MS))
        )
        return yield* placement.place(
          o,
          {
            ...want,
            series_id: row.series_id ?? undefined,
            quantity: row.quantity,
            periods: o.kind === "rental" ? periods : undefined
          },
          org.timezone,
          now
        )
      })

    return { tx, notify, act, at, expired, settle, precheck, replace } as const
  })
