import { createHash } from "node:crypto"
import { afterAll, describe, expect, it } from "vitest"
import { sql, startApp, type TestApp } from "../../support/app.ts"

// The per-address limit (RATE_LIMIT_ANONYMOUS) over requests whose peer is 127.0.0.1, with and without TRUST_PROXY.
const apps: Array<TestApp> = []
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()))
})

const limited = async (trustProxy?: string) => {
  const app = await startApp({ rateLimitAnonymous: 3, rateLimitWindowSeconds: 86_400, trustProxy })
  apps.push(app)
  // A Bearer string that is no key counts against the client address.
  const hit = async (forwardedFor?: string) =>
    (
      await app.call(
        "bk_live_nokey_000000000000",
        "GET",
        "/api/v1/org",
        undefined,
        forwardedFor ? { "x-forwarded-for": forwardedFor } : {}
      )
    ).status
  const addressKey = (address: string) => `address:${createHash("sha256").update(address).digest("hex").slice(0, 32)}`
  const counted = async (address: string) =>
    (
      await sql(
        app,
        (s) =>
          s<{
            n: number
          }>`select coalesce(sum(count), 0)::int as n from rate_windows where key = ${addressKey(address)}`
      )
    )[0].n
  return { hit, counted }
}

describe("TRUST_PROXY", () => {
  it("unset: X-Forwarded-For is ignored, every request counts against the peer, so nobody names their own address", async () => {
    const { hit, counted } = await limited()
    const statuses = []
    for (let i = 0; i < 5; i++) statuses.push(await hit(`203.0.113.${i}`))
    expect(statuses).toEqual([401, 401, 401, 429, 429])
    expect(await counted("127.0.0.1")).toBeGreaterThanOrEqual(3)
    expect(await counted("203.0.113.0")).toBe(0)
  })

  it("set to the proxy: the client is the rightmost address the proxy did not add; another client has its own count", async () => {
    const { hit, counted } = await limited("10.0.0.0/8, 127.0.0.1")
    // A client that prepends a made-up address is still counted by the address the proxy saw (the rightmost untrusted).
    const one = [await hit("203.0.113.7"), await hit("198.51.100.1, 203.0.113.7"), await hit("203.0.113.7, 10.1.2.3")]
    expect(one).toEqual([401, 401, 401])
    expect(await hit("203.0.113.7")).toBe(429)
    expect(await counted("203.0.113.7")).toBeGreaterThanOrEqual(3)
    expect(await counted("198.51.100.1")).toBe(0)
    expect(await counted("127.0.0.1")).toBe(0)
    // Another client behind the same proxy is not limited by the first.
    expect(await hit("203.0.113.8")).toBe(401)
    // No header from the trusted proxy: its own address.
    expect(await hit()).toBe(401)
    expect(await counted("127.0.0.1")).toBe(1)
  })

  it("from a peer that is not trusted, the header is ignored even when TRUST_PROXY is set", async () => {
    const { hit, counted } = await limited("10.0.0.0/8")
    for (let i = 0; i < 3; i++) expect(await hit(`203.0.113.${i}`)).toBe(401)
    expect(await hit("203.0.113.99")).toBe(429)
    expect(await counted("127.0.0.1")).toBeGreaterThanOrEqual(3)
  })
})
