import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Events } from "../../../engine/services/Events.ts"
import { Mail } from "../../../engine/services/mail/Mail.ts"
import { VACUUM_EVERY } from "../../../engine/services/mail/outbox.ts"
import { VACUUM_EVERY as RELAY_VACUUM_EVERY } from "../../../transports/events/relay.ts"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { runEngine } from "../../support/engine.ts"
import { waitFor } from "../../support/receiver.ts"

// The relay and the mail sender vacuum their queues every 10,000 rows taken off them: PGlite runs no autovacuum. On
// Postgres only, where the server counts the vacuums (pg_stat_user_tables); the same statement runs on PGlite.

let app: TestApp
let org: { id: string; key: string }
beforeAll(async () => {
  app = await startApp()
  org = await app.newOrg()
})
afterAll(() => app.close())

const vacuums = async (table: string) =>
  (
    await sql(
      app,
      (s) => s<{ n: number }>`select vacuum_count::int as n from pg_stat_user_tables where relname = ${table}`
    )
  )[0].n

describe("the background queues are vacuumed by the engine", () => {
  it(`relay_queue after ${RELAY_VACUUM_EVERY} events relayed`, async () => {
    const before = await vacuums("relay_queue")
    await runEngine(
      app,
      Effect.flatMap(Events, (events) =>
        Effect.forEach(
          Array.from({ length: 11 }, (_, i) => i),
          (i) =>
            events.append(
              org.id,
              Array.from({ length: 1_000 }, (_, n) => ({ type: "org.updated", data: { i, n } }))
            ),
          { discard: true }
        )
      )
    )
    await waitFor(
      async () => (await sql(app, (s) => s<{ n: number }>`select count(*)::int as n from relay_queue`))[0].n === 0,
      60_000,
      "relayed"
    )
    await waitFor(async () => (await vacuums("relay_queue")) > before, 10_000, "relay_queue vacuumed")
  }, 120_000)

  it(`mail_queue after ${VACUUM_EVERY} mails sent`, async () => {
    const before = await vacuums("mail_queue")
    await runEngine(
      app,
      Effect.flatMap(Mail, (mail) =>
        Effect.forEach(
          Array.from({ length: VACUUM_EVERY + 10 }, (_, i) => i),
          (i) => mail.enqueue(org.id, { to: `v${i}@example.com`, subject: "S", text: "T", kind: "test" }),
          { discard: true }
        )
      )
    )
    for (let pass = 0; pass < 12; pass++) await app.advance(1)
    expect((await sql(app, (s) => s<{ n: number }>`select count(*)::int as n from mail_queue`))[0].n).toBe(0)
    await waitFor(async () => (await vacuums("mail_queue")) > before, 10_000, "mail_queue vacuumed")
  }, 180_000)
})
