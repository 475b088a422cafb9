import { poolLayer } from "./pool.ts"
import { DEFAULT_DB_TIMEOUT_MS } from "./timeouts.ts"

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
 * A real Postgres: `maxConnections` per instance (DB_POOL_SIZE), and `timeoutMs` (DB_TIMEOUT_MS) the longest a request
 * waits for a connection or for a statement before it fails with 503 unavailable instead of waiting.
 */
export const PostgresLive = (
  url: string,
  maxConnections = 20,
  timeoutMs = DEFAULT_DB_TIMEOUT_MS,
  options: PostgresOptions = {}
) =>
  poolLayer(
    "postgres",
    { connectionString: url, max: maxConnections, application_name: "booking-engine" },
    timeoutMs,
    options
  )
