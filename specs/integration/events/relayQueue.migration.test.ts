import { NodeContext } from "@effect/platform-node"
import { Migrator, SqlClient } from "@effect/sql"
import { PgMigrator } from "@effect/sql-pg"
import { Context, Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { openPglite, PgliteServed } from "../../../adapters/db/pglite.ts"
import { migrationsByName } from "../../../engine/store/Migrations.ts"

/**
 * Migration 0092 moves the relay's progress from events.relayed_at to relay_queue: a database that still has events
 * waiting for the bus when it is upgraded must queue exactly those, so none is lost and none goes out twice. On an
 * in-memory PGlite (the migrations are the same SQL on both).
 */
const upTo = (last: string) =>
  PgMigrator.layer({ loader: Migrator.fromRecord(Object.fromEntries(Object.entries(migrationsByName).filter(([name]) => name <= last))) })

describe("migration 0092 (relay queue)", () => {
  it("queues the events not yet relayed, and only those", async () => {
    const db = await openPglite(undefined)
    const base = Layer.merge(Layer.orDie(PgliteServed(() => Promise.resolve(db), () => Promise.resolve())), NodeContext.layer)
    try {
      const after = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const ctx = yield* Layer.build(base)
        const migrate = (last: string) => Layer.build(upTo(last)).pipe(Effect.scoped, Effect.provide(ctx))
        const sql = Context.get(ctx, SqlClient.SqlClient)
        yield* migrate("0091_places_fast_path")
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`set local session_replication_role = replica` // no org rows needed for the events' foreign key
          yield* sql`insert into events (id, org_id, type, data, created_at, relayed_at)
            select g, gen_random_uuid(), 'org.updated', '{}'::jsonb, now(), case when g % 3 = 0 then null else now() end
            from generate_series(1, 30) g`
        }))
        yield* migrate("0092_relay_queue")
        const queued = yield* sql<{ event_id: string }>`select event_id from relay_queue order by event_id`
        const column = yield* sql<{ n: number }>`select count(*)::int as n from information_schema.columns
          where table_name = 'events' and column_name = 'relayed_at'`
        return { queued: queued.map((r) => Number(r.event_id)), column: column[0].n }
      })))
      expect(after.queued).toEqual([3, 6, 9, 12, 15, 18, 21, 24, 27, 30])
      expect(after.column).toBe(0)
    } finally {
      await db.close()
    }
  }, 120_000)
})
