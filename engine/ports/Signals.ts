import { Context, Effect, type Scope } from "effect"

export interface SignalHandlers {
  /** A payload sent on the channel, by this instance or another. */
  readonly onMessage: (payload: string) => void
  /** Messages may have been missed (the listener reconnected): forget whatever they would have corrected. */
  readonly onReset: () => void
}

export interface SignalsShape {
  /** Tells every instance listening on the channel (this one too). */
  readonly notify: (channel: string, payload: string) => Effect.Effect<void>
  /** Listens on a channel for as long as the scope lasts. */
  readonly listen: (channel: string, handlers: SignalHandlers) => Effect.Effect<void, never, Scope.Scope>
  /**
   * True once every message committed before the call (by any instance, or by the database itself) has reached this
   * instance's handlers; false when that cannot be known now (no listener). Calls made at once share one round trip.
   */
  readonly sync: Effect.Effect<boolean>
  /** `sync` for a caller outside a fiber (the same round trip, shared with it). */
  readonly synced: () => Promise<boolean>
  /**
   * Whether this instance listens now, without a round trip: while it does not, messages may be missed (a cache kept
   * right by them must not remember anything new; onReset tells it when listening resumes or stops).
   */
  readonly listening: () => boolean
}

/**
 * Within one process: enough for messages the engine sends itself when one instance owns the database. Messages the
 * database sends (NOTIFY in a trigger) never arrive here, so `sync` cannot vouch for them: false.
 */
export const inProcessSignals = (): SignalsShape => {
  const channels = new Map<string, Set<SignalHandlers>>()
  return {
    notify: (channel, payload) => Effect.sync(() => channels.get(channel)?.forEach((h) => h.onMessage(payload))),
    listen: (channel, handlers) =>
      Effect.acquireRelease(
        Effect.sync(() => channels.set(channel, (channels.get(channel) ?? new Set()).add(handlers))),
        () => Effect.sync(() => channels.get(channel)?.delete(handlers))
      ).pipe(Effect.asVoid),
    sync: Effect.succeed(false),
    synced: () => Promise.resolve(false),
    // The database's messages never arrive: nothing kept right by them may be remembered.
    listening: () => false
  }
}

/**
 * Small messages between instances of the engine over one database (Postgres LISTEN/NOTIFY), such as "this API key
 * was revoked", so per-instance caches stay right. The default is in-process.
 */
export class Signals extends Context.Reference<Signals>()("Signals", { defaultValue: inProcessSignals }) {}
