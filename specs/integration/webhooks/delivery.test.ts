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
const deliveries = async (key: string, id: string) => (await app.call(key, "GET", `/api/v1/webhooks/${id}/deliveries`)).body.data
const eventIds = (orgId: string, type = "org.updated") =>
  sql(app, (s) => s<{ id: number }>`select id from events where org_id = ${orgId} and type = ${type} order by id`).then((r) => r.map((x) => x.id))

describe("webhook delivery", () => {
  it("POSTs each subscribed event once, in order, signed; a new endpoint starts with the next event", async () => {
    const org = await app.newOrg()
    await commitEvents(app, org.id, "org.updated", 2) // before the endpoint: never sent
    const r = await receiver()
    const hook = await createHook(app, org.key, r.url, ["org.updated"])
    await commitEvents(app, org.id, "org.updated", 2)
    await commitEvents(app, org.id, "offering.created", 2)
    expect((await app.call(org.key, "PATCH", "/api/v1/org", { name: "Renamed" })).status).toBe(200)
    await waitFor(() => r.hits.length >= 3, 10_000, "3 deliveries")
    await sleep(300)
    const all = await eventIds(org.id)
    expect(r.ids()).toEqual(all.slice(2))
    for (const hit of r.hits) {
      expect(Object.keys(JSON.parse(hit.body))).toEqual(["id", "type", "created_at", "data"])
      expect(hit.type).toBe("org.updated")
      expect(hit.headers["service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
      expect(verifySignature({ header: hit.headers["service-signature"] as string, rawBody: hit.body, secrets: hook.secret })).toEqual({ ok: true })
      expect(verifySignature({ header: hit.headers["service-signature"] as string, rawBody: hit.body + " ", secrets: hook.secret }).ok).toBe(false)
    }
    expect(JSON.parse(r.hits[2].body).data).toMatchObject({ name: "Renamed" })
    const shown = await endpoint(app, org.key, hook.id)
    expect(shown).toMatchObject({ active: true, last_status: 200, last_error: null, last_delivery_at: expect.any(String) })
    const log = await deliveries(org.key, hook.id)
    expect(log.map((d: { event_id: number }) => d.event_id)).toEqual([...r.ids()].reverse())
    expect(log[0]).toEqual({ event_id: r.ids()[2], status: 200, duration_ms: expect.any(Number), error: null, at: expect.any(String) })
  })

  it("under load (300 events from 10 writers, two endpoints) each endpoint sees every id once, strictly increasing", async () => {
    const org = await app.newOrg()
    const [r1, r2] = [await receiver(), await receiver()]
    await createHook(app, org.key, r1.url, ["booking.confirmed"])
    await createHook(app, org.key, r2.url, ["booking.confirmed", "booking.cancelled"])
    await Promise.all([commitEvents(app, org.id, "booking.confirmed", 300, 10), commitEvents(app, org.id, "booking.cancelled", 30, 3)])
    const confirmed = await eventIds(org.id, "booking.confirmed")
    const both = (await sql(app, (s) => s<{ id: number }>`select id from events where org_id = ${org.id} order by id`)).map((x) => x.id)
    await waitFor(() => r1.hits.length >= 300 && r2.hits.length >= 330, 30_000, "330 deliveries")
    await sleep(200)
    expect(r1.ids()).toEqual(confirmed)
    expect(r2.ids()).toEqual(both)
    expect(increasing(r1.ids()) && increasing(r2.ids())).toBe(true)
  })

  it("a failure stops delivery there; the next event and the 5-minute retry resume from the first missed one", async () => {
    const org = await app.newOrg()
    let status = 500
    const r = await receiver(() => status)
    const hook = await createHook(app, org.key, r.url)
    await commitEvents(app, org.id, "org.updated", 2)
    const [e1, e2] = await eventIds(org.id)
    await waitFor(() => r.hits.length >= 1, 10_000, "first attempt")
    await sleep(1_500) // no hammering, and e2 waits behind e1
    expect(r.ids()).toEqual([e1])
    expect(await endpoint(app, org.key, hook.id)).toMatchObject({ active: true, last_status: 500, last_error: "HTTP 500" })

    status = 200
    await commitEvents(app, org.id, "org.updated") // its org's next event: resumes from e1
    const [, , e3] = await eventIds(org.id)
    await waitFor(() => r.hits.length >= 4, 10_000, "resume")
    expect(r.ids()).toEqual([e1, e1, e2, e3])
    expect(await endpoint(app, org.key, hook.id)).toMatchObject({ active: true, last_status: 200, last_error: null })

    status = 503
    await commitEvents(app, org.id, "org.updated")
    await waitFor(() => r.hits.length >= 5, 10_000, "failing again")
    const e4 = r.ids()[4]
    status = 200
    await commitEvents(app, org.id, "offering.created", 1) // not subscribed, still its org's next event
    await waitFor(() => r.hits.length >= 6, 10_000, "resume on an event of another type")
    expect(r.ids().slice(4)).toEqual([e4, e4])

    status = 500
    await commitEvents(app, org.id, "org.updated", 60)
    await waitFor(() => r.hits.length >= 7, 10_000, "stopped again")
    await sleep(1_000)
    const stuck = r.hits.length
    status = 200
    await app.advance(299)
    await sleep(500)
    expect(r.hits.length).toBe(stuck)
    await app.advance(1) // 5 minutes after the last failure
    const all = await eventIds(org.id)
    await waitFor(() => r.ids().at(-1) === all.at(-1), 10_000, "the retry run")
    const after = r.ids().slice(stuck)
    expect(after).toEqual(all.slice(all.indexOf(after[0])))
    expect(after).toHaveLength(60)
  })

  it("410 switches the endpoint off, with the reason in last_error", async () => {
    const org = await app.newOrg()
    const r = await receiver(() => 410)
    const hook = await createHook(app, org.key, r.url)
    await commitEvents(app, org.id, "org.updated")
    await waitFor(async () => (await endpoint(app, org.key, hook.id)).active === false, 10_000, "switched off")
    expect(await endpoint(app, org.key, hook.id)).toMatchObject({ active: false, last_status: 410, last_error: expect.stringContaining("410") })
    await commitEvents(app, org.id, "org.updated", 3)
    await app.advance(600)
    await sleep(500)
    expect(r.hits).toHaveLength(1)
    const redo = await app.call(org.key, "POST", `/api/v1/webhooks/${hook.id}/redeliver`, { event_id: r.ids()[0] })
    expect([redo.status, redo.body.error.code]).toEqual([409, "endpoint_off"])
  })

  it("a redirect is a failure and is not followed", async () => {
    const org = await app.newOrg()
    const target = await receiver()
    const r = await receiver(() => ({ status: 302, headers: { location: target.url } }))
    const hook = await createHook(app, org.key, r.url)
    await commitEvents(app, org.id, "org.updated", 2)
    await waitFor(async () => (await endpoint(app, org.key, hook.id)).last_status === 302, 10_000, "302 recorded")
    expect(await endpoint(app, org.key, hook.id)).toMatchObject({ active: true, last_error: "redirect not followed (302)" })
    expect(r.hits).toHaveLength(1)
    expect(target.hits).toHaveLength(0)
  })

  it("no answer within 5 seconds stops delivery at the event", async () => {
    const org = await app.newOrg()
    const r = await receiver(() => "hang")
    const hook = await createHook(app, org.key, r.url)
    await commitEvents(app, org.id, "org.updated", 2)
    await waitFor(async () => (await deliveries(org.key, hook.id)).length > 0, 15_000, "timeout recorded")
    const [attempt] = await deliveries(org.key, hook.id)
    expect(attempt).toMatchObject({ event_id: r.ids()[0], status: null, error: "timeout" })
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(4_900)
    expect(attempt.duration_ms).toBeLessThan(7_000)
    expect(await endpoint(app, org.key, hook.id)).toMatchObject({ active: true, last_status: null, last_error: "timeout" })
    expect(r.hits).toHaveLength(1)
  }, 30_000)

  it("revoking the API key that created the endpoint switches it off at once; nothing more is sent", async () => {
    const org = await app.newOrg()
    const second = (await app.admin("POST", `/orgs/${org.id}/api_keys`)).body as { id: string; key: string }
    const r = await receiver()
    const hook = await createHook(app, second.key, r.url)
    expect(hook.api_key_id).toBe(second.id)
    await commitEvents(app, org.id, "org.updated")
    await waitFor(() => r.hits.length === 1, 10_000, "first delivery")
    expect((await app.admin("DELETE", `/api_keys/${second.id}`)).status).toBe(200)
    expect(await endpoint(app, org.key, hook.id)).toMatchObject({ active: false, last_error: expect.stringContaining("revoked") })
    await commitEvents(app, org.id, "org.updated", 3)
    await app.advance(600)
    await sleep(700)
    expect(r.hits).toHaveLength(1)
  })

  it("redeliver sends one past event again and logs it; the log keeps the last 50 attempts", async () => {
    const org = await app.newOrg()
    const r = await receiver()
    const hook = await createHook(app, org.key, r.url)
    await commitEvents(app, org.id, "org.updated", 55)
    await waitFor(() => r.hits.length >= 55, 15_000, "55 deliveries")
    const [first] = r.ids()
    const res = await app.call(org.key, "POST", `/api/v1/webhooks/${hook.id}/redeliver`, { event_id: first })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ event_id: first, status: 200, duration_ms: expect.any(Number), error: null, at: expect.any(String) })
    expect(r.ids().at(-1)).toBe(first)
    expect(verifySignature({ header: r.hits.at(-1)?.headers["service-signature"] as string, rawBody: r.hits.at(-1)?.body ?? "", secrets: hook.secret }).ok).toBe(true)
    const log = await deliveries(org.key, hook.id)
    expect(log).toHaveLength(50)
    expect(log[0].event_id).toBe(first)
    expect(log[1].event_id).toBe(r.ids()[54])
  })
})
