import { Effect, Option } from "effect"
import { toLocal, walkDays } from "../../engine/time/local.ts"
import { fn } from "../../engine/tracing.ts"
import * as E from "./errors.ts"
import {
  availability,
  fits,
  openingHoursOf,
  pricing as priced,
  type Slot,
  statusOf,
  UNIT_ID,
  unitPrice
} from "./map.ts"
import type { OctoProducts } from "./products.ts"
import type { AvailabilityBody, CalendarBody } from "./requests.ts"

/**
 * Availability: the times the engine offers a product now (Availability.get), as OCTO availabilities, and its days
 * as a calendar; a time with no room for the units asked for is left out, a day with no time offered is CLOSED.
 */
export const octoAvailability = (products: OctoProducts) => {
  const { context, offering, option, unitCount, slots, findSlot } = products

  const calendar = fn("Octo.calendar")(function* (body: CalendarBody, pricing: boolean) {
    const o = yield* offering(body.productId)
    yield* option(body.optionId)
    const units = yield* unitCount(body.units ?? [])
    const ctx = yield* context(pricing)
    if (body.localDateEnd < body.localDateStart) return yield* E.badRequest("localDateEnd is before localDateStart")
    const all = yield* slots(o, body.localDateStart, body.localDateEnd)
    return walkDays(body.localDateStart, body.localDateEnd).map((date) => {
      const day = all.filter((s) => toLocal(new Date(s.starts_at), ctx.zone).date === date)
      const remaining = day.reduce((n, s) => n + Math.max(0, s.remaining), 0)
      const capacity = day.reduce((n, s) => n + s.capacity, 0)
      const open = day.some((s) => fits(o, s, Math.max(1, units)))
      const from = priced(unitPrice(o, 0), ctx.currency)
      return {
        localDate: date,
        available: open,
        status: day.length === 0 ? ("CLOSED" as const) : open ? statusOf(remaining, capacity) : ("SOLD_OUT" as const),
        vacancies: remaining,
        capacity,
        openingHours: openingHoursOf(o, date),
        ...(ctx.pricing ? { unitPricingFrom: [{ ...from, unitId: UNIT_ID }], pricingFrom: from } : {})
      }
    })
  })

  const check = fn("Octo.availability")(function* (body: AvailabilityBody, pricing: boolean) {
    const o = yield* offering(body.productId)
    yield* option(body.optionId)
    const units = yield* unitCount(body.units ?? [])
    const ctx = yield* context(pricing)
    const keep = (s: Slot) => fits(o, s, units)
    if (body.availabilityIds !== undefined) {
      const found = yield* Effect.forEach(body.availabilityIds, (id) => findSlot(o, id, ctx.zone))
      return found.flatMap((f) =>
        Option.isSome(f.slot) && keep(f.slot.value) ? [availability(o, f.slot.value, ctx)] : []
      )
    }
    if (body.localDateStart === undefined || body.localDateEnd === undefined) {
      return yield* E.badRequest("send localDateStart and localDateEnd, or availabilityIds")
    }
    if (body.localDateEnd < body.localDateStart) return yield* E.badRequest("localDateEnd is before localDateStart")
    return (yield* slots(o, body.localDateStart, body.localDateEnd)).filter(keep).map((s) => availability(o, s, ctx))
  })

  return { calendar, check } as const
}
