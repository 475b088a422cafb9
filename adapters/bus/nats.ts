import {
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  type PubAck,
  StorageType
} from "@nats-io/jetstream"
import { connect, type NatsConnection, nanos } from "@nats-io/transport-node"
import { Effect, Layer, Schedule, Schema, Stream } from "effect"
import { type BusEvent, BusUnavailable, DeploymentReused, EventBus } from "../../engine/ports/Bus.ts"
import { traced } from "../../engine/tracing.ts"
import { DEFAULT_STREAM, DEFAULT_SUBJECT_PREFIX, messageIdOf, subjectOf } from "./subjects.ts"

export interface NatsBusOptions {
  /** Stream name (NATS_STREAM); default "EVENTS". Deployments may share it: message ids carry the deployment. */
  readonly stream?: string
  /** Subject prefix (NATS_SUBJECT_PREFIX): events go to <prefix>.<org_id>.<type>; default "events". */
  readonly subjectPrefix?: string
  /** JetStream dedupe window on Nats-Msg-Id; must exceed the relay's longest retry. Default 2 minutes. */
  readonly duplicateWindowMs?: number
  /** Wait for each PubAck at most this long; default 2 s. */
  readonly publishTimeoutMs?: number
  /** Copies of the stream (NATS_STREAM_REPLICAS, 1 to 5); default 1. A cluster of three takes 3. */
  readonly replicas?: number
}

/** NATS_URL's servers: one URL, or several comma-separated (any nodes of a cluster; the client learns the rest). */
export const serversOf = (url: string) =>
  url
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")

