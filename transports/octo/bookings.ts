import { randomUUID } from "node:crypto"
import { Effect, Option } from "effect"
import { EngineClock } from "../../engine/ports/Clock.ts"
import { Bookings } from "../../engine/services/bookings/Bookings.ts"
import type { OfferingRow } from "../../engine/services/offerings/row.ts"
import { Resellers } from "../../engine/services/resellers/Resellers.ts"
import { toLocal } from "../../engine/time/local.ts"
import { fn } from "../../engine/tracing.ts"
import { booking, contactFrom, nullable, type OctoRow, PLACEHOLDER_EMAIL, unitRefs } from "./booking.ts"
import * as E from "./errors.ts"
import { availability, type Ctx, fits, type Slot } from "./map.ts"
import type { OctoProducts } from "./products.ts"
import type { BookingsQuery, ReserveBody } from "./requests.ts"

type CancelBody = { readonly reason?: string | null | undefined }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** A reservation is held this long unless the reseller asks for another expirationMinutes (1 to 1440). */
export const OCTO_HOLD_MINUTES = 30

/**
 * OCTO bookings: reservations are reseller holds (Resellers.hold: held bookings of source `octo`, made through the
 * path of bookings.create, capacity decided by the database) under the reseller's uuid; read, listed and cancelled
 * here, confirmed, extended and changed in changes.ts.
 */
export const octoBookings = (products: OctoProducts) =>
  Effect.gen(function* () {
    const clock = yield* EngineClock
    const bookings = yield* Bookings
    const resellers = yield* Resellers
    const { context, offering, option, unitCount, slots, findSlot } = products

    const find = (uuid: string) =>
      Effect.flatMap(
        resellers.find(uuid),
        Option.match({ onNone: () => Effect.fail(E.invalidBooking(uuid)), onSome: Effect.succeed })
      )

    /** Rows as OCTO bookings; the time each holds is looked up once per product and day. */
    const render = (rows: ReadonlyArray<OctoRow>, ctx: Ctx) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const products = new Map<string, OfferingRow & { readonly deleted_at: Date | null }>()
        const days = new Map<string, ReadonlyArray<Slot>>()
        return yield* Effect.forEach(rows, (b) =>
          Effect.gen(function* () {
            const o = products.get(b.offering_id) ?? (yield* offering(b.offering_id, false))
            products.set(o.id, o)
            const date = toLocal(b.starts_at, ctx.zone).date
            const key = `${o.id}/${date}`
            const live = o.state === "active" && o.deleted_at === null
            const day = days.get(key) ?? (live ? yield* slots(o, date, date).pipe(Effect.orElseSucceed(() => [])) : [])
            days.set(key, day)
            const slot = day.find((s) => Date.parse(s.starts_at) === b.starts_at.getTime())
            return booking(b, o, slot === undefined ? null : availability(o, slot, ctx), now, ctx)
          })
        )
      })
    const one = (uuid: string, ctx: Ctx) =>
      Effect.map(
        Effect.flatMap(find(uuid), (b) => render([b], ctx)),
        (r) => r[0]
      )

    /**
     * POST /bookings: a held booking (expirationMinutes, 30 unless asked) with its places taken. The uuid is the
     * idempotency key: a reservation with a uuid already used answers the booking made then, and makes nothing.
     */
    const reserve = fn("Octo.reserve")(function* (body: ReserveBody, pricing: boolean) {
      const ctx = yield* context(pricing)
      const uuid = body.uuid ?? randomUUID()
      if (Option.isSome(yield* resellers.find(uuid))) return yield* one(uuid, ctx)
      const o = yield* offering(body.productId)
      yield* option(body.optionId)
      const units = yield* unitCount(body.unitItems)
      if (units > o.max_per_booking) return yield* E.unprocessable(`at most ${o.max_per_booking} units in one booking`)
      const { at, slot } = yield* findSlot(o, body.availabilityId, ctx.zone)
      // A time not listed may be full or may not exist: the engine tells them apart (sold_out, time_not_available).
      if (Option.isSome(slot) && !fits(o, slot.value, units)) {
        return yield* E.unprocessable(`sold out: ${Math.max(0, slot.value.remaining)} left at ${body.availabilityId}`)
      }
      const contact = contactFrom(body.contact)
      const time =
        Option.isSome(slot) && slot.value.session_id !== undefined
          ? { session_id: slot.value.session_id }
          : { starts_at: at }
      yield* resellers
        .hold(
          {
            offering_id: o.id,
            ...time,
            quantity: units,
            customer: {
              email: contact.emailAddress ?? PLACEHOLDER_EMAIL,
              name: contact.fullName ?? "OCTO guest",
              ...(contact.phoneNumber ? { phone: contact.phoneNumber } : {})
            },
            ...(nullable(body.notes) !== null ? { notes: body.notes! } : {}),
            hold_minutes: body.expirationMinutes ?? OCTO_HOLD_MINUTES
          },
          {
            uuid,
            reference: body.resellerReference ?? null,
            ...(body.contact !== undefined ? { contact } : {}),
            units: unitRefs(body.unitItems)
          }
        )
        .pipe(
          Effect.mapError((e) =>
            e._tag === "TimeNotAvailable"
              ? E.invalidAvailability(body.availabilityId)
              : E.fromEngine(() => E.invalidProduct(o.id))(e)
          )
        )
      return yield* one(uuid, ctx)
    })

    /** POST /bookings/{uuid}/cancel: a hold is released, a booking cancelled (reason kept); no mail to the guest. */
    const cancel = fn("Octo.cancel")(function* (uuid: string, body: CancelBody, pricing: boolean) {
      const ctx = yield* context(pricing)
      const b = yield* find(uuid)
      if (b.status === "cancelled") return yield* one(uuid, ctx)
      const reason = nullable(body.reason) !== null ? { reason: body.reason! } : {}
      yield* bookings
        .cancel(b.id, { ...reason, quiet: true })
        .pipe(Effect.mapError(E.fromEngine(() => E.invalidBooking(uuid))))
      return yield* one(uuid, ctx)
    })

    const get = fn("Octo.get")(function* (uuid: string, pricing: boolean) {
      return yield* one(uuid, yield* context(pricing))
    })

    /** GET /bookings by resellerReference or supplierReference, or by local start dates (and product); at most 500. */
    const list = fn("Octo.list")(function* (q: BookingsQuery, pricing: boolean) {
      const ctx = yield* context(pricing)
      if (
        q.resellerReference === undefined &&
        q.supplierReference === undefined &&
        (q.localDateStart === undefined || q.localDateEnd === undefined)
      ) {
        return yield* E.badRequest("send resellerReference, supplierReference, or localDateStart and localDateEnd")
      }
      if (q.optionId !== undefined) yield* option(q.optionId)
      if (q.productId !== undefined && !UUID.test(q.productId)) return yield* E.invalidProduct(q.productId)
      const rows = yield* resellers.list({
        reseller_reference: q.resellerReference,
        reference: q.supplierReference,
        offering_id: q.productId,
        from: q.localDateStart,
        to: q.localDateEnd,
        zone: ctx.zone
      })
      return yield* render(rows, ctx)
    })

    return { find, one, reserve, cancel, get, list } as const
  })

export type OctoBookings = Effect.Effect.Success<ReturnType<typeof octoBookings>>
