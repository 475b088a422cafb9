import { Cause } from "effect"

/** Connection-level failures of the database: nothing the caller did, and gone when the database is back. */
const NETWORK = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN"
])
// "timeout expired": pg's own connect time-out (connectionTimeoutMillis), met when a new connection's handshake is not
// done in DB_TIMEOUT_MS, for example while a crowd keeps the event loop busy.
const MESSAGES =
  /^timeout expired$|Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|the database does not answer|the database did not answer|Client was closed and is not queryable/i

const unreachable = (e: unknown, depth = 0): boolean => {
  if (depth > 5 || typeof e !== "object" || e === null) return false
  const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown }
  // SQLSTATE class 08 (connection exception), 53 (insufficient resources: too many clients, out of memory or disk),
  // 57014 (a statement cancelled: the statement time-out), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect
  // now), 25P03 (a transaction ended by the idle time-out), 25006 (a read-only host: a standby, or a primary demoted
  // in a failover; its connection is dropped, adapters/db/failover.ts).
  if (
    typeof code === "string" &&
    (NETWORK.has(code) ||
      /^(08|53)/.test(code) ||
      /^57(014|P0[123])$/.test(code) ||
      code === "25P03" ||
      code === "25006")
  )
    return true
  if (typeof message === "string" && MESSAGES.test(message)) return true
  return unreachable(cause, depth + 1)
}

/** Whether a request failed because the database could not be reached (503 unavailable), not because of a bug (500). */
export const databaseUnreachable = (cause: Cause.Cause<unknown>) =>
  [...Cause.defects(cause), ...Cause.failures(cause)].some((e) => unreachable(e))

/** Seconds a client should wait before trying again when the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5

/** What every surface says, in its own error shape, when the database is unreachable (503, Retry-After). */
export const UNAVAILABLE_MESSAGE = "the service cannot reach its database just now; try again shortly"
