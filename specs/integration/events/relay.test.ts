import { Chunk, Effect, Option, Stream } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EventBus } from "../../../engine/ports/Bus.ts"
import { LOCK_NAMESPACE } from "../../../engine/services/Events.ts"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { dropTestDatabase, usingPostgres } from "../../support/database.ts"
import { runEngine } from "../../support/engine.ts"
import { haveNatsServer, mustRunNats, natsReachable, natsUrl, readStream, startPrivateNats } from "../../support/nats.ts"
import { sleep, startReceiver, waitFor } from "../../support/receiver.ts"
import { busConfig, commitEvents, createHook } from "../webhooks/helpers.ts"

const reachable = await natsReachable()
const withNats = mustRunNats(reachable)
const ids = (rows: ReadonlyArray<{ id: number }>) => rows.map((r) => r.id)
const increasing = (xs: Array<number>) => xs.every((x, i) => i === 0 || x > xs[i - 1])

const orgEvents = (app: TestApp, orgId: string) =>
  sql(app, (s) => s<{ id: number; relayed: boolean }>`select id, relayed_at is not null as relayed from events where org_id = ${orgId} order by id`)
const allRelayed = (app: TestApp, orgId: string) => async () => (await orgEvents(app, orgId)).every((e) => e.relayed)

/** The next `count` events of the org that the app's own bus carries. */
const listen = (app: TestApp, orgId: string, count: number) =>
  runEngine(app, Effect.flatMap(EventBus, (bus) =>
    bus.subscribe.pipe(Stream.filter((e) => e.org_id === orgId), Stream.take(count), Stream.runCollect, Effect.timeout("20 seconds")))).then(Chunk.toReadonlyArray)

describe("relay (outbox -> bus)", () => {
  let app: TestApp
  beforeAll(async () => {
    app = await startApp(busConfig())
  })
  afterAll(() => app.close())

  it("carries every committed event to the bus in id order and marks it relayed", async () => {
    const org = await app.newOrg()
    const seen = listen(app, org.id, 60)
    await sleep(300)
    await commitEvents(app, org.id, "booking.confirmed", 60, 6)
    const received = await seen
    const stored = await orgEvents(app, org.id)
    expect(received.map((e) => e.id)).toEqual(ids(stored))
    expect(received[0]).toMatchObject({ org_id: org.id, type: "booking.confirmed", data: { n: expect.any(Number) }, created_at: expect.any(String) })
    await waitFor(allRelayed(app, org.id), 5_000, "relayed_at set")
  })

  it("relays an event that commits after a higher id of another org (no global cursor skips it)", async () => {
    const [a, b] = [await app.newOrg(), await app.newOrg()]
    const seen = listen(app, a.id, 1)
    await sleep(300)
    const [{ id: reserved }] = await sql(app, (s) => s<{ id: number }>`select nextval('events_id_seq')::int8 as id`)
    await commitEvents(app, b.id, "org.updated", 3) // ids above the reserved one, committed first
    await waitFor(allRelayed(app, b.id), 5_000, "org B relayed")
    await sql(app, (s) =>
      Effect.zipRight(
        s`select pg_advisory_xact_lock(${LOCK_NAMESPACE}, hashtext(${a.id}))`,
        s`insert into events ${s.insert({ id: reserved, org_id: a.id, type: "org.updated", data: JSON.stringify({ late: true }), created_at: new Date() })}`
      ).pipe(s.withTransaction))
    expect((await seen).map((e) => e.id)).toEqual([reserved])
    await waitFor(allRelayed(app, a.id), 5_000, "late event relayed")
  })
})

describe.skipIf(!withNats)("relay with JetStream", () => {
  it(`reaches NATS at ${natsUrl}`, () => {
    expect(reachable, `NATS at ${natsUrl} is unreachable (set NATS_URL)`).toBe(true)
  })

  it("publishes subject events.<org>.<type> with Nats-Msg-Id = event id; a lost progress save re-publishes and JetStream dedupes", async () => {
    const app = await startApp({ natsUrl: Option.some(natsUrl) })
    try {
      const org = await app.newOrg()
      await commitEvents(app, org.id, "booking.held", 20, 4)
      await waitFor(allRelayed(app, org.id), 10_000, "relayed")
      await sql(app, (s) => s`update events set relayed_at = null where org_id = ${org.id}`) // as if the process died before saving
      await waitFor(allRelayed(app, org.id), 10_000, "relayed again")
      const stored = await readStream(natsUrl, `events.${org.id}.>`)
      const expected = ids(await orgEvents(app, org.id))
      expect(stored.map((m) => m.event.id)).toEqual(expected)
      expect(stored.map((m) => m.msgId)).toEqual(expected.map(String))
      expect(stored.every((m) => m.subject === `events.${org.id}.booking.held`)).toBe(true)
      expect(increasing(stored.map((m) => m.seq))).toBe(true)
    } finally {
      await app.close()
    }
  })

  it.skipIf(!haveNatsServer() && !process.env.CI)("survives a NATS outage: events wait, webhooks still go out, the relay catches up with nothing lost", async () => {
    const nats = await startPrivateNats()
    const app = await startApp({ natsUrl: Option.some(nats.url) })
    const r = await startReceiver()
    try {
      const org = await app.newOrg()
      await createHook(app, org.key, r.url, ["booking.held"])
      await commitEvents(app, org.id, "booking.held", 10)
      await waitFor(allRelayed(app, org.id), 10_000, "relayed before the outage")
      await nats.stop()
      await commitEvents(app, org.id, "booking.held", 20, 4)
      await sleep(2_500)
      const during = await orgEvents(app, org.id)
      expect(during.filter((e) => !e.relayed)).toHaveLength(20)
      await waitFor(() => r.hits.length >= 30, 10_000, "webhooks during the outage")
      await nats.start()
      await waitFor(allRelayed(app, org.id), 30_000, "caught up after the outage")
      const stored = await readStream(nats.url, `events.${org.id}.>`)
      expect(stored.map((m) => m.event.id)).toEqual(ids(during))
      expect(r.ids()).toEqual(ids(during))
    } finally {
      await app.close()
      await r.close()
      await nats.dispose()
    }
  }, 60_000)

  it.skipIf(!usingPostgres())("two engine instances over one database publish each event once and keep going when one stops", async () => {
    const database = `be_relay_${randomBytes(5).toString("hex")}`
    const first = await startApp({ natsUrl: Option.some(natsUrl) }, { database })
    const second = await startApp({ natsUrl: Option.some(natsUrl) }, { database })
    try {
      const org = await first.newOrg()
      await Promise.all([commitEvents(first, org.id, "booking.confirmed", 250, 5), commitEvents(second, org.id, "booking.confirmed", 250, 5)])
      await waitFor(allRelayed(first, org.id), 20_000, "relayed by two instances")
      await first.close()
      await commitEvents(second, org.id, "booking.cancelled", 100, 5)
      await waitFor(allRelayed(second, org.id), 20_000, "relayed by the survivor")
      const stored = await readStream(natsUrl, `events.${org.id}.>`)
      expect(stored).toHaveLength(600)
      expect(stored.map((m) => m.event.id)).toEqual(ids(await orgEvents(second, org.id)))
    } finally {
      await first.close().catch(() => undefined)
      await second.close()
      await dropTestDatabase(database)
    }
  }, 60_000)
})
