import { afterAll, beforeAll, describe, expect, it } from "vitest"
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
const deliveries = async (key: string, id: string) =>
  (await app.call(key, "GET", `/api/v1/webhooks/${id}/deliveries`)).body.data
const eventIds = (orgId: string, type = "org.updated") =>
  sql(app, (s) => s<{ id: number }>`select id from events where org_id = ${orgId} and type = ${type} order by id`).then(
    (r) => r.map((x) => x.id)
  )

describe("webhook delivery failures", () => {
  it("a failure stops delivery there; the next event and the 5-minute retry resume from the first missed one", async () => {
    const org = await app.newOrg()
    let status = 500
    const r = await receiver(() => status)
    const hook = await createHook(app, org.key, r.url)
    await commitEvents(app, org.id, "org.updated", 2)
    const [e1, e2] = await eventIds(org.id)
    await waitFor(() => r.hits.length >= 1, 60_000, "first attempt")
    await sleep(1_500) // no hammering, and e2 waits behind e1
    expect(r.ids()).toEqual([e1])
    expect(await endpoint(app, org.key, hook.id)).toMatchObject({
      active: true,
      last_status: 500,
      last_error: "HTTP 500"
    })

    status = 200
    await commitEvents(app, org.id, "org.updated") // its org's next event: resumes from e1
    const [, , e3] = await eventIds(org.id)
    await waitFor(() => r.hits.length >= 4, 60_000, "resume")
    expect(r.ids()).toEqual([e1, e1, e2, e3])
    // Recorded once the run saves, which may come a moment after the receiver has the last POST.
    await waitFor(
      async () => (await endpoint(app, org.key, hook.id)).last_status === 200,
      60_000,
      "the success recorded"
    )
    expect(await endpoint(app, org.key, hook.id)).toMatchObject({ active: true, last_status: 200, last_error: null })

    status = 503
    await commitEvents(app, org.id, "org.updated")
    await waitFor(() => r.hits.length >= 5, 60_000, "failing again")
    // The failure is recorded once the attempt ends; an event committed while it is in flight counts as seen by it.
    await waitFor(
      async () => (await endpoint(app, org.key, hook.id)).last_status === 503,
      60_000,
      "the failure recorded"
    )
    const e4 = r.ids()[4]
    status = 200
    await commitEvents(app, org.id, "offering.created", 1) // not subscribed, still its org's next event
    await waitFor(() => r.hits.length >= 6, 60_000, "resume on an event of another type")
    expect(r.ids().slice(4)).toEqual([e4, e4])

    status = 500
    await commitEvents(app, org.id, "org.updated", 60)
    await waitFor(() => r.hits.length >= 7, 60_000, "stopped again")
    await sleep(1_000)
    const stuck = r.hits.length
    status = 200
    await app.advance(299)
    await sleep(500)
    expect(r.hits.length).toBe(stuck)
    await app.advance(1) // 5 minutes after the last failure
    const all = await eventIds(org.id)
    await waitFor(() => r.ids().at(-1) === all.at(-1), 60_000, "the retry run")
    const after = r.ids().slice(stuck)
    expect(after).toEqual(all.slice(all.indexOf(after[0])))
    expect(after).toHaveLength(60)
  })

  it("410 switches the endpoint off, with the reason in last_error", async () => {
    const org = await app.newOrg()
    const r = await receiver(() => 410)
    const hook = await createHook(app, org.key, r.url)
    await commitEvents(app, org.id, "org.updated")
    await waitFor(async () => (await endpoint(app, org.key, hook.id)).active === false, 60_000, "switched off")
    expect(await endpoint(app, org.key, hook.id)).toMatchObject({
      active: false,
      last_status: 410,
      last_error: expect.stringContaining("410")
    })
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
    await waitFor(async () => (await endpoint(app, org.key, hook.id)).last_status === 302, 60_000, "302 recorded")
    expect(await endpoint(app, org.key, hook.id)).toMatchObject({
      active: true,
      last_error: "redirect not followed (302)"
    })
    expect(r.hits).toHaveLength(1)
    expect(target.hits).toHaveLength(0)
  })

  it("no answer within 5 seconds stops delivery at the event", async () => {
    const org = await app.newOrg()
    const r = await receiver(() => "hang")
    const hook = await createHook(app, org.key, r.url)
    await commitEvents(app, org.id, "org.updated", 2)
    await waitFor(async () => (await deliveries(org.key, hook.id)).length > 0, 60_000, "timeout recorded")
    const [attempt] = await deliveries(org.key, hook.id)
    expect(attempt).toMatchObject({ event_id: r.ids()[0], status: null, error: "timeout" })
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(4_900)
    expect(attempt.duration_ms).toBeLessThan(20_000) // the 5 s timeout, not a later one; generous for a loaded machine
    expect(await endpoint(app, org.key, hook.id)).toMatchObject({
      active: true,
      last_status: null,
      last_error: "timeout"
    })
    expect(r.hits).toHaveLength(1)
  }, 180_000)

  it("revoking the API key that created the endpoint switches it off at once; nothing more is sent", async () => {
    const org = await app.newOrg()
    const second = (await app.admin("POST", `/orgs/${org.id}/api_keys`)).body as { id: string; key: string }
    const r = await receiver()
    const hook = await createHook(app, second.key, r.url)
    expect(hook.api_key_id).toBe(second.id)
    await commitEvents(app, org.id, "org.updated")
    await waitFor(() => r.hits.length === 1, 60_000, "first delivery")
    expect((await app.admin("DELETE", `/api_keys/${second.id}`)).status).toBe(200)
    expect(await endpoint(app, org.key, hook.id)).toMatchObject({
      active: false,
      last_error: expect.stringContaining("revoked")
    })
    await commitEvents(app, org.id, "org.updated", 3)
    await app.advance(600)
    await sleep(700)
    expect(r.hits).toHaveLength(1)
  })
})
