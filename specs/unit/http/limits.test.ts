import { describe, expect, it } from "vitest"
import { limiterOver, type WindowStore } from "../../../transports/http/limits.ts"

/** The shared counts in memory, each lease answered only when the test lets it (as a round trip to Postgres). */
const slowStore = () => {
  const counts = new Map<string, number>()
  const waiting: Array<() => void> = []
  const store: WindowStore = {
    lease: (key, windowStart, n) =>
      new Promise((resolve) => {
        const id = `${key} ${windowStart.getTime()}`
        const count = (counts.get(id) ?? 0) + n
        counts.set(id, count)
        waiting.push(() => resolve(count))
      }),
    prune: async () => undefined
  }
  const settle = async () => {
    while (waiting.length > 0) {
      for (const answer of waiting.splice(0)) answer()
      await new Promise((r) => setImmediate(r))
    }
  }
  return { store, total: () => [...counts.values()].reduce((a, b) => a + b, 0), leases: () => waiting.length, settle }
}

describe("rate limits: leases of the shared window", () => {
  it("a burst of one credential at once takes one lease at a time: the shared count grows by what is used", async () => {
    const { store, total, settle } = slowStore()
    // 100 a window: leases of 5.
    const limiter = limiterOver(store, "key", { limit: 100, windowSeconds: 86_400 })
    const burst = Array.from({ length: 40 }, () => limiter.check("sk_test"))
    await settle()
    const verdicts = await Promise.all(burst)
    expect(verdicts.every((v) => v.ok)).toBe(true)
    expect(total()).toBe(40)
    // The rest of the window is still there for this instance or another: 60 more pass, then refusals.
    let ok = 0
    for (let i = 0; i < 70; i++) {
      const v = limiter.check("sk_test")
      await settle()
      if ((await v).ok) ok++
    }
    expect(ok).toBe(60)
  })

  it("two instances over one store: a burst at one leaves the other the rest of the window", async () => {
    const { store, settle } = slowStore()
    const one = limiterOver(store, "key", { limit: 60, windowSeconds: 86_400 })
    const two = limiterOver(store, "key", { limit: 60, windowSeconds: 86_400 })
    const burst = Array.from({ length: 30 }, () => one.check("sk_test"))
    await settle()
    expect((await Promise.all(burst)).every((v) => v.ok)).toBe(true)
    let ok = 0
    for (let i = 0; i < 40; i++) {
      const v = two.check("sk_test")
      await settle()
      if ((await v).ok) ok++
    }
    expect(ok).toBe(30)
  })

  it("only one lease is in flight per credential while a burst waits", async () => {
    const { store, leases, settle } = slowStore()
    const limiter = limiterOver(store, "key", { limit: 1000, windowSeconds: 86_400 })
    const burst = [...Array.from({ length: 25 }, () => limiter.check("a")), limiter.check("b")]
    await new Promise((r) => setImmediate(r))
    expect(leases()).toBe(2)
    await settle()
    expect((await Promise.all(burst)).every((v) => v.ok)).toBe(true)
  })
})
