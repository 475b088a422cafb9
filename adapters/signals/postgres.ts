import { Effect, Layer } from "effect"
import pg from "pg"
import { inProcessSignals, type SignalHandlers, Signals, type SignalsShape } from "../../engine/ports/Signals.ts"
import { PgPool } from "../db/pool.ts"

/** Reconnects wait FIRST_RETRY_MS, doubling to at most MAX_RETRY_MS, each time a random 50-100% of that (jitter). */
export const FIRST_RETRY_MS = 250
export const MAX_RETRY_MS = 10_000
/** A connect or a LISTEN that takes longer than this counts as failed. */
const ATTEMPT_TIMEOUT_MS = 5_000

export const retryDelay = (failures: number, random = Math.random) =>
  Math.round(Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(failures, 16)) * (0.5 + random() / 2))

/**
 * Signals over Postgres: one dedicated client holds LISTEN for every channel; NOTIFY goes through the pool. At most one
 * listening client exists at a time, and at most one attempt to make one is under way: a client that fails or drops
 * is ended and schedules exactly one reconnect, after a backoff that grows with each failure in a row (with jitter,
 * so instances that lost the same server do not return in step). Every listener is reset (told it may have missed
 * messages) when the client drops and once a new one listens.
 */
const postgresSignals = (config: pg.ClientConfig) =>
  Effect.gen(function*() {
    const pool = (yield* PgPool).pool
    const channels = new Map<string, Set<SignalHandlers>>()
    let client: pg.Client | undefined
    let closed = false
    let failures = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    const resetAll = () => channels.forEach((set) => set.forEach((h) => h.onReset()))
    const quote = (channel: string) => `"${channel.replace(/"/g, "\"\"")}"`
    const listenOn = (c: pg.Client, channel: string) =>
      new Promise<void>((resolve, reject) => {
        const late = setTimeout(() => reject(new Error("LISTEN did not answer")), ATTEMPT_TIMEOUT_MS)
        c.query(`listen ${quote(channel)}`).then(() => resolve(), reject).finally(() => clearTimeout(late))
      })

    const schedule = () => {
      if (closed || timer !== undefined) return
      timer = setTimeout(() => {
        timer = undefined
        void connect()
      }, retryDelay(failures++))
      timer.unref()
    }

    const connect = async (): Promise<void> => {
      const c = new pg.Client({ ...config, connectionTimeoutMillis: ATTEMPT_TIMEOUT_MS, keepAlive: true, keepAliveInitialDelayMillis: 10_000 })
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
      resetAll()
    }

    yield* Effect.acquireRelease(Effect.promise(connect), () =>
      Effect.promise(async () => {
        closed = true
        if (timer !== undefined) clearTimeout(timer)
        await client?.end().catch(() => {})
      }))

    const shape: SignalsShape = {
      notify: (channel, payload) =>
        Effect.promise(() => pool.query("select pg_notify($1, $2)", [channel, payload]).then(() => undefined, () => undefined)),
      listen: (channel, handlers) =>
        Effect.acquireRelease(
          Effect.promise(async () => {
            const fresh = !channels.has(channel)
            channels.set(channel, (channels.get(channel) ?? new Set()).add(handlers))
            const c = client
            // A client that cannot LISTEN is dropped; its replacement listens on every channel.
            if (fresh && c !== undefined) await listenOn(c, channel).catch(() => c.emit("error", new Error("LISTEN failed")))
          }),
          () => Effect.sync(() => channels.get(channel)?.delete(handlers))
        )
    }
    return shape
  })

/** Postgres LISTEN/NOTIFY on a real server; in-process over PGlite, which one process owns. */
export const SignalsLive = Layer.scoped(
  Signals,
  Effect.flatMap(PgPool, ({ kind, pool }) =>
    kind === "postgres" ? postgresSignals((pool as unknown as { options: pg.ClientConfig }).options) : Effect.succeed(inProcessSignals()))
)
