/**
 * Reads an org's events from the engine's stream with a durable JetStream consumer, prints them and acks them.
 *
 *   NATS_URL=nats://127.0.0.1:4222 npx tsx examples/consumer.ts <org_id> [consumer_name]
 *
 * NATS_STREAM and NATS_SUBJECT_PREFIX as the engine has them (EVENTS and events unless set). The consumer is durable:
 * stop and start it again and it carries on after the last acked event. Events arrive at least once; dedupe on
 * (deployment, id) (the Nats-Msg-Id header is `<deployment>:<id>`): ids are counted per deployment. Ctrl-C stops it.
 */
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from "@nats-io/jetstream"
import { connect } from "@nats-io/transport-node"

interface Event {
  readonly id: number
  readonly deployment: string
  readonly org_id: string
  readonly type: string
  readonly created_at: string
  readonly data: unknown
}

const orgId = process.argv[2]
if (!orgId) {
  console.error("usage: npx tsx examples/consumer.ts <org_id> [consumer_name]")
  process.exit(2)
}
const name = process.argv[3] ?? `example-${orgId}`

const stream = process.env.NATS_STREAM || "EVENTS"
const prefix = process.env.NATS_SUBJECT_PREFIX || "events"

const nc = await connect({ servers: process.env.NATS_URL ?? "nats://127.0.0.1:4222" })
const jsm = await jetstreamManager(nc)
// Creating a durable consumer that already exists with the same settings is a no-op.
await jsm.consumers.add(stream, {
  durable_name: name,
  filter_subject: `${prefix}.${orgId}.>`, // or <prefix>.<org_id>.booking.> for bookings only
  deliver_policy: DeliverPolicy.All, // from the first event still in the stream
  ack_policy: AckPolicy.Explicit,
  ack_wait: 30_000_000_000 // 30 s in nanoseconds: unacked events are sent again after this
})

const messages = await (await jetstream(nc).consumers.get(stream, name)).consume()
const stop = async () => {
  await messages.close()
  await nc.drain()
}
process.once("SIGINT", () => void stop())
process.once("SIGTERM", () => void stop())

// The last id handled, per deployment: within a deployment an org's ids increase in commit order, so a repeat
// (id <= the last) was seen already. A deployment that renews its id (docs/events.md) starts afresh under the new one.
const lastIds = new Map<string, number>()
for await (const m of messages) {
  const event = m.json<Event>()
  const deployment = event.deployment ?? ""
  if (event.id > (lastIds.get(deployment) ?? 0)) {
    console.log(`${deployment}:${event.id} ${event.type} ${event.created_at} ${JSON.stringify(event.data)}`)
    lastIds.set(deployment, event.id)
  }
  m.ack()
}
