import { Effect } from "effect"
import type pg from "pg"
import type { SignalHandlers, SignalsShape } from "../../engine/ports/Signals.ts"

/**
 * Signals over PGlite (one process, one session, one pooled connection that is never let go): the engine's own
 * messages go round in-process (`local`); the database's NOTIFYs (its triggers) arrive on that connection, and the
 * driver hands each to its listeners before the statement that committed it returns, so `sync` is at once: whatever
 * committed before the call has been heard, as long as the connection listens.
 */
export const pgliteSignals = (pool: pg.Pool, local: SignalsShape) =>
  Effect.gen(function* () {
    const channels = new Map<string, Set<SignalHandlers>>()
    const attached = new WeakSet<pg.Client>()
    let listening = false
    const quote = (channel: string) => `"${channel.replace(/"/g, '""')}"`
    const attach = (client: pg.Client) => {
      if (attached.has(client)) return
      attached.add(client)
      client.on("notification", (m) => channels.get(m.channel)?.forEach((h) => h.onMessage(m.payload ?? "")))
      // A replaced connection may have missed messages: every listener forgets, and the new one listens again.
      client.once("end", () => {
        listening = false
        channels.forEach((set) => set.forEach((h) => h.onReset()))
      })
      for (const channel of channels.keys()) client.query(`listen ${quote(channel)}`).catch(() => {})
      listening = true
    }
    pool.on("connect", attach)
    yield* Effect.promise(async () => {
      const client = await pool.connect()
      attach(client)
      client.release()
    })
    const shape: SignalsShape = {
      notify: local.notify,
      listen: (channel, handlers) =>
        Effect.zipRight(
          local.listen(channel, handlers),
          Effect.acquireRelease(
            Effect.promise(async () => {
              const fresh = !channels.has(channel)
              channels.set(channel, (channels.get(channel) ?? new Set()).add(handlers))
              if (fresh) await pool.query(`listen ${quote(channel)}`).catch(() => {})
            }),
            () => Effect.sync(() => channels.get(channel)?.delete(handlers))
          )
        ),
      sync: Effect.sync(() => listening),
      synced: () => Promise.resolve(listening),
      listening: () => listening
    }
    return shape
  })
