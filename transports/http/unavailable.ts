import { Cause } from "effect"

/** Connection-level failures of the database: nothing the caller did, and gone when the database is back. */
const NETWORK = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"])
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|the database does not answer/i

const unreachable = (e: unknown, depth = 0): boolean => {
  if (depth > 5 || typeof e !== "object" || e === null) return false
  const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown }
  // SQLSTATE class 08 (connection exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now).
  if (typeof code === "string" && (NETWORK.has(code) || /^08/.test(code) || /^57P0[123]$/.test(code))) return true
  if (typeof message === "string" && MESSAGES.test(message)) return true
  return unreachable(cause, depth + 1)
}

/** Whether a request failed because the database could not be reached (503 unavailable), not because of a bug (500). */
export const databaseUnreachable = (cause: Cause.Cause<unknown>) =>
  [...Cause.defects(cause), ...Cause.failures(cause)].some((e) => unreachable(e))

/** Seconds a client should wait before trying again when the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5
