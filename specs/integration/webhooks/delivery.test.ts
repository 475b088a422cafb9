import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { verifySignature } from "../../../sdk.ts"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { type Receiver, sleep, startReceiver, waitFor } from "../../support/receiver.ts"
import { busConfig, commitEvents, createHook, endpoint } from "./helpers.ts"

let app: TestApp
const receivers: Array<Receiver> = []
beforeAll(async () => {
  app = await startApp({ ...busConfig(), webhookAllowInsecure: true })
})
afterAll(async () => {
  await app.close()
  await Promise.all(receivers.map((r) => r.close()))
})

const receiver = async (...args: Parameters<typeof startReceiver>) => {
  const r = await startReceiver(...args)
  receivers.push(r)
  return r
}
const increasing = (ids: Array<number>) => ids.every((id, i) => i === 0 || id > ids[i - 1])
const deliveries = async (key: string, id: string) =>
  (await app.call(key, "GET", `/api/v1/webhooks/${id}/deliveries`)).body.data
const eventIds = (orgId: string, type = "org.updated") =>
  sql(app, (s) => s<{ id: number }>`select id from events where org_id = ${orgId} and type = ${type} order by id`).then(
    (r) => r.map((x) => x.id)
  )

describe("webhook delivery", () => {
  it("POSTs each subscribed event once, in order, signed; a new endpoint starts with the next event", async () => {
    const org = await app.newOrg()
    await commitEvents(app, org.id, "org.updated", 2) // before the endpoint: never sent
    const r = await receiver()
    const hook = await createHook(app, org.key, r.url, ["org.updated"])
    await commitEvents(app, org.id, "org.updated", 2)
    await commitEvents(app, org.id, "offering.created", 2)
    expect((await app.call(org.key, "PATCH", "/api/v1/org", { name: "Renamed" })).status).toBe(200)
    await waitFor(() => r.hits.length >= 3, 60_000, "3 deliveries")
    await sleep(300)
    const all = await eventIds(org.id)
    expect(r.ids()).toEqual(all.slice(2))
    for (const hit of r.hits) {
      expect(Object.keys(JSON.parse(hit.body))).toEqual(["id", "type", "created_at", "data"])
      expect(hit.type).toBe("org.updated")
      expect(hit.headers["service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
      expect(
        verifySignature({ header: hit.headers["service-signature"] as string, rawBody: hit.body, secrets: hook.secret })
      ).toEqual({ ok: true })
      expect(
        verifySignature({
          header: hit.headers["service-signature"] as string,
          rawBody: `${hit.body} `,
          secrets: hook.secret
        }).ok
      ).toBe(false)
    }
    expect(JSON.parse(r.hits[2].body).data).toMatchObject({ name: "Renamed" })
    const shown = await endpoint(app, org.key, hook.id)
    expect(shown).toMatchObject({
      active: true,
      last_status: 200,
      last_error: null,
      last_delivery_at: expect.any(String)
    })
    const log = await deliveries(org.key, hook.id)
    expect(log.map((d: { event_id: number }) => d.event_id)).toEqual([...r.ids()].reverse())
    expect(log[0]).toEqual({
      event_id: r.ids()[2],
      status: 200,
      duration_ms: expect.any(Number),
      error: null,
      at: expect.any(String)
    })
  })

  it("under load (300 events from 10 writers, two endpoints) each endpoint sees every id once, strictly increasing", async () => {
    const org = await app.newOrg()
    const [r1, r2] = [await receiver(), await receiver()]
    await createHook(app, org.key, r1.url, ["booking.confirmed"])
    await createHook(app, org.key, r2.url, ["booking.confirmed", "booking.cancelled"])
    await Promise.all([
      commitEvents(app, org.id, "booking.confirmed", 300, 10),
      commitEvents(app, org.id, "booking.cancelled", 30, 3)
    ])
    const confirmed = await eventIds(org.id, "booking.confirmed")
    const both = (
      await sql(app, (s) => s<{ id: number }>`select id from events where org_id = ${org.id} order by id`)
    ).map((x) => x.id)
    await waitFor(() => r1.hits.length >= 300 && r2.hits.length >= 330, 60_000, "330 deliveries")
    await sleep(200)
    expect(r1.ids()).toEqual(confirmed)
    expect(r2.ids()).toEqual(both)
    expect(increasing(r1.ids()) && increasing(r2.ids())).toBe(true)
    expect([r1.maxInFlight(), r2.maxInFlight()]).toEqual([1, 1])
  })

  it("redeliver sends one past event again and logs it; the log keeps the last 50 attempts", async () => {
    const org = await app.newOrg()
    const r = await receiver()
    const hook = await createHook(app, org.key, r.url)
    await commitEvents(app, org.id, "org.updated", 55)
    await waitFor(() => r.hits.length >= 55, 60_000, "55 deliveries")
    const [first] = r.ids()
    const res = await app.call(org.key, "POST", `/api/v1/webhooks/${hook.id}/redeliver`, { event_id: first })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      event_id: first,
      status: 200,
      duration_ms: expect.any(Number),
      error: null,
      at: expect.any(String)
    })
    expect(r.ids().at(-1)).toBe(first)
    expect(
      verifySignature({
        header: r.hits.at(-1)?.headers["service-signature"] as string,
        rawBody: r.hits.at(-1)?.body ?? "",
        secrets: hook.secret
      }).ok
    ).toBe(true)
    const log = await deliveries(org.key, hook.id)
    expect(log).toHaveLength(50)
    expect(log[0].event_id).toBe(first)
    expect(log[1].event_id).toBe(r.ids()[54])
  })
})
