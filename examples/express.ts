/**
 * The booking engine mounted inside an Express app under /booking, beside the app's own routes.
 *
 *   npx tsx examples/express.ts            (PGlite in memory; DATABASE_URL and the other variables are read as the server reads them)
 *   curl http://127.0.0.1:4000/booking/healthz
 */

import type { AddressInfo } from "node:net"
import express from "express"
import { createEngine, type EngineOptions } from "../index.ts"

export const startExpress = async (
  options: { port?: number; adminToken?: string; env?: EngineOptions["env"] } = {}
) => {
  const port = options.port ?? 4000
  const engine = await createEngine({
    publicUrl: `http://127.0.0.1:${port}/booking`,
    // Every other setting (DATABASE_URL, NATS_URL, TWILIO_*, ...) from the environment, as the server reads it.
    ...(options.env === undefined ? {} : { env: options.env }),
    // The admin API's token: the one given, else ADMIN_TOKEN from the environment (unset: the admin API is off).
    ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }),
    logLevel: "warning"
  })
  const app = express()
  app.get("/", (_req, res) => {
    res.send("the host app's own page")
  })
  // Express strips /booking from req.url before the engine sees it: no prefix option needed.
  app.use("/booking", engine.handler)
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const s = app.listen(port, "127.0.0.1", () => resolve(s))
  })
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      await new Promise((r) => server.close(r))
      await engine.stop()
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { url } = await startExpress()
  console.log(`host app on ${url}, booking engine under ${url}/booking`)
}
