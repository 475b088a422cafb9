/**
 * Reads an org's events from the EVENTS stream with a durable JetStream consumer, prints them and acks them.
 *
 *   NATS_URL=nats://127.0.0.1:4222 npx tsx examples/consumer.ts <org_id> [consumer_name]
 *
 * The consumer is durable: stop and start it again and it carries on after the last acked event. Events arrive at
 * least once; dedupe on the event id (it is also the Nats-Msg-Id header). Ctrl-C stops it.
 */
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from "@nats-io/jetstream"
import { connect } from "@nats-io/transport-node"

interface Event {
  readonly id: number
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

const nc = await connect({ servers: process.env.NATS_URL ?? "nats://127.0.0.1:4222" })
const jsm = await jetstreamManager(nc)
// Creating a durable consumer that already exists with the same settings is a no-op.
await jsm.consumers.add("EVENTS", {
  durable_name: name,
  filter_subject: `events.${orgId}.>`, // or events.<org_id>.booking.> for bookings only
  deliver_policy: DeliverPolicy.All, // from the first event still in the stream
  ack_policy: AckPolicy.Explicit,
  ack_wait: 30_000_000_000 // 30 s in nanoseconds: unacked events are sent again after this
})

const messages = await (await jetstream(nc).consumers.get("EVENTS", name)).consume()
const stop = async () => {
  await messages.close()
  await nc.drain()
}
process.once("SIGINT", () => void stop())
process.once("SIGTERM", () => void stop())

let lastId = 0
for await (const m of messages) {
  const event = m.json<Event>()
  if (event.id > lastId) {
    // ids of one org increase in commit order; a repeat (id <= lastId) was seen already
    console.log(`${event.id} ${event.type} ${event.created_at} ${JSON.stringify(event.data)}`)
    lastId = event.id
  }
  m.ack()
}
