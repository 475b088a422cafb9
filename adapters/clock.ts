import { Effect, Layer, Ref } from "effect"
import { EngineClock } from "../engine/ports/Clock.ts"

export const SystemClockLive = Layer.succeed(EngineClock, {
  now: Effect.sync(() => new Date()),
  test: false,
  advance: () => Effect.fail("the clock only moves with CLOCK=test")
})

/** CLOCK=test: starts at the real time (or `start`) and moves only when told. */
export const TestClockLive = (start?: Date) =>
  Layer.effect(
    EngineClock,
    Effect.gen(function* () {
      const ref = yield* Ref.make(start ?? new Date())
      return {
        now: Ref.get(ref),
        test: true,
        advance: (seconds: number) => Ref.updateAndGet(ref, (d) => new Date(d.getTime() + seconds * 1000))
      }
    })
  )
