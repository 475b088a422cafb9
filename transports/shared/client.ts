import type { IncomingMessage } from "node:http"
import { peerOf } from "./proxies.ts"

/** A rate limit's answer for one request. */
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

/** A rate limit (transports/http/limits.ts makes them): counts one request of a credential. */
export interface Limiter {
  readonly check: (credential: string) => Promise<Verdict>
  readonly off: boolean
}

/**
 * The client address a limit counts (the peer's, or with TRUST_PROXY the one the proxy names): IPv4 as it is (also when written IPv4-mapped), IPv6 by its /64, which one
 * subscriber usually holds whole: rotating addresses inside it does not give a client more requests or more rows.
 */
export const clientAddress = (req: Pick<IncomingMessage, "socket">) => {
  // The peer, or the client a trusted proxy names (TRUST_PROXY: proxies.ts).
  const raw = peerOf(req)
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
