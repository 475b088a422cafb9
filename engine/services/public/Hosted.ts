import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { notFound } from "../../errors/index.ts"
import { keepPageKey, pageKey } from "../../store/hostedPages.ts"
import { transaction } from "../../store/transaction.ts"
import { Orgs } from "../Orgs.ts"

/**
 * The engine's own booking page for an offering (/book?offering_id=…): the widget with a publishable key the engine
 * makes for the org on first use and keeps (publishable keys are safe in a web page; the org may revoke it, and the
 * next visit makes another).
 */
export class Hosted extends Effect.Service<Hosted>()("Hosted", {
  dependencies: [Orgs.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const orgs = yield* Orgs

    const keyFor = (offeringId: string) =>
      Effect.gen(function* () {
        if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(offeringId))
          return yield* notFound("offering")
        const [o] = yield* sql<{ org_id: string; name: string }>`
          select org_id, name from offerings where id = ${offeringId} and state = 'active' and deleted_at is null`
        if (o === undefined) return yield* notFound("offering")
        return yield* Effect.gen(function* () {
          yield* sql`select id from orgs where id = ${o.org_id} for update`
          const kept = yield* pageKey(sql, o.org_id)
          if (kept !== undefined) return { key: kept, name: o.name }
          const made = yield* orgs.createKey(o.org_id, { kind: "publishable", name: "hosted booking page" })
          yield* keepPageKey(sql, o.org_id, made.key)
          return { key: made.key, name: o.name }
        }).pipe(transaction(sql))
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    return { keyFor } as const
  })
}) {}
