import { Chunk, Effect, Fiber, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { MemoryBusLive } from "../../../adapters/bus/memory.ts"
import { type BusEvent, EventBus } from "../../../engine/ports/Bus.ts"

const event = (id: number): BusEvent => ({
  id,
  deployment: "d1",
  org_id: "org_1",
  type: "booking.held",
  created_at: "2025-01-01T00:00:00.000Z",
  data: { id }
})

describe("MemoryBusLive", () => {
  it("delivers events published after subscribing, in order, to every subscriber", async () => {
    const [name, a, b] = await Effect.gen(function* () {
      const bus = yield* EventBus
      yield* bus.publish([event(1)]) // before anyone listens: not seen
      const first = yield* bus.subscribe.pipe(Stream.take(3), Stream.runCollect, Effect.fork)
      const second = yield* bus.subscribe.pipe(Stream.take(3), Stream.runCollect, Effect.fork)
      yield* Effect.sleep("20 millis")
      yield* bus.publish([event(2), event(3)])
      yield* bus.publish([event(4)])
      return [bus.name, yield* Fiber.join(first), yield* Fiber.join(second)] as const
    }).pipe(Effect.provide(MemoryBusLive), Effect.runPromise)
    expect(name).toBe("memory")
    expect(Chunk.toReadonlyArray(a).map((e) => e.id)).toEqual([2, 3, 4])
    expect(Chunk.toReadonlyArray(b).map((e) => e.id)).toEqual([2, 3, 4])
  })

  it("publishing an empty batch or with no subscriber succeeds", async () => {
    await Effect.gen(function* () {
      const bus = yield* EventBus
      yield* bus.publish([])
      yield* bus.publish([event(1)])
    }).pipe(Effect.provide(MemoryBusLive), Effect.runPromise)
  })
})
