import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { usingPostgres } from "../../support/database.ts"
import { allEvents, chars, expectError, offerings } from "./fixtures.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

const key = (k: string) => ({ "idempotency-key": k })
const body = { name: "Sunset kayak", kind: "rental", price_cents: 4500 }

describe("Idempotency-Key on POST", () => {
  it("replays the first response for the same key and body, creating nothing more", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const first = await api.post(body, key("create-1"))
    expect(first.status).toBe(201)
    expect(first.headers.get("idempotent-replayed")).toBeNull()
    await app.advance(60)
    const again = await api.post(body, key("create-1"))
    expect(again.status).toBe(201)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.headers.get("content-type")).toMatch(/^application\/json/)
    expect(again.body).toEqual(first.body)
    expect((await api.list()).body.data).toEqual([first.body])
    expect((await allEvents(app, org.key, "offering.created")).map((e) => e.data.id)).toEqual([first.body.id])
  })

  it("replays the first response even after the offering changed", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const first = await api.post(body, key("k"))
    await api.patch(first.body.id, { name: "Renamed" })
    const again = await api.post(body, key("k"))
    expect(again.body).toEqual(first.body)
    expect((await api.list()).body.data).toHaveLength(1)
  })

  it("refuses the same key with another body: 422 idempotency_key_reused, nothing created", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const first = await api.post(body, key("reused"))
    expectError(await api.post({ ...body, price_cents: 4600 }, key("reused")), 422, "idempotency_key_reused")
    expectError(await api.post({ ...body, name: "Other" }, key("reused")), 422, "idempotency_key_reused")
    expect((await api.list()).body.data).toEqual([first.body])
    expect(await allEvents(app, org.key, "offering.created")).toHaveLength(1)
  })

  it("keeps keys per org: org B can use A's key for its own request", async () => {
    const a = await app.newOrg()
    const b = await app.newOrg()
    const mine = await offerings(app, a.key).post(body, key("shared"))
    const theirs = await offerings(app, b.key).post(body, key("shared"))
    expect(theirs.status).toBe(201)
    expect(theirs.headers.get("idempotent-replayed")).toBeNull()
    expect(theirs.body.org_id).toBe(b.id)
    expect(theirs.body.id).not.toBe(mine.body.id)
    const otherBody = await offerings(app, b.key).post({ ...body, name: "B only" }, key("shared-2"))
    expect(otherBody.status).toBe(201)
    expect((await offerings(app, a.key).list()).body.data).toEqual([mine.body])
  })

  it("creates one offering per request without a key, and per distinct key", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    await api.post(body)
    await api.post(body)
    await api.post(body, key("one"))
    await api.post(body, key("two"))
    expect((await api.list()).body.data).toHaveLength(4)
  })

  it("does not keep a refused request: the key can be retried with a corrected body", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    expectError(await api.post({ ...body, capacity: 0 }, key("retry")), 400, "invalid_capacity")
    expectError(await api.post({ ...body, course: true }, key("retry")), 409, "not_a_class")
    const fixed = await api.post(body, key("retry"))
    expect(fixed.status).toBe(201)
    expect(fixed.headers.get("idempotent-replayed")).toBeNull()
    expect((await api.post(body, key("retry"))).headers.get("idempotent-replayed")).toBe("true")
  })

  it("accepts keys of 1 to 255 characters and refuses others with 400 invalid_idempotency_key", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    expect((await api.post(body, key("x"))).status).toBe(201)
    expect((await api.post(body, key(chars(255)))).status).toBe(201)
    expectError(await api.post(body, key(chars(256))), 400, "invalid_idempotency_key")
    expectError(await api.post(body, key("")), 400, "invalid_idempotency_key")
    expect((await api.list()).body.data).toHaveLength(2)
  })

  it("keeps a key for at least 24 hours and forgets it after 48", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const first = await api.post(body, key("aging"))
    await app.advance(25 * 3600)
    const replay = await api.post(body, key("aging"))
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(replay.body).toEqual(first.body)
    await app.advance(24 * 3600)
    const later = await api.post(body, key("aging"))
    expect(later.status).toBe(201)
    expect(later.headers.get("idempotent-replayed")).toBeNull()
    expect(later.body.id).not.toBe(first.body.id)
  })

  it("lets parallel requests with one key create exactly one offering", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const N = 12
    const replies = await Promise.all(Array.from({ length: N }, () => api.post(body, key("parallel"))))
    const created = replies.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null)
    const replayed = replies.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === "true")
    const busy = replies.filter((r) => r.status === 409)
    expect(created).toHaveLength(1)
    expect(created.length + replayed.length + busy.length).toBe(N)
    for (const r of replayed) expect(r.body).toEqual(created[0].body)
    for (const r of busy) expect(r.body.error.code).toBe("idempotency_in_progress")
    // On PGlite (one connection) the others wait their turn and replay; only real Postgres runs them side by side.
    if (!usingPostgres()) expect(busy).toHaveLength(0)
    expect((await api.list()).body.data).toEqual([created[0].body])
    expect(await allEvents(app, org.key, "offering.created")).toHaveLength(1)
    const after = await api.post(body, key("parallel"))
    expect(after.headers.get("idempotent-replayed")).toBe("true")
    expect(after.body).toEqual(created[0].body)
  })

  it("lets parallel requests with distinct keys each create one", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => api.post(body, key(`k-${i}`))))
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(201))
    expect((await api.list()).body.data).toHaveLength(8)
  })
})
