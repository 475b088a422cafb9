import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, startApp, type TestApp } from "../../support/app.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp({ rateLimit: 40, rateLimitAnonymous: 10, rateLimitWindowSeconds: 86_400 })
})
afterAll(() => app.close())

// The instance's memory of keys is emptied whenever its listener is reset (it may have missed a revocation), and
// nothing is remembered until the listener is back. Which rate limit a request counts against must not depend on it.
describe("rate limits while the listener is down", () => {
  it("a key resolved lately still counts against its own limit, not against its address's small one", async () => {
    const org = await app.newOrg()
    for (let i = 0; i < 2; i++) expect((await app.call(org.key, "GET", "/api/v1/org")).status).toBe(200)
    // End the listening client (its last statement is a LISTEN, its ping or the sync's NOTIFY); it comes back after a
    // backoff of 125 ms or more.
    const ended = await sql(
      app,
      (s) => s<{ pid: number }>`
        select pg_terminate_backend(pid) as ended, pid from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()
          and (query ilike 'listen %' or query = 'select 1' or query like 'select pg_notify($1, $2)')`
    )
    expect(ended.length).toBe(1)
    // Twenty at once, all arriving before the listener is back: the address's limit (10) would refuse half of them.
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => app.call(org.key, "GET", "/api/v1/org").then((r) => r.status))
    )
    expect(statuses.filter((s) => s !== 200)).toEqual([])
    // And the key's own limit still holds: 40 in all, then 429.
    const more = []
    for (let i = 0; i < 20; i++) more.push((await app.call(org.key, "GET", "/api/v1/org")).status)
    expect(more.filter((s) => s === 200).length).toBe(18)
    expect(more.slice(-2)).toEqual([429, 429])
  })
})
