import { hash } from "node:crypto"
import type { SqlClient } from "@effect/sql"
import { Context, Runtime } from "effect"
import { leaseWindow, pruneWindows } from "../../engine/store/rateWindows.ts"
import type { Limiter, Verdict } from "../shared/client.ts"
import { RETRY_AFTER_SECONDS } from "../shared/unavailable.ts"

export interface LimitPolicy {
  /** Requests per window; 0 turns the limit off. */
  readonly limit: number
  readonly windowSeconds: number
}

interface Local {
  window: number
  granted: number
  used: number
  /** The window's count in Postgres after this instance's last lease. */
  seen: number
  /** The lease being taken now: requests that find the share used wait for it rather than each taking one. */
  leasing?: Promise<void> | undefined
}

/**
 * Fixed-window rate limits that hold across instances: each window's count lives in Postgres (rate_windows), and an
 * instance leases a share of it (a twentieth of the limit) at a time, one lease in flight per credential, so one
 * request in about twenty makes a round trip and the total can pass the limit by at most one lease per instance.
 * Once the count an instance read has reached the limit, the window is spent for every instance: its refusals until
 * the window ends are decided here, with no write. Answers carry the IETF RateLimit-Policy and RateLimit headers (draft-ietf-httpapi-ratelimit-headers); a
 * refusal also Retry-After.
 */
export const makeLimiter = (
  sql: SqlClient.SqlClient,
  runtime: Runtime.Runtime<never>,
  name: string,
  policy: LimitPolicy
): Limiter => {
  const run = Runtime.runPromise(runtime)
  return limiterOver(
    {
      lease: (key, windowStart, n) => run(leaseWindow(sql, key, windowStart, n)),
      prune: (before) => run(pruneWindows(sql, before))
    },
    name,
    policy
  )
}

/** Where the windows' counts live: rate_windows in Postgres (makeLimiter), or what a test gives. */
export interface WindowStore {
  /** Adds `n` to the window's count; answers the count after. */
  readonly lease: (key: string, windowStart: Date, n: number) => Promise<number>
  readonly prune: (before: Date) => Promise<unknown>
}

export const limiterOver = (store: WindowStore, name: string, policy: LimitPolicy): Limiter => {
  const local = new Map<string, Local>()
  const lease = Math.max(1, Math.ceil(policy.limit / 20))
  const policyHeader = `"${name}";q=${policy.limit};w=${policy.windowSeconds}`

  const headersFor = (l: Local, windowEnd: number, now: number) => ({
    "ratelimit-policy": policyHeader,
    ratelimit: `"${name}";r=${Math.max(0, policy.limit - (l.seen - l.granted + l.used))};t=${Math.max(0, Math.ceil((windowEnd - now) / 1000))}`
  })

  const take = async (key: string, l: Local, windowStart: Date) => {
    const count = await store.lease(key, windowStart, lease)
    const before = count - lease
    const share = Math.max(0, Math.min(lease, policy.limit - before))
    l.granted += share
    l.seen = count
    if (Math.random() < 0.01) store.prune(new Date(windowStart.getTime() - 3_600_000)).catch(() => undefined)
  }

  /** Counts one request of a credential (hashed before it is stored). */
  const check = async (credential: string): Promise<Verdict> => {
    const now = Date.now()
    const windowMs = policy.windowSeconds * 1000
    const window = Math.floor(now / windowMs)
    const windowEnd = (window + 1) * windowMs
    const key = `${name}:${hash("sha256", credential, "hex").slice(0, 32)}`
    let l = local.get(key)
    if (l === undefined || l.window !== window) {
      if (local.size > 50_000) local.clear()
      l = { window, granted: 0, used: 0, seen: 0 }
      local.set(key, l)
    }
    // One lease at a time per credential: were every request that found the share used to take its own, a burst of n
    // at once would add n leases to the shared count, spending the window for every instance long before its limit.
    while (l.used >= l.granted && l.seen < policy.limit) {
      const current = l
      current.leasing ??= take(key, current, new Date(window * windowMs)).finally(() => {
        current.leasing = undefined
      })
      try {
        await current.leasing
      } catch {
        // The database is unreachable: the request would wait for it a second time and fail there too.
        return { ok: false, unavailable: true, retryAfter: RETRY_AFTER_SECONDS, headers: {} }
      }
    }
    if (l.used >= l.granted) {
      const retryAfter = Math.max(1, Math.ceil((windowEnd - now) / 1000))
      return { ok: false, retryAfter, headers: { ...headersFor(l, windowEnd, now), "retry-after": String(retryAfter) } }
    }
    l.used++
    return { ok: true, headers: headersFor(l, windowEnd, now) }
  }

  return { check, off: policy.limit === 0 }
}

/** RATE_LIMIT (per API key) and RATE_LIMIT_ANONYMOUS (per client address without one), requests per minute; 0 is off. */
export class RateLimits extends Context.Reference<RateLimits>()("RateLimits", {
  defaultValue: (): { readonly perKey: number; readonly perAddress: number; readonly windowSeconds?: number } => ({
    perKey: 1200,
    perAddress: 300
  })
}) {}

/** Routes no limit applies to: probes, metrics, the widget script (cached by browsers), and the payment processor's signed events. */
export const unlimited = (url: string) =>
  url === "/healthz" || url === "/readyz" || url === "/metrics" || url === "/widget.js" || url.startsWith("/payments/")
