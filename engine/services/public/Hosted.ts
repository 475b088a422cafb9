import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { notFound } from "../../errors/index.ts"
import { keepPageKey, pageKeyCandidates } from "../../store/hostedPages.ts"
import { transaction } from "../../store/transaction.ts"
import { traced } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Orgs } from "../Orgs.ts"
import { hashKey } from "../orgRows.ts"

/**
 * The org's widget key: one publishable key the engine makes for the org on first use and keeps, for its own booking
 * page for an offering (/book?offering_id=…) and the console's preview of the widget (keys.widget_key). Publishable
 * keys are safe in a web page; the org may revoke it, and the next use makes another.
 */
export class Hosted extends Effect.Service<Hosted>()("Hosted", {
  dependencies: [Orgs.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const orgs = yield* Orgs

    /** The org's page key, made under the org row's lock so that calls at once all get the one made. */
    const pageKeyOf = (orgId: string) =>
      Effect.gen(function* () {
        yield* sql`select id from orgs where id = ${orgId} for update`
        const kept = (yield* pageKeyCandidates(sql, orgId)).find((k) => k.hash === hashKey(k.publishable_key))
        if (kept !== undefined)
          return {
            id: kept.id,
            key: kept.publishable_key,
            prefix: kept.prefix,
            created_at: kept.created_at.toISOString()
          }
        // The org's row is locked and the key has no member: neither not_found nor not_a_member can happen.
        const made = yield* orgs.createKey(orgId, { kind: "publishable", name: "widget" }).pipe(Effect.orDie)
        yield* keepPageKey(sql, orgId, made.key)
        return { id: made.id, key: made.key, prefix: made.prefix, created_at: made.created_at }
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))

    /** The key and name of an active offering's org, for its booking page. */
    const keyFor = (offeringId: string) =>
      Effect.gen(function* () {
        if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(offeringId))
          return yield* notFound("offering")
        const [o] = yield* sql<{ org_id: string; name: string }>`
          select org_id, name from offerings where id = ${offeringId} and state = 'active' and deleted_at is null`
        if (o === undefined) return yield* notFound("offering")
        return { key: (yield* pageKeyOf(o.org_id)).key, name: o.name }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    /** keys.widget_key: the caller's org's page key. */
    const widgetKey = Effect.flatMap(CurrentOrg, (org) => pageKeyOf(org.id)).pipe(traced("Hosted.widgetKey"))

    return { keyFor, widgetKey } as const
  })
}) {}
