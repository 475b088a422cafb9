import { randomBytes } from "node:crypto"
import { afterAll } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { dropTestDatabase } from "../../support/database.ts"
import type { Receiver } from "../../support/receiver.ts"
import { busConfig } from "./helpers.ts"

/**
 * Engines over named databases, so a second engine can start over the first one's data (crash.test.ts, crash.pg.test.ts).
 * Call at the top of a file: after its tests it closes every engine and the receivers pushed to `receivers`, and drops the
 * databases.
 */
export const enginesOverNamedDatabases = () => {
  const open: Array<TestApp> = []
  const receivers: Array<Receiver> = []
  const databases: Array<string> = []
  afterAll(async () => {
    for (const app of open) await app.close().catch(() => undefined)
    for (const r of receivers) await r.close()
    for (const d of databases) await dropTestDatabase(d)
  })

  const start = async (database: string) => {
    const app = await startApp({ ...busConfig(), webhookAllowInsecure: true }, { database })
    open.push(app)
    return app
  }
  const newDatabase = () => {
    const name = `be_crash_${randomBytes(5).toString("hex")}`
    databases.push(name)
    return name
  }
  return { start, newDatabase, receivers }
}
