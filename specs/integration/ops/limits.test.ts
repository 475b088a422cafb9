import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp({ rateLimit: 40, rateLimitAnonymous: 10, rateLimitWindowSeconds: 86_400 })
})
afterAll(() => app.close())

describe("rate limits", () => {
  it("per API key: the IETF RateLimit headers count down, then 429 rate_limited with Retry-After; another key has its own", async () => {
    const org = await app.newOrg()
    const answers = []
    for (let i = 0; i < 45; i++) answers.push(await app.call(org.key, "GET", "/api/v1/org"))
    const ok = answers.filter((a) => a.status === 200)
    const refused = answers.filter((a) => a.status === 429)
    expect(ok.length).toBe(40)
    expect(refused.length).toBe(5)
    expect(ok[0].headers.get("ratelimit-policy")).toBe('"key";q=40;w=86400')
    const remaining = ok.map((a) => Number(/r=(\d+)/.exec(a.headers.get("ratelimit")!)![1]))
    expect(remaining[0]).toBe(39)
    expect(remaining.at(-1)).toBe(0)
    expect(refused[0].body.error.code).toBe("rate_limited")
    const retry = Number(refused[0].headers.get("retry-after"))
    expect(retry).toBeGreaterThanOrEqual(1)
    expect(retry).toBeLessThanOrEqual(86_400)
    expect(refused[0].headers.get("ratelimit")).toMatch(/^"key";r=0;t=\d+$/)

    const other = await app.newOrg()
    expect((await app.call(other.key, "GET", "/api/v1/org")).status).toBe(200)
    // The admin API and the probes are not limited.
    expect((await app.admin("GET", "/clock")).status).toBe(200)
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200)
  })

  it("per client address on keyless routes (a waiver link, an invite), so a token cannot be guessed at speed", async () => {
    const statuses = []
    for (let i = 0; i < 12; i++) statuses.push((await app.call(null, "GET", "/api/v1/waivers/AAAAAAAAAAAAAAAAAAAAAAAA")).status)
    expect(statuses.slice(0, 10).every((s) => s === 404)).toBe(true)
    expect(statuses.slice(10)).toEqual([429, 429])
  })
})
