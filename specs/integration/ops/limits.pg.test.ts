import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { dropTestDatabase } from "../../support/database.ts"

const name = `be_limits_${randomBytes(4).toString("hex")}`
let one: TestApp
let two: TestApp
beforeAll(async () => {
  one = await startApp({ rateLimit: 60, rateLimitWindowSeconds: 86_400 }, { database: name })
  two = await startApp({ rateLimit: 60, rateLimitWindowSeconds: 86_400 }, { database: name })
})
afterAll(async () => {
  await one?.close()
  await two?.close()
  await dropTestDatabase(name)
})

describe("rate limits across instances", () => {
  it("two instances over one database share a key's limit (within one lease of 3 per instance)", async () => {
    const org = await one.newOrg()
    let ok = 0
    for (let i = 0; i < 80; i++) {
      const app = i % 2 === 0 ? one : two
      if ((await app.call(org.key, "GET", "/api/v1/org")).status === 200) ok++
    }
    expect(ok).toBeGreaterThanOrEqual(60 - 2 * 3)
    expect(ok).toBeLessThanOrEqual(60)
  })
})
