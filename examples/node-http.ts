/**
 * The booking engine inside a plain node:http server, under /booking (the prefix option strips it); every other
 * path is the host's.
 *
 *   npx tsx examples/node-http.ts
 *   curl http://127.0.0.1:4001/booking/healthz
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { createEngine, type EngineOptions } from "../index.ts"

export const startNodeHttp = async (
  options: { port?: number; adminToken?: string; env?: EngineOptions["env"] } = {}
) => {
  const port = options.port ?? 4001
  const engine = await createEngine({
    publicUrl: `http://127.0.0.1:${port}/booking`,
    prefix: "/booking",
    // Every other setting (DATABASE_URL, NATS_URL, TWILIO_*, ...) from the environment, as the server reads it.
    ...(options.env === undefined ? {} : { env: options.env }),
    // The admin API's token: the one given, else ADMIN_TOKEN from the environment (unset: the admin API is off).
    ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }),
    logLevel: "warning"
  })
  const server = createServer((req, res) =>
    engine.handler(req, res, () => {
      res.writeHead(200, { "content-type": "text/plain" }).end("the host's own answer")
    })
  )
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      await new Promise((r) => server.close(r))
      await engine.stop()
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { url } = await startNodeHttp()
  console.log(`host server on ${url}, booking engine under ${url}/booking`)
}
