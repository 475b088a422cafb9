import { Effect } from "effect"
import type { Parked } from "./Parked.ts"

interface Waiter {
  /** Set when a turn was handed to it: a waiter that leaves after that gives the turn on. */
  handed: boolean
  readonly wake: () => void
}
interface Lane {
  inflight: number
  readonly waiters: Array<Waiter>
}

/**
 * At most `limit` runs of one key at once on this instance; the others wait here, parked (not counted as work), and
 * take their turn first come, first served. For work that the database would serialize anyway (rows every run
 * locks), so that waiting happens here instead of on a connection of the pool.
 */
export const makeLanes = (parked: Parked, limit: number) => {
  const lanes = new Map<string, Lane>()

  const release = (key: string) =>
    Effect.sync(() => {
      const lane = lanes.get(key)
      if (lane === undefined) return
      const next = lane.waiters.shift()
      if (next !== undefined) {
        // The turn goes to the next waiter as it is: inflight does not change.
        next.handed = true
        next.wake()
        return
      }
      lane.inflight--
      if (lane.inflight === 0) lanes.delete(key)
    })

  const acquire = (key: string) =>
    Effect.suspend(() => {
      let lane = lanes.get(key)
      if (lane === undefined) {
        lane = { inflight: 0, waiters: [] }
        lanes.set(key, lane)
      }
      if (lane.inflight < limit) {
        lane.inflight++
        return Effect.void
      }
      const waiting = lane
      let waiter: Waiter | undefined
      return parked
        .park(
          Effect.async<void>((resume) => {
            waiter = { handed: false, wake: () => resume(Effect.void) }
            waiting.waiters.push(waiter)
          })
        )
        .pipe(
          // Gone before its turn: out of the queue; gone as its turn came: the turn goes on.
          Effect.onInterrupt(() =>
            Effect.suspend(() => {
              if (waiter === undefined) return Effect.void
              if (waiter.handed) return release(key)
              const at = waiting.waiters.indexOf(waiter)
              if (at >= 0) waiting.waiters.splice(at, 1)
              return Effect.void
            })
          )
        )
    })

  return <A, E, R>(key: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.zipRight(restore(acquire(key)), Effect.ensuring(restore(effect), release(key)))
    )
}
