import { poolLayer } from "./pool.ts"

/** A new connection that takes longer than this fails the request (503 unavailable) instead of making it wait. */
export const CONNECT_TIMEOUT_MS = 3_000

export const PostgresLive = (url: string, maxConnections = 20) =>
  poolLayer("postgres", { connectionString: url, max: maxConnections, application_name: "booking-engine", connectionTimeoutMillis: CONNECT_TIMEOUT_MS })
