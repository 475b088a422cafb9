import { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer } from "effect"
import pg from "pg"
import { PoolStats } from "../../engine/ports/PoolStats.ts"
import { connectorFor } from "./failover.ts"
import { pgTypes } from "./pgTypes.ts"
import { boundCheckout, makeTimeouts, serverTimeouts, type Timeouts, timedClient } from "./timeouts.ts"

export interface PostgresOptions {
  /**
   * DATABASE_DIRECT_URL: Postgres itself, when `url` is a transaction pooler (PgBouncer in transaction mode). What
   * needs a session of its own goes there: the LISTEN connection. The pooled connections then carry no session
   * settings at connect (a pooler refuses them): Postgres's own statement limits are the role's (docs/scaling.md).
   */
  readonly directUrl?: string | undefined
  /** DB_PREPARED_STATEMENTS: named prepared statements on the hot paths (true); false for a pooler that cannot keep them. */
  readonly prepared?: boolean | undefined
}

/**
 * The pg pool behind the SqlClient, for adapters that need the driver itself (LISTEN, named prepared statements).
 * `kind` says what serves it: a real server, or the embedded PGlite (one session, one connection). `timeouts` are the
 * pool's waits on a real server (none on PGlite, which runs in this process).
 */
export class PgPool extends Context.Tag("PgPool")<
  PgPool,
  {
    readonly pool: pg.Pool
    readonly kind: "postgres" | "pglite"
    readonly timeouts: Timeouts
    /** Where a connection of its own (LISTEN) goes: Postgres itself (DATABASE_DIRECT_URL), else the pool's server. */
    readonly session: pg.ClientConfig
    /** The Client class that makes it: to the host that accepts writes when the URL names several (failover.ts). */
    readonly SessionClient: typeof pg.Client
    /** Whether the hot paths may name their statements (DB_PREPARED_STATEMENTS). */
    readonly named: boolean
  }
>() {}

/**
 * A pg pool (ended with the scope) that answered a first query, the SqlClient over it, and the pool itself as
 * PgPool. PGlite keeps its one connection open (it serves one session to every connection). On Postgres a database
 * that answers nothing for `timeoutMs` fails the requests waiting on it (see timeouts.ts), never holds them.
 */
export const poolLayer = (
  kind: "postgres" | "pglite",
  config: pg.PoolConfig,
  timeoutMs = 0,
  options: PostgresOptions = {}
) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const timeouts = makeTimeouts(kind === "postgres" ? timeoutMs : 0)
      const pooled = options.directUrl !== undefined
      const direct = options.directUrl === undefined ? undefined : connectorFor(options.directUrl)
      // Behind a transaction pooler no session settings go with the connect: PgBouncer refuses them.
      const settings = pooled ? { keepAlive: true } : serverTimeouts(timeouts)
      const base = timeouts.ms > 0 ? timedClient(timeouts) : pg.Client
      const target =
        kind === "postgres" && config.connectionString !== undefined
          ? connectorFor(config.connectionString, base)
          : undefined
      const bounded = {
        ...(timeouts.ms > 0 ? settings : {}),
        ...(target === undefined ? {} : target)
      }
      const pool = yield* Effect.acquireRelease(
        Effect.sync(
          () =>
            new pg.Pool({
              ...config,
              ...bounded,
              types: pgTypes,
              ...(kind === "pglite" ? { idleTimeoutMillis: 0 } : {})
            })
        ),
        (p) => Effect.promise(() => p.end()).pipe(Effect.timeout("5 seconds"), Effect.ignore)
      )
      // An idle client's connection lost (server restart, network) must not crash the process; the pool replaces it.
      pool.on("error", () => {})
      if (timeouts.ms > 0) boundCheckout(pool, timeouts)
      yield* Effect.tryPromise({
        try: () => pool.query("select 1"),
        catch: (cause) =>
          new SqlError({
            cause,
            message: `the database does not answer: ${cause instanceof Error ? cause.message : String(cause)}`
          })
      }).pipe(
        Effect.timeoutFail({
          duration: "10 seconds",
          onTimeout: () => new SqlError({ message: "the database did not answer within 10 s" })
        })
      )
      return Layer.mergeAll(
        PgClient.layerFromPool({ acquire: Effect.succeed(pool) }),
        Layer.succeed(PgPool, {
          pool,
          kind,
          timeouts,
          session: pooled
            ? { ...config, ...serverTimeouts(timeouts), connectionString: direct!.connectionString }
            : (pool as unknown as { options: pg.ClientConfig }).options,
          SessionClient: pooled
            ? direct!.Client
            : config.connectionString === undefined
              ? pg.Client
              : connectorFor(config.connectionString).Client,
          named: options.prepared ?? true
        }),
        Layer.succeed(PoolStats, {
          read: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount })
        })
      )
    })
  )
