import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { notFound } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import type { BookingCreate } from "../../schema/booking.ts"
import { Bookings } from "../bookings/Bookings.ts"
import { CurrentOrg, type Plan, RequestSurface } from "../CurrentOrg.ts"
import { Public } from "../public/Public.ts"

/** Live holds an assistant may keep for one guest email in one org; one more is 429 until one lapses or is confirmed. */
export const HOLDS_PER_EMAIL = 3

type OrgRow = { id: string; timezone: string; currency: string; plan: Plan }

/**
 * The assistant booking channel (/api/mcp/book/{slug}): any AI assistant, with no key, may read an org's active
 * offerings (public fields) and their times, and hold a booking for a guest. The hold has source `assistant`, lasts 30
 * minutes, and the guest is emailed a link to their page to confirm it (or to pay). The assistant never gets the
 * guest's page link, nor anything private of the org.
 */
export class Assistant extends Effect.Service<Assistant>()("Assistant", {
  dependencies: [Public.Default, Bookings.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const pub = yield* Public
    const bookings = yield* Bookings

    const orgOf = (slug: string) =>
      Effect.flatMap(
        sql<OrgRow>`select id, timezone, currency, plan from orgs where slug = ${slug.toLowerCase()}`.pipe(
          Effect.orDie
        ),
        (rows) => (rows[0] === undefined ? Effect.fail(notFound("org")) : Effect.succeed(rows[0]))
      )

    const asOrg = <A, E, R>(slug: string, effect: Effect.Effect<A, E, R>) =>
      Effect.flatMap(orgOf(slug), (o) =>
        effect.pipe(
          Effect.provideService(CurrentOrg, {
            id: o.id,
            timezone: o.timezone,
            currency: o.currency,
            plan: o.plan,
            apiKeyId: "assistant",
            role: "staff",
            userId: null,
            keyKind: "publishable"
          }),
          Effect.provideService(RequestSurface, "assistant")
        )
      )

    const org = (slug: string) => asOrg(slug, pub.org(undefined))
    const offerings = (slug: string) => asOrg(slug, pub.list(undefined))
    const times = (slug: string, offeringId: string, query: { from?: string; to?: string }) =>
      asOrg(slug, pub.times(offeringId, query, undefined))

    /** Seconds until the guest's earliest live assistant hold lapses, when they already have HOLDS_PER_EMAIL; else none. */
    const holdsFull = (slug: string, email: string) =>
      Effect.gen(function* () {
        const o = yield* orgOf(slug)
        const now = yield* clock.now
        const [r] = yield* sql<{ n: number; first: Date | null }>`
          select count(*)::int as n, min(b.expires_at) as first from bookings b join customers c on c.id = b.customer_id
          where b.org_id = ${o.id} and b.source = 'assistant' and b.status = 'held' and b.keeps_place and b.expires_at > ${now}
            and lower(c.email) = lower(${email})`.pipe(Effect.orDie)
        return r.n < HOLDS_PER_EMAIL || r.first === null
          ? Option.none<number>()
          : Option.some(Math.max(1, Math.ceil((r.first.getTime() - now.getTime()) / 1000)))
      })

    const hold = (slug: string, input: BookingCreate) =>
      Effect.map(asOrg(slug, bookings.holdForGuest(input)), (b) => ({
        reference: b.reference,
        status: b.status,
        offering_id: b.offering_id,
        session_id: b.session_id,
        starts_at: b.starts_at,
        ends_at: b.ends_at,
        quantity: b.quantity,
        total_cents: b.total_cents,
        expires_at: b.expires_at,
        next: "Held for 30 minutes. The guest has been emailed a link to confirm it (or to pay, when there is something to pay); until then the place is not theirs."
      }))

    return { org, offerings, times, holdsFull, hold } as const
  })
}) {}
