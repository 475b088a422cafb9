import { lookup as dnsLookup, type LookupAddress } from "node:dns"
import { type Agent, request as httpRequest, type IncomingMessage } from "node:http"
import { request as httpsRequest } from "node:https"
import { isIP, type LookupFunction } from "node:net"
import { performance } from "node:perf_hooks"
import { isForbiddenAddress } from "./safeAddress.ts"

export interface DeliverInput {
  readonly url: string
  readonly body: string
  readonly headers?: Readonly<Record<string, string>>
  /** Total budget: connect, answer and body. */
  readonly timeoutMs?: number
  /** Allows http and loopback/private addresses (development and tests only). */
  readonly allowInsecure: boolean
  /**
   * A keep-alive agent (http.Agent or https.Agent matching the URL) to reuse connections; every new connection
   * still goes through the guarded lookup. Default: a fresh connection each time.
   */
  readonly agent?: Agent
  /** Aborting gives up at once (error "aborted"), without another try. */
  readonly signal?: AbortSignal
}

/** status is null when no answer came; error is null only for a 2xx. */
export interface DeliveryResult {
  readonly status: number | null
  readonly durationMs: number
  readonly error: string | null
}

const maxBodyBytes = 64 * 1024

const stale = Symbol("stale connection")
const staleCodes = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"])

/** A kept-alive connection the server closed meanwhile fails at once: that one is tried again on a new connection. */
export const deliver = async (input: DeliverInput): Promise<DeliveryResult> => {
  const first = await attempt(input)
  if (first !== stale) return first
  if (input.signal?.aborted) return { status: null, durationMs: 0, error: "aborted" }
  const second = await attempt({ ...input, agent: undefined })
  return second === stale ? { status: null, durationMs: 0, error: "ECONNRESET" } : second
}

const attempt = (input: DeliverInput): Promise<DeliveryResult | typeof stale> => {
  const started = performance.now()
  const result = (status: number | null, error: string | null): DeliveryResult => ({
    status,
    durationMs: Math.round(performance.now() - started),
    error
  })
  const refused = preflight(input)
  if (refused !== null) return Promise.resolve(result(null, refused))
  const url = new URL(input.url)

  return new Promise<DeliveryResult | typeof stale>((resolve) => {
    let status: number | null = null
    let settled = false
    const finish = (error: string | null, reusable = false) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (!reusable) req.destroy() // a fully read answer leaves the connection to the agent
      resolve(result(status, status === null ? (error ?? "no answer") : (error ?? statusError(status))))
    }
    const send = url.protocol === "https:" ? httpsRequest : httpRequest
    const req = send(url, {
      method: "POST",
      agent: input.agent ?? false, // each new connection goes through guardedLookup
      lookup: guardedLookup(input.allowInsecure),
      headers: {
        ...input.headers,
        "Content-Type": "application/json",
        "Content-Length": String(Buffer.byteLength(input.body)),
        "User-Agent": "booking-engine-webhooks/1"
      }
    })
    const timer = setTimeout(() => finish(status === null ? "timeout" : null), input.timeoutMs ?? 5000)
    if (input.signal?.aborted) finish("aborted")
    input.signal?.addEventListener("abort", () => finish("aborted"), { once: true })
    req.on("response", (res: IncomingMessage) => {
      status = res.statusCode ?? null
      let read = 0
      res.on("data", (chunk: Buffer) => {
        read += chunk.length
        if (read > maxBodyBytes) finish(null)
      })
      res.on("end", () => finish(null, true))
      res.on("error", () => finish(null))
    })
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (!settled && status === null && req.reusedSocket && staleCodes.has(err.code ?? "")) {
        settled = true
        clearTimeout(timer)
        return resolve(stale)
      }
      finish(err.code === forbiddenCode ? forbiddenMessage : (err.code ?? err.message))
    })
    req.end(input.body)
  }).catch((err: unknown) => result(null, err instanceof Error ? err.message : String(err)))
}

/** The error code of a connection refused because its host resolves to a forbidden address. */
export const forbiddenCode = "EFORBIDDENADDRESS"
const forbiddenMessage = "forbidden address"

const statusError = (status: number): string | null =>
  status >= 200 && status < 300
    ? null
    : status >= 300 && status < 400
      ? `redirect not followed (${status})`
      : `HTTP ${status}`

/** Checks that need no network: scheme, credentials, literal addresses (lookup is skipped for those). */
const preflight = (input: DeliverInput): string | null => {
  let url: URL
  try {
    url = new URL(input.url)
  } catch {
    return "invalid url"
  }
  if (url.protocol !== "https:" && !(input.allowInsecure && url.protocol === "http:")) return "url must use https"
  if (url.username !== "" || url.password !== "") return "url must not carry credentials"
  const host = url.hostname.replace(/^\[|\]$/g, "")
  if (!input.allowInsecure && isIP(host) !== 0 && isForbiddenAddress(host)) return forbiddenMessage
  return null
}

/** dns.lookup, then refuse the connection if any resolved address is forbidden (checked at connect time). */
export const guardedLookup =
  (allowInsecure: boolean): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: Array<LookupAddress>) => {
      if (err) return callback(err, options.all ? [] : "", undefined)
      const bad = allowInsecure ? undefined : addresses.find((a) => isForbiddenAddress(a.address))
      if (bad || addresses.length === 0) {
        const refusal: NodeJS.ErrnoException = new Error(`${hostname} resolves to a forbidden address`)
        refusal.code = bad ? forbiddenCode : "ENOTFOUND"
        return callback(refusal, options.all ? [] : "", undefined)
      }
      if (options.all) return callback(null, addresses)
      callback(null, addresses[0].address, addresses[0].family)
    })
  }
