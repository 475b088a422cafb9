import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { dropTestDatabase } from "../../support/database.ts"

// Two instances of the engine over one Postgres database, each with its own API key cache.
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

describe("API keys across instances", () => {
  it("a key revoked on one instance is refused at once there, and on the other as soon as the notice arrives, though it was cached there", async () => {
    const org = await a.newOrg()
    for (let i = 0; i < 3; i++) expect((await b.call(org.key, "GET", "/api/v1/offerings")).status).toBe(200)
    expect((await a.call(org.key, "GET", "/api/v1/offerings")).status).toBe(200)
    expect((await a.admin("DELETE", `/api_keys/${org.keyId}`)).status).toBe(200)
    const onA = await a.call(org.key, "GET", "/api/v1/offerings")
    expect({ status: onA.status, code: onA.body.error?.code }).toEqual({ status: 401, code: "unauthorized" })
    // NOTIFY reaches the other instance's listener asynchronously: well before the 5 s the cache would keep the key.
    const started = Date.now()
    let onB = await b.call(org.key, "GET", "/api/v1/offerings")
    while (onB.status === 200 && Date.now() - started < 2_000) {
      await new Promise((r) => setTimeout(r, 20))
      onB = await b.call(org.key, "GET", "/api/v1/offerings")
    }
    expect({ status: onB.status, code: onB.body.error?.code }).toEqual({ status: 401, code: "unauthorized" })
  })

  it("an org's settings changed on one instance are what the other acts on next", async () => {
    const org = await a.newOrg({ timezone: "Europe/Amsterdam" })
    expect((await b.call(org.key, "GET", "/api/v1/org")).body.timezone).toBe("Europe/Amsterdam")
    expect((await a.call(org.key, "PATCH", "/api/v1/org", { timezone: "America/New_York" })).status).toBe(200)
    const res = await b.call(org.key, "POST", "/api/v1/offerings", { name: "Yoga", kind: "class" })
    expect(res.status).toBe(201)
    expect((await b.call(org.key, "GET", "/api/v1/org")).body.timezone).toBe("America/New_York")
  })
})
