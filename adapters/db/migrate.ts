import { SqlClient } from "@effect/sql"
import { PgMigrator } from "@effect/sql-pg"
import { Effect, Layer, Option } from "effect"
import { migrations } from "../../engine/store/Migrations.ts"
import { PgPool } from "./pool.ts"
import { applyRules } from "./rules.ts"

const migrate = PgMigrator.run({ loader: migrations })

/**
 * Runs what is new of the numbered migrations, once, then the database rules that changed (rules.ts), in one
 * transaction. On Postgres they run without the pool's time-outs: the first statement waits for another instance's
 * migrations (a lock), and a migration may rewrite a large table. Nothing else uses the pool yet: the server listens
 * only once they are done.
 */
export const MigrateLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const pool = yield* Effect.serviceOption(PgPool)
    const timeouts = Option.getOrUndefined(Option.map(pool, (p) => p.timeouts))
    const sql = yield* SqlClient.SqlClient
    // The migrator's own check for its table fails on a new database, which would abort this transaction: made first.
    const prepare = sql`set local statement_timeout = 0`.pipe(
      Effect.zipRight(sql`create table if not exists effect_sql_migrations (
    migration_id integer primary key, created_at timestamp with time zone not null default now(), name text not null)`)
    )
    const run = sql.withTransaction(prepare.pipe(Effect.zipRight(migrate), Effect.zipRight(applyRules())))
    if (timeouts === undefined || !timeouts.enabled) return yield* run
    timeouts.enabled = false
    yield* run.pipe(Effect.ensuring(Effect.sync(() => (timeouts.enabled = true))))
  })
).pipe(Layer.orDie)
