import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { traced } from "../tracing.ts"

/**
 * The deployment's id (table `deployment`, migration 0096): what makes this database's event ids unique on a bus that
 * other deployments share (Nats-Msg-Id `<deployment>:<event id>`). This store is the only writer of the table; the
 * relay reads the id in each batch's statement, so every instance uses the current one.
 */
export class Deployment extends Effect.Service<Deployment>()("Deployment", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /**
     * The id, on start: made if the row is missing, and made anew if the row was made elsewhere (its origin, migration
     * 0096, is not this database's: another cluster, timeline or database). This database is then a copy (a dump
     * restored, a template copied, a point-in-time recovery, a promoted replica) and the original may have published,
     * or still publish, under the old id. Instances starting together renew it once: the second waits on the first's
     * row lock and then finds the origin its own.
     */
    const claim = Effect.gen(function* () {
      const [row] = yield* sql<{ id: string }>`
        insert into deployment as d default values
        on conflict (one) do update set id = gen_random_uuid(), origin = excluded.origin, created_at = now()
          where d.origin <> excluded.origin
        returning d.id`
      if (row !== undefined) return { id: row.id, renewed: true }
      const [kept] = yield* sql<{ id: string }>`select id from deployment`
      return { id: kept.id, renewed: false }
    }).pipe(Effect.orDie, traced("Deployment.claim"))

    /**
     * A new id in place of `stale`, when the bus holds other events under the stale id's event ids (a byte-for-byte
     * copy, a restore or a promoted replica of this database published them). Conditional, so instances that find
     * the same clash renew it once; answers the id now in force.
     */
    const renew = (stale: string) =>
      Effect.gen(function* () {
        yield* sql`update deployment set id = gen_random_uuid(), created_at = now() where id = ${stale}::uuid`
        const [row] = yield* sql<{ id: string }>`select id from deployment`
        return row.id
      }).pipe(Effect.orDie, traced("Deployment.renew"))

    return { claim, renew } as const
  })
}) {}
