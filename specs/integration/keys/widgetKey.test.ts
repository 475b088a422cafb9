import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { dropTestDatabase } from "../../support/database.ts"
import { browser, teamOrg } from "../auth/helpers.ts"
import { mcpClient } from "../foundation/fixtures.ts"

// Over a named database, so that a second app can start over the first one's data ("a restart").
const name = `be_wkey_${randomBytes(5).toString("hex")}`
let app: TestApp
beforeAll(async () => {
  app = await startApp({}, { database: name })
})
afterAll(async () => {
  await app?.close()
  await dropTestDatabase(name)
})

type Key = { id: string; kind: string; prefix: string; name: string | null; revoked_at: string | null }

const widgetKey = async (key: string) => {
  const r = await app.call(key, "POST", "/api/v1/widget_key")
  expect(r.status).toBe(200)
  return r.body as { id: string; key: string; prefix: string; created_at: string }
}
const publishable = async (key: string) =>
  ((await app.call(key, "GET", "/api/v1/api_keys")).body.data as Array<Key>).filter((k) => k.kind === "publishable")
/** The key the engine's booking page for an offering carries. */
const bookPageKey = async (offeringId: string) =>
  /data-key="(pk_live_[A-Za-z0-9_-]+)"/.exec(
    await (await fetch(`${app.url}/book?offering_id=${offeringId}`)).text()
  )?.[1]

