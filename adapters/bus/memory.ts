import { Effect, Layer, PubSub, Stream } from "effect"
import { type BusEvent, EventBus } from "../../engine/ports/Bus.ts"
import { traced } from "../../engine/tracing.ts"

/** In-process bus (the default without NATS_URL): an unbounded PubSub, live events only. */
export const MemoryBusLive: Layer.Layer<EventBus> = Layer.scoped(
  EventBus,
  Effect.gen(function* () {
    const pubsub = yield* Effect.acquireRelease(PubSub.unbounded<BusEvent>(), PubSub.shutdown)
    return EventBus.of({
      name: "memory",
      publish: (events) => PubSub.publishAll(pubsub, events).pipe(Effect.asVoid, traced("EventBus.publish")),
      subscribe: Stream.fromPubSub(pubsub)
    })
  })
)
