import { type Duration, Effect, PubSub, Queue, type Scope } from "effect"

/**
 * In-process wake-ups for the background loops (the event relay, the job scheduler): whatever writes something
 * they handle pokes them, so they sleep while nothing happens instead of polling. A poke may come before the
 * writer's transaction commits; the loops look again a moment after a burst (see `waitForWake`), and every few
 * minutes in any case, so nothing waits long for a wake-up that came too early or was lost.
 */
export class Wakeups extends Effect.Service<Wakeups>()("Wakeups", {
  scoped: Effect.gen(function* () {
    const hub = yield* Effect.acquireRelease(PubSub.sliding<true>(1), PubSub.shutdown)
    return {
      /** Something was written that a background loop should look at. */
      poke: Effect.asVoid(PubSub.publish(hub, true)),
      /** A listener that keeps at most one pending wake-up (pokes in between coalesce). */
      subscribe: PubSub.subscribe(hub) as Effect.Effect<Queue.Dequeue<true>, never, Scope.Scope>
    } as const
  })
}) {}

/** Waits for a wake-up or `max`, whichever comes first: true when woken. */
export const waitForWake = (wakes: Queue.Dequeue<true>, max: Duration.DurationInput) =>
  Effect.raceFirst(Effect.as(Queue.take(wakes), true), Effect.as(Effect.sleep(max), false))
