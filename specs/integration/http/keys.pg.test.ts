import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Signals } from "../../../engine/ports/Signals.ts"
import { startApp, type TestApp } from "../../support/app.ts"
import { dropTestDatabase } from "../../support/database.ts"

// Two instances of the engine over one Postgres database, each with its own memory of API keys and of offerings read,
// kept right by the notices the changes' transactions send (engine/store/rules/keys.sql, offerings_changed.sql).
const name = `be_keys_${randomBytes(5).toString("hex")}`
let a: TestApp
let b: TestApp
beforeAll(async () => {
  a = await startApp({}, { database: name })
  b = await startApp({}, { database: name })
})
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()])
  await dropTestDatabase(name)
})

/** Once this returns true, the instance has heard every notice committed before the call (no clock involved). */
const heard = (app: TestApp) => app.runtime.runPromise(Effect.flatMap(Signals, (s) => s.sync))
const status = async (app: TestApp, key: string, method: string, path: string, body?: unknown) => {
  const r = await app.call(key, method, `/api/v1${path}`, body)
  return r.status < 300 ? r.status : `${r.status} ${r.body?.error?.code}`
}

describe("API keys across instances", () => {
  it("a key revoked on one instance is refused at once there, and on the other once it has heard the commit, though it was cached there", async () => {
    const org = await a.newOrg()
    for (let i = 0; i < 3; i++) expect(await status(b, org.key, "GET", "/offerings")).toBe(200)
    expect(await status(a, org.key, "GET", "/offerings")).toBe(200)
    expect((await a.admin("DELETE", `/api_keys/${org.keyId}`)).status).toBe(200)
    expect(await status(a, org.key, "GET", "/offerings")).toBe("401 unauthorized")
    // The revocation's transaction sent the notice (rules/keys.sql): b has it once it has heard what committed before.
    expect(await heard(b)).toBe(true)
    expect(await status(b, org.key, "GET", "/offerings")).toBe("401 unauthorized")
  })

  it("a member's role changed or membership ended on one instance is what the other acts on next", async () => {
    const org = await a.newOrg()
    const member = await a.admin("POST", `/orgs/${org.id}/members`, { email: "olga@example.com", role: "owner" })
    // The team keeps an owner when Olga is made staff.
    expect((await a.admin("POST", `/orgs/${org.id}/members`, { email: "pia@example.com", role: "owner" })).status).toBe(
      201
    )
    const key = (await a.call(org.key, "POST", "/api/v1/api_keys", { user_id: member.body.user_id })).body.key
    expect(await status(b, key, "GET", "/api_keys")).toBe(200)
    expect(await status(a, org.key, "PATCH", `/team/${member.body.user_id}`, { role: "staff" })).toBe(200)
    expect(await heard(b)).toBe(true)
    expect(await status(b, key, "GET", "/api_keys")).toBe("403 forbidden")
    expect(await status(b, key, "GET", "/offerings")).toBe(200)
    expect(await status(a, org.key, "DELETE", `/team/${member.body.user_id}`)).toBe(200)
    expect(await heard(b)).toBe(true)
    expect(await status(b, key, "GET", "/offerings")).toBe("401 unauthorized")
  })

  it("an org's settings changed on one instance are what the other acts on next", async () => {
    const org = await a.newOrg({ timezone: "Europe/Amsterdam" })
    expect((await b.call(org.key, "GET", "/api/v1/org")).body.timezone).toBe("Europe/Amsterdam")
    expect((await a.call(org.key, "PATCH", "/api/v1/org", { timezone: "America/New_York" })).status).toBe(200)
    expect(await heard(b)).toBe(true)
    const res = await b.call(org.key, "POST", "/api/v1/offerings", { name: "Yoga", kind: "class" })
    expect(res.status).toBe(201)
    expect((await b.call(org.key, "GET", "/api/v1/org")).body.timezone).toBe("America/New_York")
  })
})

describe("GET /offerings/{id} across instances", () => {
  it("an offering changed, paused or deleted on one instance is what the other answers once it has heard the commit", async () => {
    const org = await a.newOrg()
    const { id } = (await a.call(org.key, "POST", "/api/v1/offerings", { name: "Yoga", kind: "class" })).body
    const onB = () => b.call(org.key, "GET", `/api/v1/offerings/${id}`)
    for (let i = 0; i < 2; i++) expect((await onB()).body.name).toBe("Yoga")
    expect(await status(a, org.key, "PATCH", `/offerings/${id}`, { name: "Pilates", active: false })).toBe(200)
    expect(await heard(b)).toBe(true)
    expect((await onB()).body).toMatchObject({ name: "Pilates", active: false })
    expect(await status(a, org.key, "DELETE", `/offerings/${id}`)).toBe(200)
    expect(await heard(b)).toBe(true)
    expect(await status(b, org.key, "GET", `/offerings/${id}`)).toBe("404 not_found")
  })
})
