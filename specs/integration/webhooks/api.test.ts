import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Api } from "../../../transports/http/Api.ts"
import { toolsOf } from "../../../transports/mcp/tools.ts"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { commitEvents, createHook } from "./helpers.ts"

let app: TestApp
let strict: TestApp
beforeAll(async () => {
  ;[app, strict] = await Promise.all([startApp(), startApp({ webhookAllowInsecure: false })])
})
afterAll(() => Promise.all([app.close(), strict.close()]))

const hookUrl = "https://hooks.example.com/in"

describe("webhooks operations", () => {
  it("create answers 201 with the secret once; list and get never show it", async () => {
    const org = await app.newOrg()
    const res = await app.call(org.key, "POST", "/api/v1/webhooks", {
      url: hookUrl,
      events: ["booking.confirmed", "org.updated", "org.updated"]
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.any(String),
      url: hookUrl,
      events: ["booking.confirmed", "org.updated"],
      active: true,
      secret: expect.stringMatching(/^whsec_/),
      api_key_id: org.keyId,
      created_at: expect.any(String)
    })
    const listed = await app.call(org.key, "GET", "/api/v1/webhooks")
    expect(listed.body.data).toEqual([
      {
        id: res.body.id,
        url: hookUrl,
        events: ["booking.confirmed", "org.updated"],
        active: true,
        api_key_id: org.keyId,
        last_status: null,
        last_error: null,
        last_delivery_at: null,
        created_at: res.body.created_at
      }
    ])
    const got = await app.call(org.key, "GET", `/api/v1/webhooks/${res.body.id}`)
    expect(got.body).toEqual(listed.body.data[0])
    expect(JSON.stringify([listed.body, got.body])).not.toContain(res.body.secret)
  })

  it.each([
    [{ url: hookUrl, events: ["booking.exploded"] }, "invalid_events"],
    [{ url: hookUrl, events: [] }, "invalid_events"],
    [{ url: hookUrl }, "invalid_events"],
    [{ url: "ftp://hooks.example.com/", events: ["org.updated"] }, "invalid_url"],
    [{ url: "not a url", events: ["org.updated"] }, "invalid_url"],
    [{ url: "https://user:pw@hooks.example.com/", events: ["org.updated"] }, "invalid_url"]
  ])("refuses %j with 400 %s", async (body, code) => {
    const org = await app.newOrg()
    const res = await app.call(org.key, "POST", "/api/v1/webhooks", body)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(code)
    expect((await app.call(org.key, "GET", "/api/v1/webhooks")).body.data).toEqual([])
  })

  it.each([
    "http://hooks.example.com/in",
    "https://127.0.0.1/in",
    "https://localhost/in",
    "https://10.1.2.3/",
    "https://[::1]/",
    "https://169.254.169.254/"
  ])("without WEBHOOK_ALLOW_INSECURE refuses %s with 400 invalid_url", async (url) => {
    const org = await strict.newOrg()
    const res = await strict.call(org.key, "POST", "/api/v1/webhooks", { url, events: ["org.updated"] })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe("invalid_url")
    expect(
      (await strict.call(org.key, "POST", "/api/v1/webhooks", { url: hookUrl, events: ["org.updated"] })).status
    ).toBe(201)
  })

  it("another org's endpoint is a 404 everywhere", async () => {
    const [a, b] = [await app.newOrg(), await app.newOrg()]
    const hook = await createHook(app, a.key, hookUrl)
    for (const [method, path, body] of [
      ["GET", `/api/v1/webhooks/${hook.id}`, undefined],
      ["GET", `/api/v1/webhooks/${hook.id}/deliveries`, undefined],
      ["POST", `/api/v1/webhooks/${hook.id}/redeliver`, { event_id: 1 }],
      ["DELETE", `/api/v1/webhooks/${hook.id}`, undefined]
    ] as const) {
      const res = await app.call(b.key, method, path, body)
      expect(res.status, `${method} ${path}`).toBe(404)
    }
    expect((await app.call(a.key, "GET", `/api/v1/webhooks/${hook.id}`)).status).toBe(200)
  })

  it("delete removes the endpoint", async () => {
    const org = await app.newOrg()
    const hook = await createHook(app, org.key, hookUrl)
    expect((await app.call(org.key, "DELETE", `/api/v1/webhooks/${hook.id}`)).body).toEqual({
      id: hook.id,
      deleted: true
    })
    expect((await app.call(org.key, "GET", `/api/v1/webhooks/${hook.id}`)).status).toBe(404)
    expect((await app.call(org.key, "DELETE", `/api/v1/webhooks/${hook.id}`)).status).toBe(404)
  })

  it("redeliver is a 404 for an event of another org, of a type not subscribed, or unknown", async () => {
    const [a, b] = [await app.newOrg(), await app.newOrg()]
    const hook = await createHook(app, a.key, hookUrl, ["org.updated"])
    await commitEvents(app, a.id, "offering.created")
    await commitEvents(app, b.id, "org.updated")
    const ids = await sql(
      app,
      (s) => s<{ id: number }>`select id from events where org_id in (${a.id}, ${b.id}) order by id`
    )
    for (const eventId of [...ids.map((r) => r.id), 999_999_999]) {
      const res = await app.call(a.key, "POST", `/api/v1/webhooks/${hook.id}/redeliver`, { event_id: eventId })
      expect([res.status, res.body.error.code]).toEqual([404, "not_found"])
    }
    expect((await app.call(a.key, "POST", `/api/v1/webhooks/${hook.id}/redeliver`, { event_id: 0 })).status).toBe(400)
  })

  it("the 51st active endpoint is 429 too_many_webhooks without Retry-After, also when created in parallel", async () => {
    const org = await app.newOrg()
    const create = (i: number) =>
      app.call(org.key, "POST", "/api/v1/webhooks", { url: `${hookUrl}/${i}`, events: ["org.updated"] })
    for (let i = 0; i < 44; i += 4) await Promise.all([i, i + 1, i + 2, i + 3].map(create))
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => create(100 + i)))
    expect(results.filter((r) => r.status === 201)).toHaveLength(6)
    const refused = results.filter((r) => r.status !== 201)
    expect(refused.map((r) => r.status)).toEqual(Array(6).fill(429))
    expect((await app.call(org.key, "GET", "/api/v1/webhooks")).body.data).toHaveLength(50)
    expect(refused[0].body.error.code).toBe("too_many_webhooks")
    expect(refused.every((r) => r.headers.get("retry-after") === null)).toBe(true)
    const one = await app.call(org.key, "POST", "/api/v1/webhooks", { url: hookUrl, events: ["org.updated"] })
    expect([one.status, one.headers.get("retry-after")]).toEqual([429, null])
  })

  it("an endpoint switched off (its key revoked) stops counting towards the 50", async () => {
    const org = await app.newOrg()
    const other = (await app.admin("POST", `/orgs/${org.id}/api_keys`)).body as { id: string; key: string }
    const doomed = await createHook(app, other.key, hookUrl)
    for (let i = 0; i < 49; i++) await createHook(app, org.key, `${hookUrl}/${i}`)
    expect(
      (await app.call(org.key, "POST", "/api/v1/webhooks", { url: hookUrl, events: ["org.updated"] })).status
    ).toBe(429)
    expect((await app.admin("DELETE", `/api_keys/${other.id}`)).status).toBe(200)
    const off = await app.call(org.key, "GET", `/api/v1/webhooks/${doomed.id}`)
    expect(off.body).toMatchObject({ active: false, last_error: expect.stringContaining("revoked") })
    expect(
      (await app.call(org.key, "POST", "/api/v1/webhooks", { url: hookUrl, events: ["org.updated"] })).status
    ).toBe(201)
  })

  it("every operation is also an MCP tool", () => {
    const names = toolsOf(Api)
      .map((t) => t.name)
      .filter((n) => n.startsWith("webhooks_"))
    expect(names.sort()).toEqual([
      "webhooks_create",
      "webhooks_delete",
      "webhooks_deliveries",
      "webhooks_get",
      "webhooks_list",
      "webhooks_redeliver"
    ])
  })

  it("webhooks appear in the OpenAPI document", async () => {
    const doc = (await app.call(null, "GET", "/api/v1/openapi.json")).body
    expect(
      Object.keys(doc.paths)
        .filter((p: string) => p.startsWith("/api/v1/webhooks"))
        .sort()
    ).toEqual([
      "/api/v1/webhooks",
      "/api/v1/webhooks/{id}",
      "/api/v1/webhooks/{id}/deliveries",
      "/api/v1/webhooks/{id}/redeliver"
    ])
    expect(Option.some(doc.paths["/api/v1/webhooks"].post.operationId)).toEqual(Option.some("webhooks.create"))
  })
})
