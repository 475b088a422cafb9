import pg from "pg"

/**
 * How long the engine waits on a Postgres that does not answer (DB_TIMEOUT_MS, 3 s by default). A database that is
 * slow because it is busy (a crowd queueing on one time's row, every connection in use) still answers: the signals
 * client pings it each second it is otherwise quiet, and any answer on any connection counts. A database that answers
 * nothing for this long (frozen, a network that drops packets) is unresponsive: a statement waiting on it is abandoned
 * and its connection destroyed, a request waiting for a connection gives up, and new ones fail at once (one is let
 * through each second to find out whether it is back). Either way the request fails as unreachable: 503.
 */
export const DEFAULT_DB_TIMEOUT_MS = 3_000
/** Postgres's own limits: a statement running this long is cancelled, a transaction left idle this long is ended. */
const STATEMENT_MS = 30_000
const IDLE_IN_TRANSACTION_MS = 30_000
/** While unresponsive, one request a second is let through to the database to learn that it is back. */
const PROBE_EVERY_MS = 1_000
/** A check that runs this much later than it was due ran after the process stalled: it looks again before judging. */
const LATE_MS = 250

export interface Timeouts {
  readonly ms: number
  /** Off while the migrations run (they may wait on another instance's lock). */
  enabled: boolean
  /** When the database last answered anything (ms since the epoch). */
  answeredAt: number
  probedAt: number
}

export const makeTimeouts = (ms: number): Timeouts => ({ ms, enabled: ms > 0, answeredAt: Date.now(), probedAt: 0 })
export const answered = (t: Timeouts) => {
  t.answeredAt = Date.now()
}
/** Whether the database answered something within the time-out. */
export const responsive = (t: Timeouts) => !t.enabled || Date.now() - t.answeredAt < t.ms

/** The error a request gets when the database did not answer in time: code ETIMEDOUT, which maps to 503 unavailable. */
export const timedOut = (ms: number) =>
  Object.assign(new Error(`the database did not answer within ${ms} ms`), { code: "ETIMEDOUT" })

/** The settings Postgres applies to every session of the pool. */
export const serverTimeouts = (t: Timeouts): pg.ClientConfig =>
  t.ms > 0
    ? {
        statement_timeout: Math.max(STATEMENT_MS, t.ms),
        idle_in_transaction_session_timeout: Math.max(IDLE_IN_TRANSACTION_MS, t.ms),
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000
      }
    : {}

/**
 * Calls `giveUp` once the database has answered nothing for the time-out (checking again each second while it
 * still answers); the returned function cancels it.
 */
export const whenUnresponsive = (t: Timeouts, giveUp: () => void) => {
  let timer: ReturnType<typeof setTimeout>
  const arm = (delay: number) => {
    const due = Date.now() + delay
    timer = setTimeout(() => {
      if (Date.now() - due > LATE_MS) return arm(100)
      if (responsive(t)) return arm(Math.min(t.ms, PROBE_EVERY_MS))
      giveUp()
    }, delay)
    timer.unref()
  }
  arm(t.ms)
  return () => clearTimeout(timer)
}

type Callback = (err: Error | null | undefined, result?: unknown) => void
interface Internals {
  query: (...args: Array<unknown>) => unknown
  readonly connection?: { readonly stream?: { destroy: (e?: Error) => void } }
}

/**
 * A pg Client whose callback queries (every query @effect/sql-pg, pg-pool and the prepared statements make) note the
 * database's answers, and end once it is unresponsive: the socket is destroyed, so the query and any behind it fail at
 * once, and the pool drops the client instead of handing out a connection with a statement still pending on it. A
 * new connection gives up after the time-out.
 */
export const timedClient = (t: Timeouts): typeof pg.Client =>
  class TimedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(
        typeof config === "string"
          ? { connectionString: config, connectionTimeoutMillis: t.ms }
          : { ...config, connectionTimeoutMillis: t.ms }
      )
      // A connection lost while checked out emits 'error' twice (the cause, then "terminated"): the second may find no
      // listener left and would be thrown out of the process. Queries learn of it through their callbacks.
      this.on("error", () => {})
      const self = this as unknown as Internals
      const query = self.query.bind(this)
      self.query = (...args: Array<unknown>) => {
        const at = args.findIndex((a) => typeof a === "function")
        if (!t.enabled || at < 0) return query(...args)
        const callback = args[at] as Callback
        const cancel = whenUnresponsive(t, () => self.connection?.stream?.destroy(timedOut(t.ms)))
        args[at] = (err: Error | null | undefined, result?: unknown) => {
          cancel()
          // The server answered: a result (pg passes null), or an error of its own (not one of the connection).
          if (!err || err instanceof pg.DatabaseError) answered(t)
          callback(err, result)
        }
        return query(...args)
      }
    }
  }

type Release = (err?: Error | boolean) => void
type ConnectCallback = (err: Error | undefined, client?: pg.PoolClient, release?: Release) => void

/**
 * The pool's checkout, bounded the same way: a request waits for a connection while the database answers (a busy pool
 * drains), gives up once it is unresponsive, and while it is, fails at once but for one probe a second. A connection
 * that arrives for a request that gave up goes back to the pool.
 */
export const boundCheckout = (pool: pg.Pool, t: Timeouts) => {
  const connect = pool.connect.bind(pool) as (cb: ConnectCallback) => void
  const bounded = (cb: ConnectCallback) => {
    if (!t.enabled) return connect(cb)
    if (!responsive(t)) {
      if (Date.now() - t.probedAt < PROBE_EVERY_MS) return void process.nextTick(() => cb(timedOut(t.ms)))
      t.probedAt = Date.now()
    }
    let done = false
    const cancel = whenUnresponsive(t, () => {
      done = true
      cb(timedOut(t.ms))
    })
    connect((err, client, release) => {
      cancel()
      if (done) return void (client === undefined ? undefined : release?.(err))
      done = true
      cb(err, client, release)
    })
  }
  const patched = (cb?: ConnectCallback) =>
    cb !== undefined
      ? bounded(cb)
      : new Promise<pg.PoolClient>((resolve, reject) =>
          bounded((err, client) => (err ? reject(err) : resolve(client!)))
        )
  ;(pool as unknown as { connect: typeof patched }).connect = patched
}
