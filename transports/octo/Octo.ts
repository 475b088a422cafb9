import { Effect } from "effect"
import { Bookings } from "../../engine/services/bookings/Bookings.ts"
import { Availability } from "../../engine/services/calendar/Availability.ts"
import { Orgs } from "../../engine/services/Orgs.ts"
import { Resellers } from "../../engine/services/resellers/Resellers.ts"
import { octoAvailability } from "./availability.ts"
import { octoBookings } from "./bookings.ts"
import { octoChanges } from "./changes.ts"
import { octoProducts } from "./products.ts"

/**
 * The OCTO core API over the engine: an org's offerings a reseller sells as products (one option DEFAULT, one unit
 * adult), the engine's times as availability, and reservations as a reseller's holds (Resellers.hold), confirmed,
 * extended, changed and cancelled by the reseller. OCTO's shapes, codes and statuses live here, in transports/octo/;
 * the engine speaks its own language (a hold, a confirmation, an extension).
 */
export class Octo extends Effect.Service<Octo>()("Octo", {
  dependencies: [Availability.Default, Bookings.Default, Orgs.Default, Resellers.Default],
  effect: Effect.gen(function* () {
    const products = yield* octoProducts
    const availability = octoAvailability(products)
    const reservations = yield* octoBookings(products)
    const changes = yield* octoChanges(products, reservations)
    return {
      supplier: products.supplier,
      products: products.list,
      product: products.get,
      calendar: availability.calendar,
      availability: availability.check,
      reserve: reservations.reserve,
      update: changes.update,
      confirm: changes.confirm,
      extend: changes.extend,
      cancel: reservations.cancel,
      get: reservations.get,
      list: reservations.list
    } as const
  })
}) {}