describe("the org's widget key (keys.widget_key)", () => {
  it("is made on the first call and is the same key on every later one, the booking page's too", async () => {
    const org = await app.newOrg()
    const first = await widgetKey(org.key)
    expect(first.key).toMatch(/^pk_live_/)
    expect(first.prefix).toBe(first.key.slice(0, 12))
    expect(Number.isNaN(Date.parse(first.created_at))).toBe(false)
    expect(await widgetKey(org.key)).toEqual(first)
    const keys = await publishable(org.key)
    expect(keys.map((k) => [k.id, k.prefix, k.name, k.revoked_at])).toEqual([[first.id, first.prefix, "widget", null]])
    // It is a working publishable key: the public surface answers with it, the rest of the API does not.
    expect((await app.call(first.key, "GET", "/api/v1/public/org")).status).toBe(200)
    expect((await app.call(first.key, "GET", "/api/v1/offerings")).status).toBe(401)
    // The engine's own booking page uses the same key, and makes none of its own.
    const made = await app.call(org.key, "POST", "/api/v1/offerings", { kind: "class", name: "Yoga" })
    expect(made.status).toBe(201)
    expect(await bookPageKey(made.body.id)).toBe(first.key)
    expect(await publishable(org.key)).toHaveLength(1)
  })

  it("the booking page's key, made first, is the one the operation answers; the MCP tool answers it too", async () => {
    const org = await app.newOrg()
    const made = await app.call(org.key, "POST", "/api/v1/offerings", { kind: "class", name: "Pilates" })
    const fromPage = await bookPageKey(made.body.id)
    expect(fromPage).toMatch(/^pk_live_/)
    expect((await widgetKey(org.key)).key).toBe(fromPage)
    const mcp = await mcpClient(app, org.key)
    try {
      const tools = (await mcp.client.listTools()).tools
      expect(tools.find((t) => t.name === "keys_widget_key")?.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: false
      })
      const viaMcp = await mcp.call("keys_widget_key")
      expect([viaMcp.isError, viaMcp.json.key]).toEqual([false, fromPage])
    } finally {
      await mcp.close()
    }
    expect(await publishable(org.key)).toHaveLength(1)
  })

  it("calls at once on an org with no key yet all get the same key, and only one is made", async () => {
    const org = await app.newOrg()
    const answers = await Promise.all(Array.from({ length: 8 }, () => app.call(org.key, "POST", "/api/v1/widget_key")))
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200))
    expect(new Set(answers.map((a) => a.body.key)).size).toBe(1)
    expect((await publishable(org.key)).map((k) => k.id)).toEqual([answers[0].body.id])
  })

  it("a new key once it is revoked (DELETE /api_keys/{id}); the booking page moves to it", async () => {
    const org = await app.newOrg()
    const first = await widgetKey(org.key)
    expect((await app.call(org.key, "DELETE", `/api/v1/api_keys/${first.id}`)).status).toBe(200)
    expect((await app.call(first.key, "GET", "/api/v1/public/org")).status).toBe(401)
    const second = await widgetKey(org.key)
    expect(second.key).not.toBe(first.key)
    expect(second.id).not.toBe(first.id)
    expect(await widgetKey(org.key)).toEqual(second)
    expect((await app.call(second.key, "GET", "/api/v1/public/org")).status).toBe(200)
    const made = await app.call(org.key, "POST", "/api/v1/offerings", { kind: "class", name: "Spin" })
    expect(await bookPageKey(made.body.id)).toBe(second.key)
    // Keys made in the same instant of the test clock are listed in no order of making: compared by id.
    const live = Object.fromEntries((await publishable(org.key)).map((k) => [k.id, k.revoked_at === null]))
    expect(live).toEqual({ [first.id]: false, [second.id]: true })
  })

  it("is for owners: a staff key and a staff session are refused 403, a publishable key 401 as everywhere", async () => {
    const org = await teamOrg(app, "wkey")
    const team = (await app.call(org.key, "GET", "/api/v1/team")).body.data as Array<{ user_id: string; email: string }>
    const staffId = team.find((m) => m.email === org.staff)!.user_id
    const staffKey = (await app.call(org.key, "POST", "/api/v1/api_keys", { user_id: staffId })).body.key as string
    const byKey = await app.call(staffKey, "POST", "/api/v1/widget_key")
    expect([byKey.status, byKey.body.error.code]).toEqual([403, "forbidden"])
    const staff = browser(app)
    await staff.signIn(org.staff)
    const bySession = await staff.api("POST", "/widget_key")
    expect([bySession.status, bySession.body.error.code]).toEqual([403, "forbidden"])
    expect(await publishable(org.key)).toEqual([])

    const pk = (await app.call(org.key, "POST", "/api/v1/api_keys", { kind: "publishable" })).body.key as string
    const byPublishable = await app.call(pk, "POST", "/api/v1/widget_key")
    expect([byPublishable.status, byPublishable.body.error.code]).toEqual([401, "unauthorized"])
    // An owner's session gets the org's widget key, not the publishable key made by hand.
    const owner = browser(app)
    await owner.signIn(org.owner)
    const bySessionOfOwner = await owner.api("POST", "/widget_key")
    expect(bySessionOfOwner.status).toBe(200)
    expect(bySessionOfOwner.body.key).not.toBe(pk)
    expect((await widgetKey(org.key)).key).toBe(bySessionOfOwner.body.key)
  })

  it("each org has its own key", async () => {
    const a = await app.newOrg()
    const b = await app.newOrg()
    const [ka, kb] = [await widgetKey(a.key), await widgetKey(b.key)]
    expect(ka.key).not.toBe(kb.key)
    expect((await publishable(a.key)).map((k) => k.id)).toEqual([ka.id])
    expect((await publishable(b.key)).map((k) => k.id)).toEqual([kb.id])
    const orgOf = async (pk: string) => (await app.call(pk, "GET", "/api/v1/public/org")).body.name
    expect(await orgOf(ka.key)).not.toBe(await orgOf(kb.key))
  })

  it("is the same key after a restart: a new app over the same database", async () => {
    const org = await app.newOrg()
    const before = await widgetKey(org.key)
    await app.close()
    app = await startApp({}, { database: name })
    expect(await widgetKey(org.key)).toEqual(before)
    expect(await publishable(org.key)).toHaveLength(1)
  })
})