const Payload = Schema.Struct({
  id: Schema.Number,
  // Absent from messages of engines before deployment ids (0096).
  deployment: Schema.optionalWith(Schema.String, { default: () => "" }),
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
  const head = { id: e.id, org_id: e.org_id, type: e.type, created_at: e.created_at, deployment: e.deployment }
  const whole = encoder.encode(JSON.stringify({ ...head, data: e.data }))
  if (whole.byteLength <= maxPayload - HEADER_ROOM) return whole
  const omitted = { reason: "too_large", bytes: whole.byteLength }
  return encoder.encode(JSON.stringify({ ...head, data: null, data_omitted: omitted }))
}

/** The stream could not be made or kept with the replicas asked for: the start stops with this one line. */
export class ReplicasRefused extends Error {}

const replicasRefused = (name: string, replicas: number, had: number | undefined, err: unknown) =>
  new ReplicasRefused(
    `NATS_STREAM_REPLICAS=${replicas}: NATS would not ${had === undefined ? "make" : `change`} stream ${name}` +
      `${had === undefined ? "" : ` from ${had} replica${had === 1 ? "" : "s"}`} with ${replicas} replicas ` +
      `(${err instanceof Error ? err.message : String(err)}); a cluster needs at least as many JetStream nodes`
  )

/**
 * Create the stream, or bring an existing one up to date: its dedupe window, its replicas, and our subjects added to
 * those it has (another deployment sharing the stream may have added its own prefix: never taken away). NATS moves an
 * existing stream to another number of replicas itself (a cluster with nodes enough); where it refuses, the start
 * stops with one line.
 */
const ensureStream = async (
  jsm: JetStreamManager,
  name: string,
  subject: string,
  windowMs: number,
  replicas: number
) => {
  const info = await jsm.streams.info(name).catch((err: unknown) => {
    if (err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound) return undefined
    throw err
  })
  if (info === undefined) {
    const config = { name, storage: StorageType.File, subjects: [subject], duplicate_window: nanos(windowMs) }
    await jsm.streams.add({ ...config, num_replicas: replicas }).catch((err: unknown) => {
      throw err instanceof JetStreamApiError ? replicasRefused(name, replicas, undefined, err) : err
    })
    return
  }
  const had = info.config.subjects ?? []
  const subjects = had.includes(subject) ? had : [...had, subject]
  const was = info.config.num_replicas || 1
  await jsm.streams
    .update(name, { ...info.config, subjects, duplicate_window: nanos(windowMs), num_replicas: replicas })
    .catch((err: unknown) => {
      throw was !== replicas && err instanceof JetStreamApiError ? replicasRefused(name, replicas, was, err) : err
    })
}

/**
 * Whether the message JetStream kept under an id (a duplicate's ack names its sequence) is the event we published
 * again: a re-publish of the same event (the relay lost its progress) is; another database's event under the same
 * deployment id (a copy or a restore) is not. A message no longer in the stream cannot show it: taken as not.
 */
const sameEvent = async (jsm: JetStreamManager, stream: string, ack: PubAck, e: BusEvent) => {
  try {
    const stored = await jsm.streams.getMessage(stream, { seq: ack.seq })
    if (stored === null || stored.header?.get("Nats-Msg-Id") !== messageIdOf(e)) return false
    const kept = decodePayload(stored.string())
    return (
      kept._tag === "Some" &&
      kept.value.id === e.id &&
      kept.value.org_id === e.org_id &&
      kept.value.type === e.type &&
      kept.value.created_at === e.created_at
    )
  } catch (err) {
    if (err instanceof JetStreamApiError && err.code === JetStreamApiCodes.NoMessageFound) return false
    throw err
  }
}

/** How often the client pings its server (NATS_URL's): a silent server is left after two unanswered. */
export const PING_INTERVAL_MS = 5_000

const closeConnection = (nc: NatsConnection) =>
  Effect.tryPromise(() => nc.drain()).pipe(
    Effect.timeout("5 seconds"),
    Effect.catchAll(() => Effect.tryPromise(() => nc.close())),
    Effect.ignore
  )

/** JetStream-backed bus: subject <prefix>.<org_id>.<type>, Nats-Msg-Id = <deployment>:<event id>. */
export const NatsBusLive = (url: string, options: NatsBusOptions = {}): Layer.Layer<EventBus, BusUnavailable> =>
  Layer.scoped(
    EventBus,
    Effect.gen(function* () {
      const stream = options.stream ?? DEFAULT_STREAM
      const prefix = options.subjectPrefix ?? DEFAULT_SUBJECT_PREFIX
      const timeout = options.publishTimeoutMs ?? 2_000
      const nc = yield* Effect.acquireRelease(
        Effect.tryPromise({
          // A server that stops answering without closing the connection (a frozen host, a partition) is left after
          // two pings unanswered, 5 s apart, for another of the cluster; the client's default (2 min) kept the relay
          // publishing into a dead connection for minutes.
          try: () =>
            connect({
              servers: serversOf(url),
              reconnect: true,
              maxReconnectAttempts: -1,
              pingInterval: PING_INTERVAL_MS,
              maxPingOut: 2
            }),
          catch: unavailable("connect")
        }),
        closeConnection
      )
      const jsm = yield* Effect.tryPromise({
        try: async () => {
          const jsm = await jetstreamManager(nc)
          await ensureStream(jsm, stream, `${prefix}.>`, options.duplicateWindowMs ?? 120_000, options.replicas ?? 1)
          return jsm
        },
        catch: (cause) =>
          cause instanceof ReplicasRefused
            ? new BusUnavailable(cause.message, { cause })
            : unavailable(`stream ${stream} setup`)(cause)
      })
      const js = jetstream(nc)
      const maxPayload = () => nc.info?.max_payload ?? 1024 * 1024

      // The first publish of a batch goes alone: once the stream's leader has stored it, the rest go out at once on one
      // connection, so the stream stores them in order. Sent all at once to a stream still electing its leader, the
      // first could be refused and later ones stored by the new leader, and the batch's retry would store the first
      // after them. A duplicate must be the same event published again; one that is not is another database's under
      // our deployment id.
      const publishOne = (e: BusEvent) =>
        js.publish(subjectOf(e, prefix), encodeEvent(e, maxPayload()), { msgID: messageIdOf(e), timeout })
      const publish = (events: ReadonlyArray<BusEvent>) =>
        Effect.tryPromise({
          try: async () => {
            const first = events.length === 0 ? [] : [await publishOne(events[0])]
            const acks = [...first, ...(await Promise.all(events.slice(1).map(publishOne)))]
            const kept = await Promise.all(
              acks.map((ack, i) => !ack.duplicate || sameEvent(jsm, stream, ack, events[i]))
            )
            return events.filter((_, i) => !kept[i])
          },
          catch: unavailable("publish")
        }).pipe(
          Effect.flatMap((reused) =>
            reused.length === 0
              ? Effect.void
              : Effect.fail(
                  new DeploymentReused(
                    reused[0].deployment,
                    reused.map((e) => e.id)
                  )
                )
          ),
          traced("EventBus.publish", { attributes: { count: events.length } })
        )

      // An ordered (ephemeral, flow-controlled) consumer of messages arriving after it starts. Messages are pushed
      // from the consumer's iterator; closing the stream stops the consumer (pulling with Stream.fromAsyncIterable
      // would wait on a pending next() forever when interrupted).
      const subscribe = Stream.asyncScoped<BusEvent, BusUnavailable>((emit) =>
        Effect.gen(function* () {
          const consumer = yield* Effect.tryPromise({
            // Our prefix only (the stream may carry another deployment's); one subject as a string: servers before
            // 2.10 refuse a list.
            try: () => js.consumers.get(stream, { deliver_policy: DeliverPolicy.New, filter_subjects: `${prefix}.>` }),
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
          pump().then(
            () => emit.end(),
            (err: unknown) => emit.fail(unavailable("consume")(err))
          )
        })
      ).pipe(
        Stream.tapError((err) => Effect.logWarning("EventBus.subscribe failed; retrying", err)),
        Stream.retry(Schedule.exponential("200 millis").pipe(Schedule.union(Schedule.spaced("5 seconds")))),
        Stream.orDie
      )

      return EventBus.of({ name: "nats", publish, subscribe })
    })
  )
