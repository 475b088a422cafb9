import { Effect, Option } from "effect"
import { EngineClock } from "../../engine/ports/Clock.ts"
import { Bookings } from "../../engine/services/bookings/Bookings.ts"
import { Resellers } from "../../engine/services/resellers/Resellers.ts"
import { fn } from "../../engine/tracing.ts"
import { contactFrom, nullable, type OctoRow, refsOf, unitRefs } from "./booking.ts"
import { OCTO_HOLD_MINUTES, type OctoBookings } from "./bookings.ts"
import * as E from "./errors.ts"
import type { OctoProducts } from "./products.ts"
import type { ConfirmBody, UnitItemInput, UpdateBody } from "./requests.ts"
import type { Contact } from "./schema.ts"

const MINUTE_MS = 60_000
type ExtendBody = { readonly expirationMinutes?: number | undefined }

const held = (b: OctoRow, now: Date) =>
  b.status === "held" && b.keeps_place && b.expires_at !== null && b.expires_at.getTime() > now.getTime()
const statusText = (b: OctoRow, now: Date) =>
  b.status === "cancelled" ? "cancelled" : b.status === "confirmed" ? "confirmed" : held(b, now) ? "on hold" : "expired"

/** What the reseller sends besides places: the contact (whose email is the booking's guest), references, notes. */
const kept = (changes: {
  readonly contact?: Contact | undefined
  readonly resellerReference?: string | undefined
  readonly notes?: string | null | undefined
  readonly units?: ReadonlyArray<unknown> | undefined
}) => {
  const c = changes.contact
  return {
    ...(c?.emailAddress != null
      ? { guest: { email: c.emailAddress, name: c.fullName ?? null, phone: c.phoneNumber ?? null } }
      : {}),
    ...(c !== undefined ? { contact: c } : {}),
    ...(changes.resellerReference !== undefined ? { reference: changes.resellerReference } : {}),
    ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
    ...(changes.units !== undefined ? { units: changes.units } : {})
  }
}

/**
 * A reservation's changes in OCTO's terms: confirmed (Bookings.confirm, quiet unless a receipt is asked for),
 * extended (Resellers.extendHold) and updated (references, contact, notes, expiry, and a move through Bookings.move).
 * A hold past its expiry is EXPIRED here: it can be neither confirmed nor changed (reserve again).
 */
export const octoChanges = (products: OctoProducts, reservations: OctoBookings) =>
  Effect.gen(function* () {
    const clock = yield* EngineClock
    const bookings = yield* Bookings
    const resellers = yield* Resellers
    const { context, offering, option, unitCount, findSlot } = products
    const { find, one } = reservations

    /** A hold is given more time from now (its machine's extend_hold): only while it still keeps its place. */
    const extendHold = (b: OctoRow, minutes: number) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const until = new Date(now.getTime() + minutes * MINUTE_MS)
        const refused = () =>
          E.unprocessable(`only a booking ON_HOLD can be extended; this one is ${statusText(b, now)}`)
        yield* resellers.extendHold(b.id, until).pipe(Effect.catchAll(refused))
      })

    const extend = fn("Octo.extend")(function* (uuid: string, body: ExtendBody, pricing: boolean) {
      const ctx = yield* context(pricing)
      yield* extendHold(yield* find(uuid), body.expirationMinutes ?? OCTO_HOLD_MINUTES)
      return yield* one(uuid, ctx)
    })

    const sameUnits = (b: OctoRow, items: ReadonlyArray<UnitItemInput> | undefined) =>
      Effect.gen(function* () {
        if (items === undefined) return
        const n = yield* unitCount(items)
        if (n !== b.quantity) {
          return yield* E.unprocessable(
            `this booking has ${b.quantity} unit(s): to change how many, cancel it and reserve again`
          )
        }
      })

    /** POST /bookings/{uuid}/confirm: the hold becomes a booking (a hold past its expiry is refused: reserve again). */
    const confirm = fn("Octo.confirm")(function* (uuid: string, body: ConfirmBody, pricing: boolean) {
      const ctx = yield* context(pricing)
      const b = yield* find(uuid)
      const now = yield* clock.now
      if (b.status === "confirmed") return yield* one(uuid, ctx)
      if (!held(b, now)) {
        const again = b.status === "held" ? ": reserve again" : ""
        return yield* E.unprocessable(`this booking is ${statusText(b, now)} and cannot be confirmed${again}`)
      }
      yield* sameUnits(b, body.unitItems)
      const contact = contactFrom(body.contact)
      yield* resellers.record(
        b,
        kept({
          contact,
          resellerReference: body.resellerReference,
          units: body.unitItems !== undefined ? unitRefs(body.unitItems, refsOf(b)) : undefined
        })
      )
      yield* bookings
        .confirm(b.id, { quiet: body.emailReceipt !== true || contact.emailAddress === null })
        .pipe(Effect.mapError(E.fromEngine(() => E.invalidBooking(uuid))))
      return yield* one(uuid, ctx)
    })

    /** PATCH /bookings/{uuid}: references, notes, contact, the hold's expiry, the time (a move, checked for room). */
    const update = fn("Octo.update")(function* (uuid: string, body: UpdateBody, pricing: boolean) {
      const ctx = yield* context(pricing)
      const b = yield* find(uuid)
      const now = yield* clock.now
      if (b.status === "cancelled" || (b.status === "held" && !held(b, now))) {
        return yield* E.unprocessable(`this booking is ${statusText(b, now)} and cannot change`)
      }
      if (body.productId !== undefined && body.productId !== b.offering_id) {
        yield* offering(body.productId)
        return yield* E.unprocessable("a booking keeps its product: cancel it and reserve the other product")
      }
      if (body.optionId !== undefined) yield* option(body.optionId)
      yield* sameUnits(b, body.unitItems)
      if (body.expirationMinutes !== undefined && b.status !== "held") {
        return yield* E.unprocessable("only a booking ON_HOLD has an expiry to change")
      }
      if (body.availabilityId !== undefined) {
        const availabilityId = body.availabilityId
        const o = yield* offering(b.offering_id)
        const { at, slot } = yield* findSlot(o, availabilityId, ctx.zone)
        if (at.getTime() !== b.starts_at.getTime()) {
          const time =
            Option.isSome(slot) && slot.value.session_id !== undefined
              ? { session_id: slot.value.session_id }
              : { starts_at: at }
          yield* bookings
            .move(b.id, time, { quiet: true })
            .pipe(
              Effect.mapError((e) =>
                e._tag === "TimeNotAvailable"
                  ? E.invalidAvailability(availabilityId)
                  : E.fromEngine(() => E.invalidBooking(uuid))(e)
              )
            )
        }
      }
      if (body.expirationMinutes !== undefined) yield* extendHold(b, body.expirationMinutes)
      yield* resellers.record(
        b,
        kept({
          contact: body.contact !== undefined ? contactFrom(body.contact) : undefined,
          resellerReference: body.resellerReference,
          notes: body.notes !== undefined ? nullable(body.notes) : undefined,
          units: body.unitItems !== undefined ? unitRefs(body.unitItems, refsOf(b)) : undefined
        })
      )
      return yield* one(uuid, ctx)
    })

    return { confirm, extend, update } as const
  })
