import pg from "pg"

/**
 * How long a request may wait on Postgres (DB_TIMEOUT_MS, 3 s by default): for a connection from the pool (or a new
 * one), and for each statement. Postgres cancels a statement itself at STATEMENT_SHARE of it and keeps the
 * connection; a server that does not answer at all (frozen, or a network that drops packets) cannot, so the driver
 * gives up at the full time and destroys the connection. Either way the request fails as unreachable: 503.
 */
export const DEFAULT_DB_TIMEOUT_MS = 3_000
const STATEMENT_SHARE = 5 / 6
/** A transaction idle this long (its client stalled between statements) is ended by Postgres, releasing its locks. */
const IDLE_IN_TRANSACTION_MS = 30_000

/** The read time-out can be switched off while the migrations run (they may wait on another instance's lock). */
export interface Timeouts {
  readonly ms: number
  enabled: boolean
}

export const makeTimeouts = (ms: number): Timeouts => ({ ms, enabled: ms > 0 })

/** The settings Postgres applies to every session of the pool. */
export const serverTimeouts = (t: Timeouts): pg.ClientConfig =>
  t.ms > 0
    ? {
      statement_timeout: Math.max(1, Math.floor(t.ms * STATEMENT_SHARE)),
      idle_in_transaction_session_timeout: Math.max(IDLE_IN_TRANSACTION_MS, t.ms * 10),
      connectionTimeoutMillis: t.ms,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000
    }
    : {}

/** The error a query gets when the server did not answer in time: code ETIMEDOUT, which maps to 503 unavailable. */
export const timedOut = (ms: number) =>
  Object.assign(new Error(`the database did not answer within ${ms} ms`), { code: "ETIMEDOUT" })

type Callback = (err: Error | undefined, result?: unknown) => void
interface Internals {
  query: (...args: Array<unknown>) => unknown
  readonly connection?: { readonly stream?: { destroy: (e?: Error) => void } }
}

/**
 * A pg Client whose callback queries (every query @effect/sql-pg, pg-pool and the prepared statements make) end
 * after the time-out: the socket is destroyed, so the query and any behind it fail at once, and the pool drops the
 * client instead of handing out a connection with a statement still pending on it.
 */
export const timedClient = (t: Timeouts): typeof pg.Client =>
  class TimedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config)
      // A connection lost while checked out emits 'error' twice (the cause, then "terminated"): the second may find no
      // listener left and would be thrown out of the process. Queries learn of it through their callbacks.
      this.on("error", () => {})
      const self = this as unknown as Internals
      const query = self.query.bind(this)
      self.query = (...args: Array<unknown>) => {
        const at = args.findIndex((a) => typeof a === "function")
        if (!t.enabled || at < 0) return query(...args)
        const callback = args[at] as Callback
        const timer = setTimeout(() => self.connection?.stream?.destroy(timedOut(t.ms)), t.ms)
        timer.unref()
        args[at] = (err: Error | undefined, result?: unknown) => {
          clearTimeout(timer)
          callback(err, result)
        }
        return query(...args)
      }
    }
  }
