import { NodeContext } from "@effect/platform-node"
import { Migrator, SqlClient } from "@effect/sql"
import { PgMigrator } from "@effect/sql-pg"
import { Context, Effect, Layer } from "effect"
import { openPglite, PgliteServed } from "../../adapters/db/pglite.ts"
import { migrationsByName } from "../../engine/store/Migrations.ts"

const upTo = (last: string) =>
  PgMigrator.layer({
    loader: Migrator.fromRecord(Object.fromEntries(Object.entries(migrationsByName).filter(([name]) => name <= last)))
  })

/**
 * An upgrade, on an in-memory PGlite (the migrations are the same SQL on both databases): migrates up to `before`,
 * runs `seed` (in a transaction with foreign-key triggers off, so rows need no parents), migrates up to `after`, and
 * returns what `check` reads.
 */
export const upgrade = async <A>(
  before: string,
  after: string,
  seed: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>,
  check: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>
): Promise<A> => {
  if (!(before in migrationsByName) || !(after in migrationsByName))
    throw new Error(`no migration ${before} or ${after}`)
  const db = await openPglite(undefined)
  const base = Layer.merge(
    Layer.orDie(
      PgliteServed(
        () => Promise.resolve(db),
        () => Promise.resolve()
      )
    ),
    NodeContext.layer
  )
  try {
    return await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const ctx = yield* Layer.build(base)
          const migrate = (last: string) => Layer.build(upTo(last)).pipe(Effect.scoped, Effect.provide(ctx))
          const sql = Context.get(ctx, SqlClient.SqlClient)
          yield* migrate(before)
          yield* sql.withTransaction(Effect.zipRight(sql`set local session_replication_role = replica`, seed(sql)))
          yield* migrate(after)
          return yield* check(sql)
        })
      )
    )
  } finally {
    await db.close()
  }
}
