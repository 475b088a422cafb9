import { randomBytes } from "node:crypto"
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { startApp } from "../../support/app.ts"
import { dropTestDatabase } from "../../support/database.ts"
import { natsReachable, natsUrl, readStream } from "../../support/nats.ts"
import { waitFor } from "../../support/receiver.ts"
import { commitEvents } from "../webhooks/helpers.ts"
import { allRelayed, ids, orgEvents } from "./helpers.ts"

// Two engines at once over one database, relaying to JetStream: runs only when both DATABASE_URL and NATS_URL are set
// (see vitest.config.ts), and then fails if either server does not answer.
const reachable = await natsReachable()

describe("relay with JetStream from two engines (Postgres)", () => {
  it(`reaches NATS at ${natsUrl}`, () => {
    expect(reachable, `NATS at ${natsUrl} is unreachable (NATS_URL is set, so it must answer)`).toBe(true)
  })

  it("two engine instances over one database publish each event once and keep going when one stops", async () => {
    const database = `be_relay_${randomBytes(5).toString("hex")}`
    const first = await startApp({ natsUrl: Option.some(natsUrl) }, { database })
    const second = await startApp({ natsUrl: Option.some(natsUrl) }, { database })
    try {
      const org = await first.newOrg()
      await Promise.all([
        commitEvents(first, org.id, "booking.confirmed", 250, 5),
        commitEvents(second, org.id, "booking.confirmed", 250, 5)
      ])
      await waitFor(allRelayed(first, org.id), 60_000, "relayed by two instances")
      await first.close()
      await commitEvents(second, org.id, "booking.cancelled", 100, 5)
      await waitFor(allRelayed(second, org.id), 60_000, "relayed by the survivor")
      const stored = await readStream(natsUrl, `events.${org.id}.>`)
      expect(stored).toHaveLength(600)
      expect(stored.map((m) => m.event.id)).toEqual(ids(await orgEvents(second, org.id)))
    } finally {
      await first.close().catch(() => undefined)
      await second.close()
      await dropTestDatabase(database)
    }
  }, 180_000)
})
