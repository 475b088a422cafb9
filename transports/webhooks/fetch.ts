import { request as httpRequest, type IncomingMessage } from "node:http"
import { request as httpsRequest } from "node:https"
import { Effect, Layer } from "effect"
import { type Fetched, PhotoFetcher } from "../../engine/ports/PhotoFetcher.ts"
import { traced } from "../../engine/tracing.ts"
import { forbiddenCode, guardedLookup } from "./deliver.ts"
import { validateWebhookUrl } from "./safeAddress.ts"

export interface FetchInput {
  readonly url: string
  /** Bytes read at most: a longer body stops the read (too_large). */
  readonly limit: number
  /** Total budget: connect, answer and body. */
  readonly timeoutMs: number
  /** Allows http and loopback/private addresses (WEBHOOK_ALLOW_INSECURE: development and tests only). */
  readonly allowInsecure: boolean
  readonly signal?: AbortSignal
}

/**
 * One GET of a URL a webhook could be sent to, and no other: https (http only when insecure targets are allowed), no
 * credentials, no private, loopback or reserved address, named or resolved (the same guard as deliveries, checked at
 * connect time), no redirect followed, at most `limit` bytes in `timeoutMs`.
 */
export const fetchGuarded = (input: FetchInput): Promise<Fetched> => {
  const checked = validateWebhookUrl(input.url, input.allowInsecure)
  if (!checked.ok) return Promise.resolve({ ok: false, reason: "refused", message: checked.message })
  const url = checked.url
  return new Promise<Fetched>((resolve) => {
    let settled = false
    const finish = (result: Fetched) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      req.destroy()
      resolve(result)
    }
    const unreachable = (message: string) => finish({ ok: false, reason: "unreachable", message })
    const tooLarge = () =>
      finish({ ok: false, reason: "too_large", message: `the url answers more than ${input.limit} bytes` })
    const send = url.protocol === "https:" ? httpsRequest : httpRequest
    const req = send(url, {
      method: "GET",
      agent: false,
      lookup: guardedLookup(input.allowInsecure),
      headers: { accept: "image/jpeg", "user-agent": "booking-engine-photos/1" }
    })
    const timer = setTimeout(
      () => unreachable(`the url gave no whole answer within ${input.timeoutMs / 1000} s`),
      input.timeoutMs
    )
    input.signal?.addEventListener("abort", () => unreachable("aborted"), { once: true })
    req.on("response", (res: IncomingMessage) => {
      const status = res.statusCode ?? 0
      if (status >= 300 && status < 400) return unreachable(`the url answered ${status}: redirects are not followed`)
      if (status < 200 || status >= 300) return unreachable(`the url answered HTTP ${status}`)
      if (Number(res.headers["content-length"] ?? 0) > input.limit) return tooLarge()
      const chunks: Array<Buffer> = []
      let read = 0
      res.on("data", (chunk: Buffer) => {
        read += chunk.length
        if (read > input.limit) return tooLarge()
        chunks.push(chunk)
      })
      res.on("end", () => finish({ ok: true, bytes: new Uint8Array(Buffer.concat(chunks)) }))
      res.on("error", (e) => unreachable(e.message))
    })
    req.on("error", (err: NodeJS.ErrnoException) =>
      err.code === forbiddenCode
        ? finish({
            ok: false,
            reason: "refused",
            message: "the url's host resolves to a private, loopback or reserved address"
          })
        : unreachable(
            err.code === "ENOTFOUND"
              ? "the url's host is not found"
              : `the url does not answer (${err.code ?? err.message})`
          )
    )
    req.end()
  })
}

/** The PhotoFetcher port over fetchGuarded. */
export const PhotoFetcherLive = (config: { readonly allowInsecure: boolean }) =>
  Layer.succeed(PhotoFetcher, {
    get: (url, options) =>
      Effect.promise((signal) => fetchGuarded({ url, ...options, allowInsecure: config.allowInsecure, signal })).pipe(
        traced("PhotoFetcher.get")
      )
  })
