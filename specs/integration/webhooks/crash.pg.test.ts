import { describe, expect, it } from "vitest"
import { sql } from "../../support/app.ts"
import { sleep, startReceiver, waitFor } from "../../support/receiver.ts"
import { enginesOverNamedDatabases } from "./engines.ts"
import { commitEvents, createHook } from "./helpers.ts"

// Two engines at once over one database need a real server: runs only when DATABASE_URL is set (see vitest.config.ts).
const { start, newDatabase, receivers } = enginesOverNamedDatabases()

describe("webhook delivery from two engines (same database, Postgres)", () => {
  it("two engines over one database deliver each event once, in order, one request at a time", async () => {
    const database = newDatabase()
    const [a, b] = [await start(database), await start(database)]
    const org = await a.newOrg()
    const r = await startReceiver()
    receivers.push(r)
    r.delayMs = 3
    await createHook(a, org.key, r.url, ["booking.confirmed"])
    await Promise.all([
      commitEvents(a, org.id, "booking.confirmed", 100, 4),
      commitEvents(b, org.id, "booking.confirmed", 100, 4)
    ])
    const all = (
      await sql(a, (s) => s<{ id: number }>`select id from events where org_id = ${org.id} order by id`)
    ).map((e) => e.id)
    await waitFor(() => r.hits.length >= 200, 60_000, "200 deliveries")
    await sleep(500)
    expect(r.ids()).toEqual(all)
    expect(r.maxInFlight()).toBe(1)
  }, 180_000)
})
