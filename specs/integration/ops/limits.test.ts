import { createHash } from "node:crypto"
import { afterAll, beforeEach, describe, expect, it } from "vitest"
import { sql, startApp, type TestApp } from "../../support/app.ts"

let app: TestApp
let apps: Array<TestApp> = []
/** Each test on an app of its own: the address's window (which the tests' callers share) starts unspent. */
beforeEach(async () => {
  app = await startApp({ rateLimit: 40, rateLimitAnonymous: 10, rateLimitWindowSeconds: 86_400 })
  apps.push(app)
})
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()))
  apps = []
})

const windowCount = async (prefix: string) =>
  (
    await sql(
      app,
      (s) => s<{ n: number; rows: number }>`
    select coalesce(sum(count), 0)::int as n, count(*)::int as rows from rate_windows where key like ${`${prefix}%`}`
    )
  )[0]
const keyOf = (credential: string) => `key:${createHash("sha256").update(credential).digest("hex").slice(0, 32)}`

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
    // The admin API (with its token) and the probes are not limited.
    expect((await app.admin("GET", "/clock")).status).toBe(200)
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200)

    // Refusals are decided without a write: 100 more refused requests leave the window's count where it was.
    const spent = await windowCount(keyOf(org.key))
    expect(spent.n).toBeLessThanOrEqual(42)
    for (let i = 0; i < 100; i++) expect((await app.call(org.key, "GET", "/api/v1/org")).status).toBe(429)
    expect(await windowCount(keyOf(org.key))).toEqual(spent)
  })

  it("a burst of one key at once takes one lease at a time: the shared count grows with what is used, not with the burst", async () => {
    const org = await app.newOrg()
    // Known to the instance first, so the burst goes straight to the key's limit.
    expect((await app.call(org.key, "GET", "/api/v1/org")).status).toBe(200)
    const burst = await Promise.all(Array.from({ length: 16 }, () => app.call(org.key, "GET", "/api/v1/org")))
    expect(burst.map((r) => r.status)).toEqual(Array(16).fill(200))
    // 17 used, leases of 2: the count may pass what was used by one lease. Were each request that found the share
    // used to lease its own, the count would be 2 per request of the burst (34 and more), and another instance over
    // the same database would find the window (40) spent.
    expect((await windowCount(keyOf(org.key))).n).toBeLessThanOrEqual(17 + 2)
  })

  it("a Bearer string that is no key counts against the client address, and adds no rows", async () => {
    const before = await windowCount("key:")
    const statuses = []
    for (let i = 0; i < 15; i++)
      statuses.push((await app.call(`bk_live_${"x".repeat(20)}${i}`, "GET", "/api/v1/org")).status)
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(5).fill(429)])
    expect(await windowCount("key:")).toEqual(before)
    expect((await windowCount("address:")).rows).toBe(1)
  })

  it("a key counts against its own limit whatever its address spent: junk Bearer strings cannot lock out a new key", async () => {
    // The address's window (10) is spent by strings no key matches, some shaped like keys, some not.
    const junk = Array.from({ length: 12 }, (_, i) => (i % 2 ? `bk_live_${"y".repeat(31)}${i % 10}` : `junk-${i}`))
    const statuses = []
    for (const j of junk) statuses.push((await app.call(j, "GET", "/api/v1/org")).status)
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429])
    // A secret key and a publishable key this instance has never seen, from the same address: each has its own window.
    const org = await app.newOrg()
    const pk = (await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "publishable", name: "site" })).body.key
    for (let i = 0; i < 15; i++) {
      expect((await app.call(org.key, "GET", "/api/v1/org")).status).toBe(200)
      expect((await app.call(pk, "GET", "/api/v1/public/org")).status).toBe(200)
    }
    expect((await windowCount(keyOf(org.key))).n).toBeGreaterThanOrEqual(15)
    // Junk is still refused, and no request without a key gets through either.
    expect((await app.call("junk-again", "GET", "/api/v1/org")).status).toBe(429)
    expect((await app.call(`bk_live_${"z".repeat(32)}`, "GET", "/api/v1/org")).status).toBe(429)
    expect((await app.call(null, "GET", "/api/v1/waivers/AAAAAAAAAAAAAAAAAAAAAAAA")).status).toBe(429)
  })

  it("a wrong admin token counts against the client address (the right one is not limited)", async () => {
    const statuses = []
    for (let i = 0; i < 12; i++)
      statuses.push((await app.call(`wrong-admin-token-${i}-0123456789`, "GET", "/admin/v1/clock")).status)
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429])
    for (let i = 0; i < 20; i++) expect((await app.admin("GET", "/clock")).status).toBe(200)
  })

  it("per client address on keyless routes (a waiver link, an invite), so a token cannot be guessed at speed", async () => {
    const statuses = []
    for (let i = 0; i < 12; i++)
      statuses.push((await app.call(null, "GET", "/api/v1/waivers/AAAAAAAAAAAAAAAAAAAAAAAA")).status)
    expect(statuses.slice(0, 10).every((s) => s === 404)).toBe(true)
    expect(statuses.slice(10)).toEqual([429, 429])
  })
})
