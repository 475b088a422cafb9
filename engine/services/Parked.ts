import { Effect } from "effect"

/**
 * Requests of this instance waiting in memory for their turn (a busy time's bookings at the gate, its waitlist joins):
 * open but idle, each holding a socket and a few objects, no connection of the pool and no CPU. The listener's
 * request budget (MAX_INFLIGHT) does not count them.
 */
export class Parked extends Effect.Service<Parked>()("Parked", {
  sync: () => {
    let count = 0
    let onPark = () => {}
    return {
      /** Requests parked now (a function: the service's fields are copied once, a getter would be read once). */
      count: () => count,
      /** Called each time a request parks (the listener then has a turn free for a request waiting for one). */
      watch: (f: () => void) => {
        onPark = f
      },
      /** Counts a request parked until the function it answers is called (for a caller outside a fiber). */
      hold: () => {
        count++
        onPark()
        let held = true
        return () => {
          if (held) count--
          held = false
        }
      },
      /** Runs `effect` counted as parked while it runs. */
      park: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.acquireUseRelease(
          Effect.sync(() => {
            count++
            onPark()
          }),
          () => effect,
          () =>
            Effect.sync(() => {
              count--
            })
        )
    }
  }
}) {}
