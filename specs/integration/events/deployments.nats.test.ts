import { randomInt } from "node:crypto"
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { natsReachable, natsUrl, readStream } from "../../support/nats.ts"
import { waitFor } from "../../support/receiver.ts"
import { commitEvents } from "../webhooks/helpers.ts"
import { allRelayed, ids, orgEvents } from "./helpers.ts"

// Two deployments (two databases, an app over each) on the one NATS server of the run, with the default stream and
// subject prefix (EVENTS, events). Runs only when NATS_URL is set (see vitest.config.ts), and then fails if that server
// does not answer. Event ids are counted per database, so two deployments hand out the same ids: before deployment ids,
// JetStream took the second one's events for duplicates of the first's (Nats-Msg-Id was the bare id) and dropped them.
const reachable = await natsReachable()

const deploymentOf = async (app: TestApp) => (await sql(app, (s) => s<{ id: string }>`select id from deployment`))[0].id

/** Both databases hand out the same next ids (a fresh range of this run's, as two new databases would from 1). */
const sameNextIds = async (apps: ReadonlyArray<TestApp>) => {
  const base = randomInt(2 ** 40) * 1000
  for (const app of apps) await sql(app, (s) => s`select setval('events_id_seq', ${base})`)
  return base
}

const twoApps = async () => {
  const a = await startApp({ natsUrl: Option.some(natsUrl) })
  const b = await startApp({ natsUrl: Option.some(natsUrl) }).catch(
    async (e: unknown) => (await a.close(), Promise.reject(e))
  )
  return { a, b, close: () => Promise.all([a.close(), b.close()]) }
}

describe("deployments sharing one NATS stream", () => {
  it(`reaches NATS at ${natsUrl}`, () => {
    expect(reachable, `NATS at ${natsUrl} is unreachable (NATS_URL is set, so it must answer)`).toBe(true)
  })

  it("two deployments whose event ids coincide: every event of both is on the stream, none dropped", async () => {
    const { a, b, close } = await twoApps()
    try {
      const [orgA, orgB] = [await a.newOrg(), await b.newOrg()]
      await sameNextIds([a, b])
      await commitEvents(a, orgA.id, "booking.held", 40, 4)
      await commitEvents(b, orgB.id, "booking.confirmed", 40, 4)
      await waitFor(allRelayed(a, orgA.id), 60_000, "relayed by a")
      await waitFor(allRelayed(b, orgB.id), 60_000, "relayed by b")
      const [inA, inB] = [ids(await orgEvents(a, orgA.id)), ids(await orgEvents(b, orgB.id))]
      expect(inA.filter((id) => inB.includes(id)).length).toBeGreaterThanOrEqual(40) // the premise: the same ids

      const storedA = await readStream(natsUrl, `events.${orgA.id}.>`)
      const storedB = await readStream(natsUrl, `events.${orgB.id}.>`)
      expect(storedA.map((m) => m.event.id)).toEqual(inA)
      expect(storedB.map((m) => m.event.id)).toEqual(inB)

      const [depA, depB] = [await deploymentOf(a), await deploymentOf(b)]
      expect(depA).not.toBe(depB)
      expect(storedA.map((m) => m.msgId)).toEqual(inA.map((id) => `${depA}:${id}`))
      expect(storedB.map((m) => m.msgId)).toEqual(inB.map((id) => `${depB}:${id}`))
      expect(storedB.every((m) => m.event.deployment === depB)).toBe(true)
      expect(storedB.every((m) => m.subject === `events.${orgB.id}.booking.confirmed`)).toBe(true)
    } finally {
      await close()
    }
  }, 180_000)

  it("a copy of a database (deployment id and all) publishing the same ids takes a new id; none is lost", async () => {
    const { a, b, close } = await twoApps()
    try {
      const [orgA, orgB] = [await a.newOrg(), await b.newOrg()]
      await waitFor(allRelayed(b, orgB.id), 60_000, "b's org relayed")
      const depA = await deploymentOf(a)
      // As if b were restored from a copy of a's data: the same deployment id, and ids a has published already.
      await sql(b, (s) => s`update deployment set id = ${depA}::uuid`)
      await sameNextIds([a, b])
      await commitEvents(a, orgA.id, "booking.held", 30, 3)
      await waitFor(allRelayed(a, orgA.id), 60_000, "relayed by a")
      await commitEvents(b, orgB.id, "booking.confirmed", 30, 3)
      await waitFor(allRelayed(b, orgB.id), 60_000, "relayed by b")

      const depB = await deploymentOf(b)
      expect(depB).not.toBe(depA)
      expect(await deploymentOf(a)).toBe(depA)
      const inB = (await orgEvents(b, orgB.id)).slice(-30).map((e) => e.id)
      expect(inB).toEqual(ids(await orgEvents(a, orgA.id)).slice(-30)) // the premise: the same ids
      const storedB = (await readStream(natsUrl, `events.${orgB.id}.>`)).filter(
        (m) => m.event.type === "booking.confirmed"
      )
      expect(storedB.map((m) => m.event.id)).toEqual(inB)
      expect(storedB.map((m) => m.msgId)).toEqual(inB.map((id) => `${depB}:${id}`))
      const storedA = (await readStream(natsUrl, `events.${orgA.id}.>`)).filter((m) => m.event.type === "booking.held")
      expect(storedA.map((m) => m.msgId)).toEqual(inB.map((id) => `${depA}:${id}`))
    } finally {
      await close()
    }
  }, 180_000)
})
