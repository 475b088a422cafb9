import { Effect, Option } from "effect"
import { EngineClock } from "../../engine/ports/Clock.ts"
import { Links } from "../../engine/ports/Links.ts"
import { Availability } from "../../engine/services/calendar/Availability.ts"
import { Orgs } from "../../engine/services/Orgs.ts"
import type { OfferingRow } from "../../engine/services/offerings/row.ts"
import { Resellers } from "../../engine/services/resellers/Resellers.ts"
import { addDays, toLocal } from "../../engine/time/local.ts"
import { fn, traced } from "../../engine/tracing.ts"
import * as E from "./errors.ts"
import { type Ctx, OPTION_ID, product, type Slot, UNIT_ID } from "./map.ts"

const AVAILABILITY_ID = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:\d{2})$/
const START_TIME_DAYS = 14

/**
 * Products: the org's offerings a reseller sells (Resellers.offerings: active, booking single times), each with one
 * option DEFAULT and one unit adult; and the lookups the other OCTO operations share (a product, its option and
 * units, the times the engine offers, an availability id's time).
 */
export const octoProducts = Effect.gen(function* () {
  const clock = yield* EngineClock
  const availabilities = yield* Availability
  const orgs = yield* Orgs
  const resellers = yield* Resellers

  const context = (pricing: boolean) =>
    Effect.map(orgs.get, (org): Ctx => ({ zone: org.timezone, currency: org.currency, locale: org.locale, pricing }))

  /** A product of the org (`forSale`), or any offering of it, removed ones included (what a booking was made for). */
  const offering = (id: string, forSale = true) =>
    Effect.flatMap(
      resellers.offering(id, { forSale }),
      Option.match({ onNone: () => Effect.fail(E.invalidProduct(id)), onSome: Effect.succeed })
    )

  const option = (id: string) => (id === OPTION_ID ? Effect.void : Effect.fail(E.invalidOption(id)))

  /** How many units the items or unit counts ask for; every unit id must be the option's one unit. */
  const unitCount = (
    units: ReadonlyArray<{ readonly id?: string; readonly unitId?: string; readonly quantity?: number }>
  ) =>
    Effect.gen(function* () {
      let n = 0
      for (const u of units) {
        const id = u.unitId ?? u.id ?? ""
        if (id !== UNIT_ID) return yield* E.invalidUnit(id)
        n += u.quantity ?? 1
      }
      return n
    })

  const slots = (o: OfferingRow, from: string, to: string) =>
    availabilities.get(o.id, { from, to }).pipe(
      Effect.map((a): ReadonlyArray<Slot> => a.data),
      Effect.mapError(E.fromEngine(() => E.invalidProduct(o.id)))
    )

  /** The time an availability id names (the local start with its offset), if the engine offers it now. */
  const findSlot = (o: OfferingRow, id: string, zone: string) =>
    Effect.gen(function* () {
      const at = AVAILABILITY_ID.test(id) ? Date.parse(id) : Number.NaN
      if (Number.isNaN(at)) return yield* E.invalidAvailability(id)
      const date = toLocal(new Date(at), zone).date
      const found = (yield* slots(o, date, date)).find((s) => Date.parse(s.starts_at) === at)
      return { at: new Date(at), slot: Option.fromNullable(found) }
    })

  const supplier = Effect.gen(function* () {
    const org = yield* orgs.get
    const { publicUrl } = yield* Links
    return {
      id: org.id,
      name: org.name,
      endpoint: `${publicUrl}/api/octo`,
      contact: { website: null, email: null, telephone: null, address: null }
    }
  }).pipe(traced("Octo.supplier"))

  /** Distinct local start times over the next two weeks, as the option's availabilityLocalStartTimes. */
  const toProduct = (o: OfferingRow, ctx: Ctx) =>
    Effect.gen(function* () {
      const today = toLocal(yield* clock.now, ctx.zone).date
      const times = (yield* slots(o, today, addDays(today, START_TIME_DAYS - 1))).map((s) =>
        toLocal(new Date(s.starts_at), ctx.zone).time.slice(0, 5)
      )
      return product(o, [...new Set(times)].sort(), ctx)
    })

  const list = fn("Octo.products")(function* (pricing: boolean) {
    const ctx = yield* context(pricing)
    return yield* Effect.forEach(yield* resellers.offerings(), (o) => toProduct(o, ctx))
  })

  const get = fn("Octo.product")(function* (id: string, pricing: boolean) {
    return yield* toProduct(yield* offering(id), yield* context(pricing))
  })

  return { context, offering, option, unitCount, slots, findSlot, supplier, list, get } as const
})

export type OctoProducts = Effect.Effect.Success<typeof octoProducts>
