import type { IncomingMessage } from "node:http"

/**
 * The one request-body reader every surface uses: one limit per surface, past it 413 (on Content-Length at once, or
 * as soon as the stream passes it; the rest is read and dropped so the answer reaches the client, which then closes
 * the connection), a Content-Type the surface does not take 415 before anything is read, bytes that are not UTF-8
 * 400. Each surface words the refusal in its own shape (transports/shared/failure.ts for the JSON ones).
 */
export interface BodyRule {
  /** Bytes; more is 413. */
  readonly limit: number
  /** The Content-Types taken (matched against the whole header, trimmed); any other is 415. None: any type. */
  readonly type?: RegExp | undefined
  /** How to send the body, for the 415's message: "JSON with Content-Type: application/json". */
  readonly expect?: string | undefined
  /** What is being read, for the 413's message ("the body", "the form", "a photo"). */
  readonly what?: string | undefined
}

export interface Refusal {
  readonly status: 400 | 413 | 415
  readonly code: "payload_too_large" | "unsupported_media_type" | "invalid_body" | "invalid_json"
  readonly message: string
}

export type Read<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly refusal: Refusal }

/** An answer given before the request's body was read to its end: the connection is not used again. */
export const CLOSE = { connection: "close" } as const

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** Whether the request carries a body at all (a length above 0, or chunks). */
export const hasBody = (req: IncomingMessage) => {
  const length = req.headers["content-length"]
  return (length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined
}

/** Whether the reader reads the request's body: a body-taking method that sent one (GET and HEAD bodies are not read). */
export const readsBody = (req: IncomingMessage) => BODY_METHODS.has(req.method ?? "") && hasBody(req)

/**
 * The listener's turn for a request whose body it lets arrive first (transports/http/server.ts): the reader calls it
 * once the whole body is in, and hands the body to the surface when it resolves (never, when the listener answered
 * the request itself: too slow, overloaded, shutting down). Without one (a host's server, createEngine) the body is
 * handed over at once.
 */
const turns = new WeakMap<IncomingMessage, () => Promise<void>>()
export const afterBody = (req: IncomingMessage, turn: () => Promise<void>) => void turns.set(req, turn)
const turnOf = (req: IncomingMessage) => {
  const turn = turns.get(req)
  turns.delete(req)
  return turn
}

const sized = (limit: number) => (limit >= 1024 * 1024 ? `${limit / 1024 / 1024} MiB` : `${limit / 1024} KiB`)

export const tooLarge = (rule: BodyRule): Refusal => ({
  status: 413,
  code: "payload_too_large",
  message: `${rule.what ?? "the body"} is larger than ${sized(rule.limit)} (${rule.limit} bytes)`
})

export const wrongType = (rule: BodyRule, type: string): Refusal => ({
  status: 415,
  code: "unsupported_media_type",
  message: `send ${rule.expect ?? "the body"}${type === "" ? "" : ` (not ${type.slice(0, 100)})`}`
})

const drop = (req: IncomingMessage) => {
  req.removeAllListeners("data")
  req.resume()
}

/**
 * The body's bytes (undefined when a body-taking method sent none; GET and HEAD bodies are not read), or the refusal.
 */
export const readBytes = (req: IncomingMessage, rule: BodyRule): Promise<Read<Buffer | undefined>> => {
  if (!readsBody(req)) return Promise.resolve({ ok: true, value: undefined })
  const type = String(req.headers["content-type"] ?? "").trim()
  if (rule.type !== undefined && !rule.type.test(type)) {
    drop(req)
    return Promise.resolve({ ok: false, refusal: wrongType(rule, type) })
  }
  const length = req.headers["content-length"]
  if (length !== undefined && Number(length) > rule.limit) {
    drop(req)
    return Promise.resolve({ ok: false, refusal: tooLarge(rule) })
  }
  return new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    let size = 0
    let done = false
    const finish = (read: Read<Buffer | undefined>) => {
      if (done) return
      done = true
      resolve(read)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= rule.limit) return void chunks.push(chunk)
      chunks.length = 0
      drop(req)
      finish({ ok: false, refusal: tooLarge(rule) })
    }
    req.on("data", onData)
    req.on("end", () => {
      const read: Read<Buffer> = { ok: true, value: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) }
      const turn = turnOf(req)
      if (turn === undefined) finish(read)
      else turn().then(() => finish(read))
    })
    req.on("error", () =>
      finish({ ok: false, refusal: { status: 400, code: "invalid_body", message: "the body could not be read" } })
    )
  })
}

const fatal = new TextDecoder("utf-8", { fatal: true })

/** The body as UTF-8 text (undefined when there is none), or the refusal; bytes that are not UTF-8 are 400. */
export const readText = (req: IncomingMessage, rule: BodyRule, notText = "invalid_body" as Refusal["code"]) =>
  readBytes(req, rule).then((read): Read<string | undefined> => {
    if (!read.ok || read.value === undefined) return read as Read<undefined>
    try {
      return { ok: true, value: fatal.decode(read.value) }
    } catch {
      return {
        ok: false,
        refusal: { status: 400, code: notText, message: `${rule.what ?? "the body"} is not UTF-8` }
      }
    }
  })

/** JSON bodies: application/json, UTF-8 (a charset parameter may say so). */
export const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i
/** Form bodies. */
export const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;.*)?$/i
