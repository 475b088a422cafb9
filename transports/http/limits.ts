import { createHash } from "node:crypto"
import type { IncomingMessage } from "node:http"
import type { SqlClient } from "@effect/sql"
import { Context, Effect, Runtime } from "effect"
import { RETRY_AFTER_SECONDS } from "./unavailable.ts"

export interface LimitPolicy {
  /** Requests per window; 0 turns the limit off. */
  readonly limit: number
  readonly windowSeconds: number
}

export type Verdict =
  | { readonly ok: true; readonly headers: Record<string, string> }
  | { readonly ok: false; readonly headers: Record<string, string>; readonly retryAfter: number }
  /** The count could not be read: the database is unreachable, and the request would fail there too (503). */
  | {
      readonly ok: false
      readonly unavailable: true
      readonly headers: Record<string, string>
      readonly retryAfter: number
    }

interface Local {
  window: number
  granted: number
  used: number
  /** The window's count in Postgres after this instance's last lease. */
  seen: number
}

/**
 * Fixed-window rate limits that hold across instances: each window's count lives in Postgres (rate_windows), and an
 * instance leases a share of it (a twentieth of the limit) at a time, so one request in about twenty makes a round
 * trip and the total can pass the limit by at most one lease per instance. Once the count an instance read has reached
 * the limit, the window is spent for every instance: its refusals until the window ends are decided here, with no
 * write. Answers carry the IETF RateLimit-Policy and RateLimit headers (draft-ietf-httpapi-ratelimit-headers); a
 * refusal also Retry-After.
 */
export const makeLimiter = (
  sql: SqlClient.SqlClient,
  runtime: Runtime.Runtime<never>,
  name: string,
  policy: LimitPolicy
) => {
  const local = new Map<string, Local>()
  const lease = Math.max(1, Math.ceil(policy.limit / 20))
  const policyHeader = `"${name}";q=${policy.limit};w=${policy.windowSeconds}`
  const run = Runtime.runPromise(runtime)

  const headersFor = (l: Local, windowEnd: number, now: number) => ({
    "ratelimit-policy": policyHeader,
    ratelimit: `"${name}";r=${Math.max(0, policy.limit - (l.seen - l.granted + l.used))};t=${Math.max(0, Math.ceil((windowEnd - now) / 1000))}`
  })

  const take = async (key: string, l: Local, windowStart: Date) => {
    const rows = await run(
      sql<{ count: number }>`
      insert into rate_windows (key, window_start, count) values (${key}, ${windowStart}, ${lease})
      on conflict (key, window_start) do update set count = rate_windows.count + ${lease}
      returning count`.pipe(Effect.orDie)
    )
    const before = rows[0].count - lease
    const share = Math.max(0, Math.min(lease, policy.limit - before))
    l.granted += share
    l.seen = rows[0].count
    if (Math.random() < 0.01) {
      void run(
        sql`delete from rate_windows where window_start < ${new Date(windowStart.getTime() - 3_600_000)}`.pipe(
          Effect.ignore
        )
      )
    }
  }

  /** Counts one request of a credential (hashed before it is stored). */
  const check = async (credential: string): Promise<Verdict> => {
    const now = Date.now()
    const windowMs = policy.windowSeconds * 1000
    const window = Math.floor(now / windowMs)
    const windowEnd = (window + 1) * windowMs
    const key = `${name}:${createHash("sha256").update(credential).digest("hex").slice(0, 32)}`
    let l = local.get(key)
    if (l === undefined || l.window !== window) {
      if (local.size > 50_000) local.clear()
      l = { window, granted: 0, used: 0, seen: 0 }
      local.set(key, l)
    }
    if (l.used >= l.granted && l.seen < policy.limit) {
      try {
        await take(key, l, new Date(window * windowMs))
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
export type Limiter = ReturnType<typeof makeLimiter>

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

/**
 * The client address a limit counts: IPv4 as it is (also when written IPv4-mapped), IPv6 by its /64, which one
 * subscriber usually holds whole: rotating addresses inside it does not give a client more requests or more rows.
 */
export const clientAddress = (req: Pick<IncomingMessage, "socket">) => {
  const raw = req.socket.remoteAddress ?? "unknown"
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(raw)
  if (mapped !== null) return mapped[1]
  if (!raw.includes(":")) return raw
  const [head, tail = ""] = raw.toLowerCase().split("::")
  const left = head === "" ? [] : head.split(":")
  const right = tail === "" ? [] : tail.split(":")
  const groups = raw.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`
}
