import { createServer, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { fetchGuarded } from "../../../transports/webhooks/fetch.ts"

const servers: Array<Server> = []

/** A real HTTP server on 127.0.0.1 answering every request the same way, counting connections. */
const serve = async (answer: (res: ServerResponse) => void) => {
  const server = createServer((_req, res) => answer(res))
  const state = { url: "", port: 0, connections: 0 }
  server.on("connection", () => state.connections++)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  servers.push(server)
  state.port = (server.address() as AddressInfo).port
  state.url = `http://127.0.0.1:${state.port}/photo.jpg`
  return state
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise((resolve) => s.close(resolve))
  }
})

const insecure = { limit: 1024, timeoutMs: 2_000, allowInsecure: true }

describe("fetchGuarded (a photo's URL)", () => {
  it("reads a 2xx body whole", async () => {
    const target = await serve((res) => res.writeHead(200).end(Buffer.from([1, 2, 3])))
    expect(await fetchGuarded({ url: target.url, ...insecure })).toEqual({
      ok: true,
      bytes: Uint8Array.from([1, 2, 3])
    })
  })

  it("stops past the limit, by Content-Length or while reading (too_large)", async () => {
    const declared = await serve((res) => res.writeHead(200, { "content-length": "2048" }).end(Buffer.alloc(2048)))
    expect(await fetchGuarded({ url: declared.url, ...insecure })).toMatchObject({ ok: false, reason: "too_large" })
    const chunked = await serve((res) => {
      res.writeHead(200)
      res.write(Buffer.alloc(800))
      res.end(Buffer.alloc(800))
    })
    expect(await fetchGuarded({ url: chunked.url, ...insecure })).toMatchObject({ ok: false, reason: "too_large" })
  })

  it("follows no redirect, and takes no status but 2xx (unreachable)", async () => {
    const moved = await serve((res) => res.writeHead(301, { location: "https://example.com/" }).end())
    expect(await fetchGuarded({ url: moved.url, ...insecure })).toMatchObject({
      ok: false,
      reason: "unreachable",
      message: expect.stringMatching(/301.*redirect/)
    })
    const gone = await serve((res) => res.writeHead(404).end())
    expect(await fetchGuarded({ url: gone.url, ...insecure })).toMatchObject({ reason: "unreachable" })
  })

  it("gives up after the time-out (unreachable)", async () => {
    const silent = await serve(() => undefined)
    expect(await fetchGuarded({ url: silent.url, ...insecure, timeoutMs: 200 })).toMatchObject({
      ok: false,
      reason: "unreachable",
      message: expect.stringMatching(/0\.2 s/)
    })
  })

  it("without allowInsecure refuses http, loopback names and literal private addresses, connecting to nothing", async () => {
    const target = await serve((res) => res.writeHead(200).end(Buffer.from([1])))
    for (const url of [
      target.url,
      `https://localhost:${target.port}/`,
      `https://127.0.0.1:${target.port}/`,
      `https://[::ffff:127.0.0.1]:${target.port}/`,
      `https://[2002:7f00:1::]:${target.port}/`,
      "https://10.0.0.1/",
      "https://u:p@images.example.com/"
    ])
      expect(await fetchGuarded({ url, ...insecure, allowInsecure: false }), url).toMatchObject({
        ok: false,
        reason: "refused"
      })
    expect(target.connections).toBe(0)
  })
})
