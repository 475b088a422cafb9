import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
}, 180_000)
afterAll(() => app?.close())

describe("the org's API keys (keys.*)", () => {
  it("an owner key lists, makes and revokes keys; the secret is shown once and a revoked key stops at once", async () => {
    const org = await app.newOrg()
    const made = await app.call(org.key, "POST", "/api/v1/api_keys", { name: "booking site" })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({ name: "booking site", role: "owner", user_id: null, revoked_at: null })
    expect(made.body.key).toMatch(/^bk_live_/)
    expect(made.body.prefix).toBe(made.body.key.slice(0, 12))

    const listed = await app.call(org.key, "GET", "/api/v1/api_keys")
    expect(listed.status).toBe(200)
    expect(listed.body.data.map((k: { id: string }) => k.id).sort()).toEqual([org.keyId, made.body.id].sort())
    expect(JSON.stringify(listed.body)).not.toContain(made.body.key)

    expect((await app.call(made.body.key, "GET", "/api/v1/org")).status).toBe(200)
    const revoked = await app.call(org.key, "DELETE", `/api/v1/api_keys/${made.body.id}`)
    expect(revoked.status).toBe(200)
    expect(revoked.body.id).toBe(made.body.id)
    const after = await app.call(made.body.key, "GET", "/api/v1/org")
    expect(after.status).toBe(401)
    expect(after.body.error.code).toBe("unauthorized")
    const again = await app.call(org.key, "GET", "/api/v1/api_keys")
    expect(again.body.data.find((k: { id: string }) => k.id === made.body.id).revoked_at).toBe(revoked.body.revoked_at)
  })

  it("a member's key carries their role: staff may work but not manage keys (403 forbidden)", async () => {
    const org = await app.newOrg()
    const staff = await app.admin("POST", `/orgs/${org.id}/members`, { email: "sam@example.com", role: "staff" })
    expect(staff.status).toBe(201)
    const key = await app.call(org.key, "POST", "/api/v1/api_keys", {
      user_id: staff.body.user_id,
      name: "Sam's laptop"
    })
    expect(key.status).toBe(201)
    expect(key.body).toMatchObject({ role: "staff", user_id: staff.body.user_id })

    expect((await app.call(key.body.key, "GET", "/api/v1/offerings")).status).toBe(200)
    for (const [method, path, body] of [
      ["GET", "/api/v1/api_keys"],
      ["POST", "/api/v1/api_keys", {}],
      ["DELETE", `/api/v1/api_keys/${org.keyId}`]
    ] as const) {
      const refused = await app.call(key.body.key, method, path, body)
      expect(refused.status).toBe(403)
      expect(refused.body.error.code).toBe("forbidden")
    }
    // The owner's key was not revoked by the refused call.
    expect((await app.call(org.key, "GET", "/api/v1/org")).status).toBe(200)
  })

  it("refuses a user_id that is not on the team, and another org's key is not found", async () => {
    const a = await app.newOrg()
    const b = await app.newOrg()
    const stranger = await app.admin("POST", `/orgs/${b.id}/members`, { email: "kim@example.com", role: "owner" })
    const bad = await app.call(a.key, "POST", "/api/v1/api_keys", { user_id: stranger.body.user_id })
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe("not_a_member")
    const notUuid = await app.call(a.key, "POST", "/api/v1/api_keys", { user_id: "sam" })
    expect(notUuid.status).toBe(400)
    const extra = await app.call(a.key, "POST", "/api/v1/api_keys", { role: "owner" })
    expect(extra.status).toBe(400)

    const foreign = await app.call(a.key, "DELETE", `/api/v1/api_keys/${b.keyId}`)
    expect(foreign.status).toBe(404)
    expect(foreign.body.error.code).toBe("not_found")
    expect((await app.call(b.key, "GET", "/api/v1/org")).status).toBe(200)
  })
})

describe("admin API: orgs and keys", () => {
  it("lists orgs in pages, shows one, and changes its plan, which its keys carry at once", async () => {
    const made = [await app.newOrg(), await app.newOrg(), await app.newOrg()]
    const seen: string[] = []
    let after: string | null = null
    do {
      const page: { status: number; body: { data: Array<{ id: string }>; next_after: string | null } } =
        await app.admin("GET", `/orgs?limit=2${after ? `&after=${after}` : ""}`)
      expect(page.status).toBe(200)
      expect(page.body.data.length).toBeLessThanOrEqual(2)
      seen.push(...page.body.data.map((o) => o.id))
      after = page.body.next_after
    } while (after !== null)
    expect(seen).toEqual([...seen].sort())
    for (const org of made) expect(seen).toContain(org.id)

    const target = made[1]
    expect((await app.admin("GET", `/orgs/${target.id}`)).body.plan).toBe("free")
    const changed = await app.admin("PATCH", `/orgs/${target.id}`, { plan: "scale" })
    expect(changed.status).toBe(200)
    expect(changed.body.plan).toBe("scale")
    expect((await app.call(target.key, "GET", "/api/v1/org")).body.plan).toBe("scale")
    await app.advance(3) // events.list shows events once they are 2 s old
    const events = await app.call(target.key, "GET", "/api/v1/events?type=org.updated")
    expect(events.status, JSON.stringify(events.body)).toBe(200)
    expect(events.body.data.map((e: { type: string; data: { plan: string } }) => [e.type, e.data.plan])).toContainEqual(
      ["org.updated", "scale"]
    )

    expect((await app.admin("PATCH", `/orgs/${target.id}`, { plan: "gold" })).status).toBe(400)
    expect((await app.admin("GET", "/orgs/00000000-0000-4000-8000-000000000000")).status).toBe(404)
    expect((await app.admin("GET", "/orgs?limit=0")).status).toBe(400)
  })

  it("lists an org's keys and makes named keys", async () => {
    const org = await app.newOrg()
    const key = await app.admin("POST", `/orgs/${org.id}/api_keys`, { name: "platform" })
    expect(key.status).toBe(201)
    expect(key.body).toMatchObject({ name: "platform", role: "owner" })
    const plain = await app.admin("POST", `/orgs/${org.id}/api_keys`)
    expect(plain.status).toBe(201)
    const keys = await app.admin("GET", `/orgs/${org.id}/api_keys`)
    expect(keys.body.data.map((k: { id: string }) => k.id).sort()).toEqual(
      [org.keyId, key.body.id, plain.body.id].sort()
    )
    expect(keys.body.data.every((k: object) => !("key" in k))).toBe(true)
  })
})
