import { Chunk, Effect, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EventBus } from "../../../engine/ports/Bus.ts"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { runEngine } from "../../support/engine.ts"
import { waitFor } from "../../support/receiver.ts"
import { busConfig, commitEvents } from "../webhooks/helpers.ts"
import { allRelayed, ids, orgEvents } from "./helpers.ts"

// On the bus of the run: JetStream when NATS_URL is set, else the in-process bus. The JetStream-only cases are in
// relay.nats.test.ts and relay.pg.nats.test.ts.

/**
 * The next `count` events of the org that the app's own bus carries. Resolves once the subscription is live (it has seen
 * an event of a warm-up org, committed until one arrives), with the promise of those events: no fixed sleep.
 */
const listen = async (app: TestApp, orgId: string, count: number) => {
  const warm = await app.newOrg()
  let live = false
  const seen = runEngine(
    app,
    Effect.flatMap(EventBus, (bus) =>
      bus.subscribe.pipe(
        Stream.tap((e) => Effect.sync(() => void (e.org_id === warm.id && (live = true)))),
        Stream.filter((e) => e.org_id === orgId),
        Stream.take(count),
        Stream.runCollect,
        Effect.timeout("60 seconds")
      )
    )
  ).then(Chunk.toReadonlyArray)
  const until = Date.now() + 60_000
  while (!live) {
    if (Date.now() > until) throw new Error("timed out waiting for the bus subscription")
    await commitEvents(app, warm.id, "org.updated")
    await waitFor(() => live, 1_000, "warm-up event").catch(() => undefined)
  }
  return { seen }
}

describe("relay (outbox -> bus)", () => {
  let app: TestApp
  beforeAll(async () => {
    app = await startApp(busConfig())
  })
  afterAll(() => app.close())

  it("carries every committed event to the bus in id order and marks it relayed", async () => {
    const org = await app.newOrg()
    const { seen } = await listen(app, org.id, 60)
    await commitEvents(app, org.id, "booking.confirmed", 60, 6)
    const received = await seen
    const stored = await orgEvents(app, org.id)
    expect(received.map((e) => e.id)).toEqual(ids(stored))
    expect(received[0]).toMatchObject({
      org_id: org.id,
      type: "booking.confirmed",
      data: { n: expect.any(Number) },
      created_at: expect.any(String)
    })
    await waitFor(allRelayed(app, org.id), 60_000, "off the relay queue")
  })

  it("relays an event that commits after a higher id of another org (no global cursor skips it)", async () => {
    const [a, b] = [await app.newOrg(), await app.newOrg()]
    const { seen } = await listen(app, a.id, 1)
    const [{ id: reserved }] = await sql(app, (s) => s<{ id: number }>`select nextval('events_id_seq')::int8 as id`)
    await commitEvents(app, b.id, "org.updated", 3) // ids above the reserved one, committed first
    await waitFor(allRelayed(app, b.id), 60_000, "org B relayed")
    await sql(app, (s) =>
      Effect.zipRight(
        s`insert into org_events (org_id, last_at) values (${a.id}, now()) on conflict (org_id) do update set last_at = excluded.last_at`,
        Effect.zipRight(
          s`insert into events ${s.insert({ id: reserved, org_id: a.id, type: "org.updated", data: JSON.stringify({ late: true }), created_at: new Date() })}`,
          s`insert into relay_queue (event_id) values (${reserved})` // as every writer of events does, in its transaction
        )
      ).pipe(s.withTransaction)
    )
    expect((await seen).map((e) => e.id)).toEqual([reserved])
    await waitFor(allRelayed(app, a.id), 60_000, "late event relayed")
  })
})
