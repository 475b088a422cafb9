import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber } from "effect"
import { makeCoalescer } from "../../../engine/services/coalesce.ts"

class Who extends Context.Tag("Who")<Who, string>() {}

/** A read whose runs are counted and each held until the test lets it end; answers the run's number. */
const gatedRead = () => {
  const runs: Array<{ readonly n: number; readonly who: string; readonly gate: Deferred.Deferred<void> }> = []
  const read = Effect.gen(function* () {
    const gate = yield* Deferred.make<void>()
    const n = runs.length + 1
    runs.push({ n, who: yield* Who, gate })
    yield* Deferred.await(gate)
    return n
  })
  const release = (n: number) => Deferred.succeed(runs[n - 1].gate, undefined)
  return { runs, read, release }
}
const settle = Effect.sleep("5 millis")

describe("makeCoalescer: reads of one key share runs, each caller answered by a run begun after it asked", () => {
  it.live("callers who come while a run is on share the next run, never the one already running", () =>
    Effect.gen(function* () {
      const shared = makeCoalescer<number, never>()
      const { runs, read, release } = gatedRead()
      const first = yield* Effect.fork(Effect.provideService(shared("k", read), Who, "first"))
      yield* settle
      expect(runs.length).toBe(1)
      const later = yield* Effect.forEach(["a", "b", "c", "d"], (who) =>
        Effect.fork(Effect.provideService(shared("k", read), Who, who))
      )
      yield* settle
      // The four wait for the first run to end; none of theirs has begun.
      expect(runs.length).toBe(1)
      yield* release(1)
      expect(yield* Fiber.join(first)).toBe(1)
      yield* settle
      // One run for the four, begun after all of them asked, with the first of them's context.
      expect(runs.map((r) => r.who)).toEqual(["first", "a"])
      yield* release(2)
      for (const f of later) expect(yield* Fiber.join(f)).toBe(2)
      yield* settle
      expect(runs.length).toBe(2)
    })
  )

  it.live("keys do not share", () =>
    Effect.gen(function* () {
      const shared = makeCoalescer<number, never>()
      const { runs, read, release } = gatedRead()
      const x = yield* Effect.fork(Effect.provideService(shared("org-1 offering", read), Who, "x"))
      const y = yield* Effect.fork(Effect.provideService(shared("org-2 offering", read), Who, "y"))
      yield* settle
      expect(runs.map((r) => r.who)).toEqual(["x", "y"])
      yield* release(2)
      expect(yield* Fiber.join(y)).toBe(2)
      yield* release(1)
      expect(yield* Fiber.join(x)).toBe(1)
    })
  )

  it.live("a failure reaches every caller of its run, and the next caller runs afresh", () =>
    Effect.gen(function* () {
      const shared = makeCoalescer<number, string>()
      let calls = 0
      const failing = Effect.suspend(() => (++calls === 2 ? Effect.fail("gone") : Effect.succeed(calls))).pipe(
        Effect.delay("20 millis")
      )
      const first = yield* Effect.fork(shared("k", failing))
      yield* settle
      const joiners = yield* Effect.forEach([1, 2, 3], () => Effect.fork(shared("k", failing)))
      expect(yield* Fiber.join(first)).toBe(1)
      for (const f of joiners) expect(yield* Effect.exit(Fiber.join(f))).toEqual(Exit.fail("gone"))
      expect(yield* shared("k", failing)).toBe(3)
      expect(calls).toBe(3)
    })
  )

  it.live("a caller who goes away does not take the run from those who share it", () =>
    Effect.gen(function* () {
      const shared = makeCoalescer<number, never>()
      const { runs, read, release } = gatedRead()
      const first = yield* Effect.fork(Effect.provideService(shared("k", read), Who, "first"))
      yield* settle
      const leader = yield* Effect.fork(Effect.provideService(shared("k", read), Who, "leaves"))
      const stays = yield* Effect.fork(Effect.provideService(shared("k", read), Who, "stays"))
      yield* settle
      yield* Fiber.interrupt(first)
      yield* settle
      // The first run goes on for nobody; the next waits for it, then answers the one who stayed though its opener left.
      expect(runs.length).toBe(1)
      yield* release(1)
      yield* settle
      yield* Fiber.interrupt(leader)
      yield* release(2)
      expect(yield* Fiber.join(stays)).toBe(2)
    })
  )
})
