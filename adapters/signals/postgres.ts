import { Effect, Layer } from "effect"
import type pg from "pg"
import { inProcessSignals, type SignalHandlers, Signals, type SignalsShape } from "../../engine/ports/Signals.ts"
import { PgPool } from "../db/pool.ts"
import { answered, type Timeouts } from "../db/timeouts.ts"
import { makeBarrier, SYNC_CHANNEL } from "./barrier.ts"
import { pgliteSignals } from "./pglite.ts"

/** Reconnects wait FIRST_RETRY_MS, doubling to at most MAX_RETRY_MS, each time a random 50-100% of that (jitter). */
export const FIRST_RETRY_MS = 250
export const MAX_RETRY_MS = 10_000
/** A connect or a LISTEN that takes longer than this counts as failed. */
const ATTEMPT_TIMEOUT_MS = 5_000
/** A second without any answer from the database, the listening client asks it something (timeouts.ts). */
const PING_MS = 1_000

export const retryDelay = (failures: number, random = Math.random) =>
  Math.round(Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(failures, 16)) * (0.5 + random() / 2))

/**
 * Signals over Postgres: one dedicated client holds LISTEN for every channel; NOTIFY goes through the pool. At most one
 * listening client exists at a time, and at most one attempt to make one is under way: a client that fails or drops
 * is ended and schedules exactly one reconnect, after a backoff that grows with each failure in a row (with jitter,
 * so instances that lost the same server do not return in step). Every listener is reset (told it may have missed
 * messages) when the client drops and once a new one listens. The same client pings the database each second in
 * which nothing else heard from it, so the pool can tell a busy database (it answers) from a frozen one (timeouts.ts);
 * a ping not answered in time drops the client like any other failure.
 */
const postgresSignals = (config: pg.ClientConfig, timeouts: Timeouts, Client: typeof pg.Client) =>
  Effect.gen(function* () {
    const pool = (yield* PgPool).pool
    const channels = new Map<string, Set<SignalHandlers>>()
    let client: pg.Client | undefined
    let closed = false
    let failures = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    const resetAll = () => channels.forEach((set) => set.forEach((h) => h.onReset()))
    // The barrier goes round on the listening client itself, never waiting behind the pool's queue.
    const barrier = makeBarrier((payload) => client?.query("select pg_notify($1, $2)", [SYNC_CHANNEL, payload]))
    channels.set(SYNC_CHANNEL, new Set([{ onMessage: barrier.heard, onReset: barrier.fail }]))
    const quote = (channel: string) => `"${channel.replace(/"/g, '""')}"`
    const within = (c: pg.Client, text: string, ms: number) =>
      new Promise<void>((resolve, reject) => {
        const late = setTimeout(() => reject(new Error(`${text} did not answer`)), ms)
        c.query(text)
          .then(() => resolve(), reject)
          .finally(() => clearTimeout(late))
      })
    const listenOn = (c: pg.Client, channel: string) => within(c, `listen ${quote(channel)}`, ATTEMPT_TIMEOUT_MS)
    const ping = setInterval(() => {
      const c = client
      if (c === undefined || !timeouts.enabled || Date.now() - timeouts.answeredAt < PING_MS) return
      within(c, "select 1", timeouts.ms).then(
        () => answered(timeouts),
        () => c.emit("error", new Error("the database did not answer a ping"))
      )
    }, PING_MS)
    ping.unref()

    const schedule = () => {
      if (closed || timer !== undefined) return
      timer = setTimeout(() => {
        timer = undefined
        void connect()
      }, retryDelay(failures++))
      timer.unref()
    }

    const connect = async (): Promise<void> => {
      const c = new Client({
        ...config,
        connectionTimeoutMillis: ATTEMPT_TIMEOUT_MS,
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000
      })
      let gone = false
      // However this client ends (a failed connect, a failed LISTEN, the server going away), it is ended once and
      // schedules one reconnect.
      const drop = () => {
        if (gone) return
        gone = true
        if (client === c) {
          client = undefined
          resetAll()
        }
        c.end().catch(() => {})
        schedule()
      }
      c.on("notification", (m) => channels.get(m.channel)?.forEach((h) => h.onMessage(m.payload ?? "")))
      c.on("error", drop)
      c.on("end", drop)
      try {
        await c.connect()
        for (const channel of channels.keys()) await listenOn(c, channel)
      } catch {
        return drop()
      }
      if (gone) return
      if (closed) return void c.end().catch(() => {})
      failures = 0
      client = c
      answered(timeouts)
      resetAll()
    }

    yield* Effect.acquireRelease(Effect.promise(connect), () =>
      Effect.promise(async () => {
        closed = true
        clearInterval(ping)
        if (timer !== undefined) clearTimeout(timer)
        await client?.end().catch(() => {})
      })
    )

    const shape: SignalsShape = {
      notify: (channel, payload) =>
        Effect.promise(() =>
          pool.query("select pg_notify($1, $2)", [channel, payload]).then(
            () => undefined,
            () => undefined
          )
        ),
      listen: (channel, handlers) =>
        Effect.acquireRelease(
          Effect.promise(async () => {
            const fresh = !channels.has(channel)
            channels.set(channel, (channels.get(channel) ?? new Set()).add(handlers))
            const c = client
            // A client that cannot LISTEN is dropped; its replacement listens on every channel.
            if (fresh && c !== undefined)
              await listenOn(c, channel).catch(() => c.emit("error", new Error("LISTEN failed")))
          }),
          () => Effect.sync(() => channels.get(channel)?.delete(handlers))
        ),
      sync: Effect.promise(barrier.wait),
      synced: barrier.wait,
      listening: () => client !== undefined
    }
    return shape
  })

/**
 * Postgres LISTEN/NOTIFY on a real server; over PGlite, which one process owns, in-process for the engine's own
 * messages and the database's NOTIFYs heard on its one connection.
 */
export const SignalsLive = Layer.scoped(
  Signals,
  Effect.flatMap(PgPool, ({ kind, pool, timeouts, session, SessionClient }) =>
    kind === "postgres" ? postgresSignals(session, timeouts, SessionClient) : pgliteSignals(pool, inProcessSignals())
  )
)
