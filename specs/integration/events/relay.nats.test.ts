import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { sql, startApp } from "../../support/app.ts"
import { natsReachable, natsUrl, readStream, startPrivateNats } from "../../support/nats.ts"
import { sleep, startReceiver, waitFor } from "../../support/receiver.ts"
import { commitEvents, createHook } from "../webhooks/helpers.ts"
import { allRelayed, ids, increasing, orgEvents } from "./helpers.ts"

// Runs only when NATS_URL is set (see vitest.config.ts), and then fails if that server does not answer. The outage test
// starts a nats-server of its own (/usr/sbin/nats-server) and fails if the binary is missing.
const reachable = await natsReachable()

describe("relay with JetStream", () => {
  it(`reaches NATS at ${natsUrl}`, () => {
    expect(reachable, `NATS at ${natsUrl} is unreachable (NATS_URL is set, so it must answer)`).toBe(true)
  })

  it(
    "publishes subject events.<org>.<type> with Nats-Msg-Id <deployment>:<event id>; a lost progress save " +
      "re-publishes and JetStream dedupes",
    async () => {
      const app = await startApp({ natsUrl: Option.some(natsUrl) })
      try {
        const org = await app.newOrg()
        await commitEvents(app, org.id, "booking.held", 20, 4)
        await waitFor(allRelayed(app, org.id), 60_000, "relayed")
        await sql(app, (s) => s`insert into relay_queue (event_id) select id from events where org_id = ${org.id}`) // as if the process died before saving
        await waitFor(allRelayed(app, org.id), 60_000, "relayed again")
        const stored = await readStream(natsUrl, `events.${org.id}.>`)
        const expected = ids(await orgEvents(app, org.id))
        const [deployment] = await sql(app, (s) => s<{ id: string }>`select id from deployment`)
        expect(stored.map((m) => m.event.id)).toEqual(expected)
        expect(stored.map((m) => m.msgId)).toEqual(expected.map((id) => `${deployment.id}:${id}`))
        expect(stored.every((m) => m.event.deployment === deployment.id)).toBe(true)
        expect(stored.every((m) => m.subject === `events.${org.id}.booking.held`)).toBe(true)
        expect(increasing(stored.map((m) => m.seq))).toBe(true)
      } finally {
        await app.close()
      }
    }
  )

  it("survives a NATS outage: events wait, webhooks still go out, the relay catches up with nothing lost", async () => {
    const nats = await startPrivateNats()
    const app = await startApp({ natsUrl: Option.some(nats.url) })
    const r = await startReceiver()
    try {
      const org = await app.newOrg()
      await createHook(app, org.key, r.url, ["booking.held"])
      await commitEvents(app, org.id, "booking.held", 10)
      await waitFor(allRelayed(app, org.id), 60_000, "relayed before the outage")
      await nats.stop()
      await commitEvents(app, org.id, "booking.held", 20, 4)
      await sleep(2_500)
      const during = await orgEvents(app, org.id)
      expect(during.filter((e) => !e.relayed)).toHaveLength(20)
      await waitFor(() => r.hits.length >= 30, 60_000, "webhooks during the outage")
      await nats.start()
      await waitFor(allRelayed(app, org.id), 60_000, "caught up after the outage")
      const stored = await readStream(nats.url, `events.${org.id}.>`)
      expect(stored.map((m) => m.event.id)).toEqual(ids(during))
      expect(r.ids()).toEqual(ids(during))
    } finally {
      await app.close()
      await r.close()
      await nats.dispose()
    }
  }, 180_000)
})
