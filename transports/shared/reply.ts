import type { ServerResponse } from "node:http"
import type { Surface } from "../../engine/services/CurrentOrg.ts"

/** A request as the transport read it: the body already read in full (within the limit) as text. */
export interface Incoming {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly body: string | undefined
  /** A binary body, read in full, for an operation whose body may be bytes (offerings.set_photo's JPEG). */
  readonly bytes?: Uint8Array
  readonly surface: Surface
}

/** A whole answer, written at once. */
export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /**
   * A body written as it comes instead (an export): each chunk is asked for once the socket took the last, and a
   * client that goes away stops the asking. An error after the first chunk aborts the response.
   */
  readonly stream?: AsyncIterable<string>
  /** The operation that answered (for metrics), when the request matched one. */
  readonly operation?: string
  /** Its path template (/api/v1/bookings/{id}) and the org it acted for: the request's log line says them. */
  readonly route?: string
  readonly org?: string
}

export type Dispatch = (req: Incoming) => Promise<Reply>

export const JSON_CONTENT = "application/json"

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { "content-type": JSON_CONTENT, ...headers },
  body: JSON.stringify(body)
})

/** The spec's error shape `{"error":{"code","message"}}`, with `param` when a 400 is about one field. */
export const errorReply = (
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
  param?: string
) => json(status, { error: param === undefined ? { code, message } : { code, message, param } }, headers)

/** Writes a Reply (nothing when an answer was already started); `close` ends the connection after it. */
export const send = (res: ServerResponse, reply: Reply, close = false) => {
  if (res.headersSent) return
  if (reply.stream !== undefined) return void pump(res, reply.status, reply.headers, reply.stream)
  res.writeHead(reply.status, {
    ...reply.headers,
    "content-length": Buffer.byteLength(reply.body),
    ...(close ? { connection: "close" } : {})
  })
  res.end(reply.body)
}

const pump = async (
  res: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
  body: AsyncIterable<string>
) => {
  res.writeHead(status, headers)
  const chunks = body[Symbol.asyncIterator]()
  const gone = new Promise<"gone">((resolve) => res.once("close", () => resolve("gone")))
  try {
    for (;;) {
      const next = await Promise.race([chunks.next(), gone])
      if (next === "gone" || res.destroyed) break
      if (next.done) return void res.end()
      if (!res.write(next.value)) {
        const drained = new Promise<"drain">((resolve) => res.once("drain", () => resolve("drain")))
        if ((await Promise.race([drained, gone])) === "gone") break
      }
    }
    await chunks.return?.()
  } catch {
    // Headers are out: the response can only be cut short, so that the client sees it incomplete.
    res.destroy()
  }
}

/** The Bearer credential of a request, if it sent one. */
export const bearerOf = (headers: { readonly authorization?: string | undefined }) =>
  /^Bearer (.+)$/i.exec(headers.authorization ?? "")?.[1]

/** No headers to add (one object, so that a caller can tell "nothing" at a glance). */
export const NO_HEADERS: Record<string, string> = {}
