import { Agent, createServer, type Server } from "node:http"
import { Agent as HttpsAgent } from "node:https"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { deliver } from "../../../transports/webhooks/deliver.ts"

const servers: Array<Server> = []
const agents: Array<Agent> = []
afterEach(async () => {
  agents.splice(0).forEach((a) => a.destroy())
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise((resolve) => s.close(resolve))
  }
})

const serve = async (keepAliveTimeout: number, hangFrom = Infinity) => {
  const state = { connections: 0, requests: 0, url: "" }
  const server = createServer({ keepAliveTimeout }, (req, res) => {
    req.resume()
    req.on("end", () => ++state.requests >= hangFrom || res.writeHead(200).end("ok"))
  })
  server.on("connection", () => state.connections++)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  servers.push(server)
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return state
}
const keepAlive = () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  agents.push(agent)
  return agent
}
const body = JSON.stringify({ id: 1 })

describe("deliver with a keep-alive agent", () => {
  it("reuses one connection for consecutive deliveries", async () => {
    const target = await serve(5_000)
    const agent = keepAlive()
    for (let i = 0; i < 5; i++)
      expect(await deliver({ url: target.url, body, allowInsecure: true, agent })).toMatchObject({
        status: 200,
        error: null
      })
    expect(target.connections).toBe(1)
  })

  it("sends again on a new connection when the server closed the kept-alive one", async () => {
    const target = await serve(50)
    const agent = keepAlive()
    expect((await deliver({ url: target.url, body, allowInsecure: true, agent })).status).toBe(200)
    await new Promise((r) => setTimeout(r, 120)) // the server closes the idle connection
    expect(await deliver({ url: target.url, body, allowInsecure: true, agent })).toMatchObject({
      status: 200,
      error: null
    })
    expect(target.connections).toBe(2)
  })

  it("still refuses a name that resolves to a forbidden address", async () => {
    const target = await serve(5_000)
    const url = target.url.replace("http://127.0.0.1", "https://localhost")
    const agent = new HttpsAgent({ keepAlive: true })
    agents.push(agent)
    const r = await deliver({ url, body, allowInsecure: false, agent })
    expect(r).toMatchObject({ status: null, error: "forbidden address" })
    expect(target.connections).toBe(0)
  })

  it("gives up at once when aborted, and does not send again", async () => {
    const target = await serve(5_000, 2)
    const agent = keepAlive()
    expect((await deliver({ url: target.url, body, allowInsecure: true, agent })).status).toBe(200)
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const r = await deliver({
      url: target.url,
      body,
      allowInsecure: true,
      agent,
      signal: controller.signal,
      timeoutMs: 3_000
    })
    expect(r).toMatchObject({ status: null, error: "aborted" })
    expect(r.durationMs).toBeLessThan(1_000)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(target.requests).toBe(2)
  })
})
