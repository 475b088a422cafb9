import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { forbidden, notFound } from "../../schema/errors.ts"
import { PublicOffering } from "../../schema/public.ts"
import type { BookingCreate } from "../../schema/booking.ts"
import { Bookings } from "../bookings/Bookings.ts"
import { Availability } from "../calendar/Availability.ts"
import { CurrentOrg, RequestSurface } from "../CurrentOrg.ts"
import { guestPage, Links } from "../Links.ts"
import { Offerings } from "../offerings/Offerings.ts"
import { Orgs } from "../Orgs.ts"

const publicFields = Schema.encodeSync(PublicOffering)

/**
 * The public booking surface (/api/v1/public) for a publishable key: the org's active offerings, their times, and a
 * booking with source `widget` through the same bookings.create as every other surface. A request from a web origin
 * the org has not allowed is 403.
 */
export class Public extends Effect.Service<Public>()("Public", {
  dependencies: [Offerings.Default, Availability.Default, Bookings.Default, Orgs.Default],
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const offerings = yield* Offerings
    const availability = yield* Availability
    const bookings = yield* Bookings
    const orgs = yield* Orgs
    const links = yield* Links

    const checkOrigin = (origin: string | undefined) =>
      Effect.flatMap(CurrentOrg, (org) =>
        origin === undefined || (org.allowedOrigins ?? []).includes(origin.toLowerCase())
          ? Effect.void
          : Effect.fail(forbidden(`the origin ${origin.slice(0, 100)} is not among the org's allowed_origins`)))

    const org = (origin: string | undefined) =>
      Effect.gen(function*() {
        yield* checkOrigin(origin)
        const o = yield* orgs.get
        return { name: o.name, timezone: o.timezone, currency: o.currency, currency_minor_units: o.currency_minor_units, locale: o.locale }
      })

    const list = (origin: string | undefined) =>
      Effect.gen(function*() {
        yield* checkOrigin(origin)
        const all = yield* offerings.list()
        return { data: all.data.filter((o) => o.active).map((o) => publicFields(o)) }
      })

    const activeOffering = (id: string) =>
      Effect.flatMap(offerings.get(id), (o) => (o.active ? Effect.succeed(o) : Effect.fail(notFound("offering"))))

    const get = (id: string, origin: string | undefined) =>
      Effect.zipRight(checkOrigin(origin), Effect.map(activeOffering(id), (o) => publicFields(o)))

    const times = (id: string, query: { from?: string; to?: string }, origin: string | undefined) =>
      Effect.zipRight(checkOrigin(origin), Effect.zipRight(activeOffering(id), availability.get(id, query)))

    const book = (input: BookingCreate, origin: string | undefined) =>
      Effect.gen(function*() {
        yield* checkOrigin(origin)
        yield* activeOffering(input.offering_id)
        const b = yield* bookings.create(input).pipe(Effect.provideService(RequestSurface, "widget"))
        const [{ handle }] = yield* sql<{ handle: string }>`select handle from bookings where id = ${b.id}`.pipe(Effect.orDie)
        return {
          id: b.id, reference: b.reference, status: b.status, offering_id: b.offering_id, session_id: b.session_id, starts_at: b.starts_at,
          ends_at: b.ends_at, quantity: b.quantity, total_cents: b.total_cents, discount_cents: b.discount_cents, gift_cents: b.gift_cents,
          expires_at: b.expires_at, checkout_url: b.checkout_url, page_url: guestPage(links.publicUrl, handle)
        }
      })

    return { org, list, get, times, book } as const
  })
}) {}
