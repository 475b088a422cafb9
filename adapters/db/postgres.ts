import { type PostgresOptions, poolLayer } from "./pool.ts"
import { DEFAULT_DB_TIMEOUT_MS } from "./timeouts.ts"

export type { PostgresOptions }

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
