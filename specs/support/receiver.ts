import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface Hit {
  readonly id: number
  readonly type: string
  readonly body: string
  readonly headers: IncomingHttpHeaders
  readonly at: number
}

/** What to answer: a status (with optional headers), or "hang" to never answer. */
export type Answer = number | "hang" | { readonly status: number; readonly headers: Record<string, string> }

export interface Receiver {
  readonly url: string
  readonly hits: Array<Hit>
  answer: (hit: Hit, n: number) => Answer
  /** Wait this long before answering. */
  delayMs: number
  /** The most requests that were open at once. */
  readonly maxInFlight: () => number
  readonly ids: () => Array<number>
  readonly close: () => Promise<void>
}

/** A real webhook receiver on 127.0.0.1 that records every POST (raw body kept for signature checks). */
export const startReceiver = async (answer: (hit: Hit, n: number) => Answer = () => 200): Promise<Receiver> => {
  const hits: Array<Hit> = []
  const hanging: Array<ServerResponse> = []
  let open = 0
  let most = 0
  const server = createServer((req, res) => {
    most = Math.max(most, ++open)
    res.on("close", () => open--)
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      let parsed: { id?: number; type?: string } = {}
      try {
        parsed = JSON.parse(body) as { id?: number; type?: string }
      } catch {
        /* recorded as is */
      }
      const hit: Hit = {
        id: parsed.id ?? -1,
        type: parsed.type ?? "",
        body,
        headers: req.headers,
        at: performance.now()
      }
      hits.push(hit)
      const a = receiver.answer(hit, hits.length)
      if (a === "hang") return void hanging.push(res)
      const reply = () => (typeof a === "number" ? res.writeHead(a).end() : res.writeHead(a.status, a.headers).end())
      if (receiver.delayMs > 0) setTimeout(reply, receiver.delayMs)
      else reply()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hook`,
    hits,
    answer,
    delayMs: 0,
    maxInFlight: () => most,
    ids: () => hits.map((h) => h.id),
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
  return receiver
}

/** Polls until check() is true; fails with the message after timeoutMs. */
export const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs = 60_000, message = "condition") => {
  const until = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${message}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
