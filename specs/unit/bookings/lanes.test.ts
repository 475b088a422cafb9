import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber } from "effect"
import { makeLanes } from "../../../engine/services/lanes.ts"
import { Parked } from "../../../engine/services/Parked.ts"

const settle = Effect.sleep("5 millis")

/** Runs that each wait until the test ends them; records who started, in order. */
const held = () => {
  const started: string[] = []
  const gates = new Map<string, Deferred.Deferred<void>>()
  const run = (who: string) =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      gates.set(who, gate)
      started.push(who)
      yield* Deferred.await(gate)
      return who
    })
  const end = (who: string) => Deferred.succeed(gates.get(who)!, undefined)
  return { started, run, end }
}

describe("makeLanes: at most `limit` runs of a key at once, the rest parked, first come first served", () => {
  it.live("runs two at once, parks the rest (counted), and hands each freed turn to the next in line", () =>
    Effect.gen(function* () {
      const parked = yield* Parked
      const lanes = makeLanes(parked, 2)
      const { started, run, end } = held()
      const fibers = []
      for (const who of ["a", "b", "c", "d"]) {
        fibers.push(yield* Effect.fork(lanes("time-1", run(who))))
        yield* settle
      }
      expect(started).toEqual(["a", "b"])
      expect(parked.count()).toBe(2)
      // Another key has lanes of its own.
      const other = yield* Effect.fork(lanes("time-2", run("x")))
      yield* settle
      expect(started).toEqual(["a", "b", "x"])
      yield* end("b")
      yield* settle
      expect(started).toEqual(["a", "b", "x", "c"])
      expect(parked.count()).toBe(1)
      for (const who of ["a", "c", "d", "x"]) {
        yield* end(who)
        yield* settle
      }
      expect(started).toEqual(["a", "b", "x", "c", "d"])
      expect(yield* Effect.all([...fibers, other].map(Fiber.join))).toEqual(["a", "b", "c", "d", "x"])
      expect(parked.count()).toBe(0)
    }).pipe(Effect.provide(Parked.Default))
  )

  it.live(
    "a waiter who leaves gives up its place in line, and a run that fails or is interrupted gives its turn on",
    () =>
      Effect.gen(function* () {
        const parked = yield* Parked
        const lanes = makeLanes(parked, 1)
        const { started, run, end } = held()
        const first = yield* Effect.fork(lanes("t", run("first")))
        yield* settle
        const leaves = yield* Effect.fork(lanes("t", run("leaves")))
        const fails = yield* Effect.fork(lanes("t", Effect.zipRight(run("fails"), Effect.fail("no"))))
        const interrupted = yield* Effect.fork(lanes("t", run("interrupted")))
        const last = yield* Effect.fork(lanes("t", run("last")))
        yield* settle
        expect(parked.count()).toBe(4)
        yield* Fiber.interrupt(leaves)
        expect(parked.count()).toBe(3)
        yield* end("first")
        yield* settle
        expect(started).toEqual(["first", "fails"])
        yield* end("fails")
        expect(yield* Effect.exit(Fiber.join(fails))).toEqual(Exit.fail("no"))
        yield* settle
        expect(started).toEqual(["first", "fails", "interrupted"])
        yield* Fiber.interrupt(interrupted)
        yield* settle
        expect(started).toEqual(["first", "fails", "interrupted", "last"])
        yield* end("last")
        expect(yield* Fiber.join(last)).toBe("last")
        expect(yield* Fiber.join(first)).toBe("first")
        expect(parked.count()).toBe(0)
      }).pipe(Effect.provide(Parked.Default))
  )
})
