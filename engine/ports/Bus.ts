import { Context, type Effect, type Stream } from "effect"

/** An event as committed in the outbox (the `events` table), with the deployment (database) that committed it. */
export interface BusEvent {
  readonly id: number
  /** The deployment id (table `deployment`): event ids are counted per database, (deployment, id) names one event. */
  readonly deployment: string
  readonly org_id: string
  readonly type: string
  readonly data: unknown
  readonly created_at: string
}

/**
 * Where committed events go after the relay reads them from the outbox.
 * publish must be idempotent per (deployment, event id): JetStream dedupes on Nats-Msg-Id `<deployment>:<id>`.
 */
export class EventBus extends Context.Tag("EventBus")<
  EventBus,
  {
    readonly name: "memory" | "nats"
    readonly publish: (events: ReadonlyArray<BusEvent>) => Effect.Effect<void, BusUnavailable | DeploymentReused>
    /** Live events published after subscription starts (in-process consumers: the webhook dispatcher). */
    readonly subscribe: Stream.Stream<BusEvent>
  }
>() {}

export class BusUnavailable extends Error {
  readonly _tag = "BusUnavailable"
}

/**
 * The bus already holds other events under these (deployment, id)s: another database carries this one's deployment id
 * (a copy or a restore of it) and has published them. Nothing of the batch may count as published; the deployment
 * needs an id of its own (the relay renews it) before the batch goes out again.
 */
export class DeploymentReused extends Error {
  readonly _tag = "DeploymentReused"
  constructor(
    readonly deployment: string,
    readonly ids: ReadonlyArray<number>
  ) {
    const some = `${ids.slice(0, 5).join(", ")}${ids.length > 5 ? ", …" : ""}`
    super(`deployment ${deployment}: the bus holds other events under event ids ${some}`)
  }
}
