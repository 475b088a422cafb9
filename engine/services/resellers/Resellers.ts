import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Option } from "effect"
import { EngineClock } from "../../ports/Clock.ts"
import type { BookingCreate } from "../../schema/booking.ts"
import { bookingStore, type ResellerFacts } from "../../store/bookings.ts"
import { customerStore, type Guest } from "../../store/customers.ts"
import { transaction } from "../../store/transaction.ts"
import { fn } from "../../tracing.ts"
import { Bookings } from "../bookings/Bookings.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Events } from "../Events.ts"
import { type ResellerBooking, type ResellerFilter, resellerReads } from "./reads.ts"

export type { ResellerBooking, ResellerFilter } from "./reads.ts"

/** What a reseller keeps on a booking it holds: its own id for it, its reference, the contact and items it sent. */
export interface ResellerHold {
  readonly uuid: string
  readonly reference: string | null
  /** JSON as the reseller sent it; undefined when it sent none. */
  readonly contact?: unknown
  readonly units: unknown
}

/** What a reseller changes on its booking; a guest moves the booking to them (found or made by email). */
export interface ResellerChanges {
  readonly guest?: Guest
  readonly contact?: unknown
  readonly reference?: string
  readonly notes?: string | null
  readonly units?: unknown
}

const sameEmail = (a: string, b: string | null) => b !== null && a.toLowerCase() === b.toLowerCase()

/**
 * What resellers (partners selling an org's times with a reseller key) do with the engine: the offerings they sell,
 * holds they make under their own id (held until they confirm them, with no checkout and no guest mail), the
 * references and contacts they keep on them, extensions of those holds, and finding and listing their bookings.
 * Confirming, moving and cancelling are the bookings service's, with its `quiet` option.
 */
export class Resellers extends Effect.Service<Resellers>()("Resellers", {
  dependencies: [Bookings.Default, Events.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const bookings = yield* Bookings
    const events = yield* Events
    const customers = yield* customerStore
    const store = yield* bookingStore
    const reads = yield* resellerReads

    const offerings = fn("Resellers.offerings")(function* () {
      return yield* reads.offerings
    })

    /** One offering of the org: one it sells (`forSale`), else any, removed ones included. */
    const offering = fn("Resellers.offering")(function* (id: string, options: { readonly forSale: boolean }) {
      return yield* reads.offering(id, options.forSale)
    })

    const find = fn("Resellers.find")(function* (uuid: string) {
      return yield* reads.find(uuid)
    })

    const list = fn("Resellers.list")(function* (filter: ResellerFilter) {
      return yield* reads.list(filter)
    })

    /**
     * A reseller's hold (Bookings.reserve) and what it keeps on it, in one transaction. Its uuid is unique in the
     * org: a hold under a uuid taken at the same moment is refused by the unique index and rolled back, and the
     * booking made under it stands.
     */
    const hold = fn("Resellers.hold")(function* (input: BookingCreate, kept: ResellerHold) {
      const org = yield* CurrentOrg
      const made = bookings.reserve(input).pipe(
        Effect.tap((b) =>
          Effect.flatMap(clock.now, (now) =>
            store.recordReseller(
              org.id,
              b.id,
              {
                octo_uuid: kept.uuid,
                reseller_reference: kept.reference,
                octo_contact: kept.contact === undefined ? null : JSON.stringify(kept.contact),
                octo_units: JSON.stringify(kept.units)
              },
              now
            )
          )
        ),
        transaction(sql)
      )
      yield* made.pipe(
        Effect.catchIf(
          (e): e is SqlError => e instanceof SqlError,
          (e) =>
            Effect.flatMap(
              reads.find(kept.uuid),
              Option.match({ onNone: () => Effect.die(e), onSome: () => Effect.void })
            )
        )
      )
    })

    /** Keeps what the reseller changed on its booking; with a guest other than the booking's, it moves to them. */
    const record = fn("Resellers.record")(function* (
      booking: Pick<ResellerBooking, "id" | "c_email">,
      changes: ResellerChanges
    ) {
      const org = yield* CurrentOrg
      const now = yield* clock.now
      yield* Effect.gen(function* () {
        const guest = changes.guest
        const moved =
          guest !== undefined && !sameEmail(guest.email, booking.c_email)
            ? yield* Effect.tap(customers.findOrCreate(org.id, guest, now), (f) => events.append(org.id, f.events))
            : undefined
        const set: ResellerFacts = {
          ...(moved !== undefined ? { customer_id: moved.id } : {}),
          ...(changes.contact !== undefined ? { octo_contact: JSON.stringify(changes.contact) } : {}),
          ...(changes.reference !== undefined ? { reseller_reference: changes.reference } : {}),
          ...(changes.notes !== undefined ? { notes: changes.notes ?? "" } : {}),
          ...(changes.units !== undefined ? { octo_units: JSON.stringify(changes.units) } : {})
        }
        if (Object.keys(set).length === 0) return
        yield* store.recordReseller(org.id, booking.id, set, now)
      }).pipe(transaction(sql), Effect.orDie)
    })

    /** A hold is given until `until` (its machine's extend_hold): refused once it keeps no place or has expired. */
    const extendHold = fn("Resellers.extendHold")(function* (id: string, until: Date) {
      const org = yield* CurrentOrg
      const now = yield* clock.now
      yield* store.lock(org.id, id).pipe(
        Effect.flatMap((row) =>
          store.apply(row, { type: "extend_hold", at: now.toISOString(), expires_at: until.toISOString() }, now)
        ),
        Effect.flatMap((applied) => events.append(org.id, applied.events)),
        transaction(sql),
        Effect.catchTag("SqlError", Effect.die)
      )
    })

    return { offerings, offering, find, list, hold, record, extendHold } as const
  })
}) {}
