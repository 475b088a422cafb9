import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { deliver } from "../../../transports/webhooks/deliver.ts"

interface Hit {
  readonly method: string | undefined
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

interface TestServer {
  readonly url: string
  readonly port: number
  readonly hits: Array<Hit>
  connections: number
}

const servers: Array<Server> = []

/** A real HTTP server on 127.0.0.1 that records every request and every TCP connection. */
const serve = async (answer: (res: ServerResponse) => void): Promise<TestServer> => {
  const server = createServer()
  const state: TestServer = { url: "", port: 0, hits: [], connections: 0 }
  server.on("connection", () => {
    state.connections++
  })
  server.on("request", (req, res) => {
    let body = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => (body += chunk))
    req.on("end", () => {
      state.hits.push({ method: req.method, headers: req.headers, body })
      answer(res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  servers.push(server)
  const port = (server.address() as AddressInfo).port
  return Object.assign(state, { port, url: `http://127.0.0.1:${port}/hook` })
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise((resolve) => s.close(resolve))
  }
})

const body = JSON.stringify({
  id: 1,
  type: "booking.confirmed",
  created_at: "2025-01-01T00:00:00Z",
  data: { n: "Zoë" }
})

describe("deliver", () => {
  it("POSTs the exact body with JSON content type, user agent and the caller's headers; 2xx is success", async () => {
    const target = await serve((res) => res.writeHead(204).end())
    const r = await deliver({
      url: target.url,
      body,
      headers: { "Service-Signature": "t=1,v1=ab" },
      allowInsecure: true
    })
    expect(r).toMatchObject({ status: 204, error: null })
    expect(r.durationMs).toBeGreaterThanOrEqual(0)
    expect(target.hits).toHaveLength(1)
    const [hit] = target.hits
    expect(hit.method).toBe("POST")
    expect(hit.body).toBe(body)
    expect(hit.headers["content-type"]).toBe("application/json")
    expect(hit.headers["user-agent"]).toBe("booking-engine-webhooks/1")
    expect(hit.headers["service-signature"]).toBe("t=1,v1=ab")
    expect(hit.headers["content-length"]).toBe(String(Buffer.byteLength(body)))
  })

  it("does not let the caller override content type or user agent", async () => {
    const target = await serve((res) => res.writeHead(200).end("ok"))
    await deliver({
      url: target.url,
      body,
      headers: { "Content-Type": "text/plain", "User-Agent": "x" },
      allowInsecure: true
    })
    expect(target.hits[0].headers["content-type"]).toBe("application/json")
    expect(target.hits[0].headers["user-agent"]).toBe("booking-engine-webhooks/1")
  })

  it("returns 410 and 500 as failures with their status", async () => {
    const gone = await serve((res) => res.writeHead(410).end("gone"))
    const broken = await serve((res) => res.writeHead(500).end("oops"))
    expect(await deliver({ url: gone.url, body, allowInsecure: true })).toMatchObject({
      status: 410,
      error: "HTTP 410"
    })
    expect(await deliver({ url: broken.url, body, allowInsecure: true })).toMatchObject({
      status: 500,
      error: "HTTP 500"
    })
  })

  it("does not follow a 302; the redirect target sees nothing", async () => {
    const target = await serve((res) => res.writeHead(200).end())
    const redirecting = await serve((res) => res.writeHead(302, { Location: target.url }).end())
    const r = await deliver({ url: redirecting.url, body, allowInsecure: true })
    expect(r).toMatchObject({ status: 302, error: "redirect not followed (302)" })
    expect(redirecting.hits).toHaveLength(1)
    expect(target.hits).toHaveLength(0)
    expect(target.connections).toBe(0)
  })

  it("gives up on a server that never answers: status null, error timeout", async () => {
    const silent = await serve(() => {})
    const r = await deliver({ url: silent.url, body, timeoutMs: 300, allowInsecure: true })
    expect(r).toMatchObject({ status: null, error: "timeout" })
    expect(r.durationMs).toBeGreaterThanOrEqual(290)
    expect(r.durationMs).toBeLessThan(2_000)
    expect(silent.hits).toHaveLength(1)
  })

  it("reads and discards a large answer without waiting for all of it", async () => {
    const chatty = await serve((res) => {
      res.writeHead(200)
      res.write(Buffer.alloc(256 * 1024, 97))
      // never ends: deliver stops reading past its limit
    })
    const r = await deliver({ url: chatty.url, body, timeoutMs: 2_000, allowInsecure: true })
    expect(r).toMatchObject({ status: 200, error: null })
    expect(r.durationMs).toBeLessThan(1_500)
  })

  it("reports a refused connection", async () => {
    const closed = await serve(() => {})
    const url = closed.url
    for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve))
    expect(await deliver({ url, body, allowInsecure: true })).toMatchObject({ status: null, error: "ECONNREFUSED" })
  })

  describe("without allowInsecure", () => {
    it("refuses a host name that resolves to 127.0.0.1 at connect time; the server sees no connection", async () => {
      const target = await serve((res) => res.writeHead(200).end())
      const r = await deliver({ url: `https://localhost:${target.port}/hook`, body, allowInsecure: false })
      expect(r).toMatchObject({ status: null, error: "forbidden address" })
      expect(target.connections).toBe(0)
      expect(target.hits).toHaveLength(0)
    })

    it.each(["https://127.0.0.1:PORT/", "https://[::ffff:127.0.0.1]:PORT/", "https://2130706433:PORT/"])(
      "refuses the literal address %s before connecting",
      async (template) => {
        const target = await serve((res) => res.writeHead(200).end())
        const r = await deliver({ url: template.replace("PORT", String(target.port)), body, allowInsecure: false })
        expect(r).toMatchObject({ status: null, error: "forbidden address" })
        expect(target.connections).toBe(0)
      }
    )

    it("refuses http and URLs with credentials", async () => {
      const target = await serve((res) => res.writeHead(200).end())
      expect(await deliver({ url: target.url, body, allowInsecure: false })).toMatchObject({
        status: null,
        error: "url must use https"
      })
      expect(await deliver({ url: `http://u:p@127.0.0.1:${target.port}/`, body, allowInsecure: true })).toMatchObject({
        status: null,
        error: "url must not carry credentials"
      })
      expect(target.connections).toBe(0)
    })
  })
})
