import { describe, expect, it } from "vitest"
import { sql } from "../../support/app.ts"
import { sleep, startReceiver, waitFor } from "../../support/receiver.ts"
import { enginesOverNamedDatabases } from "./engines.ts"
import { commitEvents, createHook } from "./helpers.ts"

const { start, newDatabase, receivers } = enginesOverNamedDatabases()

describe("webhook delivery across a crash (same database, new engine)", () => {
  it("is at least once: the event in flight when the engine stops is sent again, then the rest in order", async () => {
    const database = newDatabase()
    const first = await start(database)
    const org = await first.newOrg()
    let crashed = false
    const r = await startReceiver((_, n) => (n === 40 && !crashed ? "hang" : 200))
    receivers.push(r)
    await createHook(first, org.key, r.url, ["booking.confirmed"])
    await commitEvents(first, org.id, "booking.confirmed", 100, 4)
    await waitFor(() => r.hits.length >= 40, 60_000, "40 deliveries")
    await sleep(100)
    const inFlight = r.ids()[39]
    crashed = true
    await first.close() // the dispatcher is interrupted mid-request
    expect(r.hits).toHaveLength(40)

    const second = await start(database)
    const all = (
      await sql(second, (s) => s<{ id: number }>`select id from events where org_id = ${org.id} order by id`)
    ).map((e) => e.id)
    expect(all).toHaveLength(100)
    await waitFor(() => new Set(r.ids()).size === 100, 60_000, "every event after the restart")
    const ids = r.ids()
    expect(ids.slice(0, 40)).toEqual(all.slice(0, 40))
    expect(ids.slice(40)).toEqual(all.slice(all.indexOf(inFlight)))
    expect(ids.filter((id) => id === inFlight)).toHaveLength(2)
  }, 180_000)

  it("an endpoint held by an engine that died is taken over once its lease lapses", async () => {
    const database = newDatabase()
    const app = await start(database)
    const org = await app.newOrg()
    const r = await startReceiver()
    receivers.push(r)
    const hook = await createHook(app, org.key, r.url)
    await sql(
      app,
      (s) =>
        s`update webhook_endpoints set lease_owner = gen_random_uuid(), leased_until = clock_timestamp() + interval '2 seconds' where id = ${hook.id}`
    )
    await commitEvents(app, org.id, "org.updated", 3)
    await sleep(1_000)
    expect(r.hits).toHaveLength(0)
    await waitFor(() => r.hits.length === 3, 60_000, "delivery after the lease lapsed")
    const held = async () =>
      (
        await sql(
          app,
          (s) =>
            s<{ held: boolean }>`select leased_until is not null as held from webhook_endpoints where id = ${hook.id}`
        )
      )[0].held
    await waitFor(async () => !(await held()), 60_000, "the lease given back")
    await sleep(300)
    expect(r.hits).toHaveLength(3)
  }, 180_000)
})
