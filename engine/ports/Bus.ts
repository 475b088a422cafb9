import { Context, Effect, Stream } from "effect"

/** An event as committed in the outbox (the `events` table). */
export interface BusEvent {
  readonly id: number
  readonly org_id: string
  readonly type: string
  readonly data: unknown
  readonly created_at: string
}

export const subjectOf = (e: Pick<BusEvent, "org_id" | "type">) => `events.${e.org_id}.${e.type}`

/**
 * Where committed events go after the relay reads them from the outbox.
 * publish must be idempotent per event id (JetStream dedupes on Nats-Msg-Id).
 */
export class EventBus extends Context.Tag("EventBus")<EventBus, {
  readonly name: "memory" | "nats"
  readonly publish: (events: ReadonlyArray<BusEvent>) => Effect.Effect<void, BusUnavailable>
  /** Live events published after subscription starts (in-process consumers: the webhook dispatcher). */
  readonly subscribe: Stream.Stream<BusEvent>
}>() {}

export class BusUnavailable extends Error {
  readonly _tag = "BusUnavailable"
}
