/**
 * Webhook receivers for bench/webhooks.ts, in their own process so the engine does not share its event loop with
 * them. Parent -> { servers: n } answers { urls }; { stats: true } answers { hits: [[{ id, t }]] } with t in
 * epoch milliseconds (performance.timeOrigin + performance.now(), comparable across processes).
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

interface Hit {
  readonly id: number
  readonly t: number
}

const hits: Array<Array<Hit>> = []
const now = () => performance.timeOrigin + performance.now()

const serve = async (index: number) => {
  hits[index] = []
  const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const t = now()
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: number }
      hits[index].push({ id: body.id, t })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
}

process.on("message", async (message: { servers?: number; stats?: boolean }) => {
  if (message.servers !== undefined) {
    const urls = await Promise.all(Array.from({ length: message.servers }, (_, i) => serve(i)))
    process.send?.({ urls })
  }
  if (message.stats) process.send?.({ hits })
})
process.on("disconnect", () => process.exit(0))
