import { DeliverPolicy, type JetStreamManager, JetStreamApiCodes, JetStreamApiError, jetstream, jetstreamManager, StorageType } from "@nats-io/jetstream"
import { connect, nanos, type NatsConnection } from "@nats-io/transport-node"
import { Effect, Layer, Schedule, Schema, Stream } from "effect"
import { type BusEvent, BusUnavailable, EventBus, subjectOf } from "../../engine/ports/Bus.ts"
import { traced } from "../../engine/services/tracing.ts"

export interface NatsBusOptions {
  /** Stream name; default "EVENTS". */
  readonly stream?: string
  /** Subjects the stream captures; default ["events.>"]. */
  readonly subjects?: ReadonlyArray<string>
  /** JetStream dedupe window on Nats-Msg-Id; must exceed the relay's longest retry. Default 2 minutes. */
  readonly duplicateWindowMs?: number
  /** Wait for each PubAck at most this long; default 2 s. */
  readonly publishTimeoutMs?: number
}

const Payload = Schema.Struct({
  id: Schema.Number,
  org_id: Schema.String,
  type: Schema.String,
  created_at: Schema.String,
  data: Schema.Unknown
})
const decodePayload = Schema.decodeUnknownOption(Schema.parseJson(Payload))

const unavailable = (what: string) => (cause: unknown) =>
  new BusUnavailable(`NATS ${what} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })

const encoder = new TextEncoder()
/** Room kept under the server's max_payload for the JetStream headers (Nats-Msg-Id) of a message. */
const HEADER_ROOM = 4096

/**
 * An event as a message. One whose JSON would pass the server's max_payload goes by reference: `data` null and
 * `data_omitted` `{ reason: "too_large", bytes }`; the consumer reads it whole from events.list (after = id - 1,
 * limit 1). So no event can stall the relay, and order on the stream is kept.
 */
export const encodeEvent = (e: BusEvent, maxPayload: number): Uint8Array => {
  const whole = encoder.encode(JSON.stringify({ id: e.id, org_id: e.org_id, type: e.type, created_at: e.created_at, data: e.data }))
  if (whole.byteLength <= maxPayload - HEADER_ROOM) return whole
  return encoder.encode(JSON.stringify({
    id: e.id, org_id: e.org_id, type: e.type, created_at: e.created_at, data: null,
    data_omitted: { reason: "too_large", bytes: whole.byteLength }
  }))
}

/** Create the stream, or bring subjects and dedupe window of an existing one up to date. */
const ensureStream = async (jsm: JetStreamManager, name: string, subjects: Array<string>, windowMs: number) => {
  const wanted = { subjects, duplicate_window: nanos(windowMs) }
  try {
    const info = await jsm.streams.info(name)
    await jsm.streams.update(name, { ...info.config, ...wanted })
  } catch (err) {
    if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound)) throw err
    await jsm.streams.add({ name, storage: StorageType.File, ...wanted })
  }
}

const closeConnection = (nc: NatsConnection) =>
  Effect.tryPromise(() => nc.drain()).pipe(
    Effect.timeout("5 seconds"),
    Effect.catchAll(() => Effect.tryPromise(() => nc.close())),
    Effect.ignore
  )

/** JetStream-backed bus: subject events.<org_id>.<type>, Nats-Msg-Id = event id. */
export const NatsBusLive = (url: string, options: NatsBusOptions = {}): Layer.Layer<EventBus, BusUnavailable> =>
  Layer.scoped(
    EventBus,
    Effect.gen(function*() {
      const stream = options.stream ?? "EVENTS"
      const subjects = [...(options.subjects ?? ["events.>"])]
      const timeout = options.publishTimeoutMs ?? 2_000
      const nc = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: () => connect({ servers: url, reconnect: true, maxReconnectAttempts: -1 }),
          catch: unavailable("connect")
        }),
        closeConnection
      )
      yield* Effect.tryPromise({
        try: async () => ensureStream(await jetstreamManager(nc), stream, subjects, options.duplicateWindowMs ?? 120_000),
        catch: unavailable(`stream ${stream} setup`)
      })
      const js = jetstream(nc)
      const maxPayload = () => nc.info?.max_payload ?? 1024 * 1024

      // All publishes of a batch go out at once on one connection, so the stream stores them in order.
      const publish = (events: ReadonlyArray<BusEvent>) =>
        Effect.tryPromise({
          try: () => Promise.all(events.map((e) => js.publish(subjectOf(e), encodeEvent(e, maxPayload()), { msgID: String(e.id), timeout }))),
          catch: unavailable("publish")
        }).pipe(Effect.asVoid, traced("EventBus.publish", { attributes: { count: events.length } }))

      // An ordered (ephemeral, flow-controlled) consumer of messages arriving after it starts. Messages are pushed
      // from the consumer's iterator; closing the stream stops the consumer (pulling with Stream.fromAsyncIterable
      // would wait on a pending next() forever when interrupted).
      const subscribe = Stream.asyncScoped<BusEvent, BusUnavailable>((emit) =>
        Effect.gen(function*() {
          const consumer = yield* Effect.tryPromise({
            try: () => js.consumers.get(stream, { deliver_policy: DeliverPolicy.New }),
            catch: unavailable("consumer")
          })
          const messages = yield* Effect.acquireRelease(
            Effect.tryPromise({ try: () => consumer.consume(), catch: unavailable("consume") }),
            (m) => Effect.promise(() => m.close()).pipe(Effect.timeout("2 seconds"), Effect.ignore)
          )
          const pump = async () => {
            for await (const m of messages) {
              const event = decodePayload(m.string())
              if (event._tag === "Some") void emit.single(event.value)
            }
          }
          pump().then(() => emit.end(), (err: unknown) => emit.fail(unavailable("consume")(err)))
        })
      ).pipe(
        Stream.tapError((err) => Effect.logWarning("EventBus.subscribe failed; retrying", err)),
        Stream.retry(Schedule.exponential("200 millis").pipe(Schedule.union(Schedule.spaced("5 seconds")))),
        Stream.orDie
      )

      return EventBus.of({ name: "nats", publish, subscribe })
    })
  )
