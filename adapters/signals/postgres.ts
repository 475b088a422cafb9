import { Effect, Layer } from "effect"
import pg from "pg"
import { inProcessSignals, type SignalHandlers, Signals, type SignalsShape } from "../../engine/ports/Signals.ts"
import { PgPool } from "../db/pool.ts"

const RETRY_MS = 1_000

/**
 * Signals over Postgres: one dedicated client holds LISTEN for every channel; NOTIFY goes through the pool. When the
 * client's connection drops it reconnects, and every listener is reset (told it may have missed messages) both when
 * it drops and once it listens again.
 */
const postgresSignals = (config: pg.ClientConfig) =>
  Effect.gen(function*() {
    const pool = (yield* PgPool).pool
    const channels = new Map<string, Set<SignalHandlers>>()
    let client: pg.Client | undefined
    let closed = false
    const resetAll = () => channels.forEach((set) => set.forEach((h) => h.onReset()))
    const quote = (channel: string) => `"${channel.replace(/"/g, "\"\"")}"`

    const connect = async (): Promise<void> => {
      const c = new pg.Client(config)
      c.on("notification", (m) => channels.get(m.channel)?.forEach((h) => h.onMessage(m.payload ?? "")))
      c.on("error", () => {})
      c.on("end", () => {
        if (client === c) client = undefined
        if (closed) return
        resetAll()
        setTimeout(() => void connect().catch(() => {}), RETRY_MS).unref()
      })
      try {
        await c.connect()
        for (const channel of channels.keys()) await c.query(`listen ${quote(channel)}`)
      } catch {
        if (client === undefined && !closed) setTimeout(() => void connect().catch(() => {}), RETRY_MS).unref()
        await c.end().catch(() => {})
        return
      }
      if (closed) return void c.end().catch(() => {})
      client = c
      resetAll()
    }

    yield* Effect.acquireRelease(Effect.promise(connect), () =>
      Effect.promise(async () => {
        closed = true
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
            if (fresh) await client?.query(`listen ${quote(channel)}`).catch(() => client?.end())
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
