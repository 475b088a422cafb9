import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PostgresLive } from "../../../adapters/db/postgres.ts"
import { Signals } from "../../../engine/ports/Signals.ts"
import { startApp, type TestApp } from "../../support/app.ts"
import { freshPostgresDatabase } from "../../support/database.ts"
import { runEngine } from "../../support/engine.ts"
import { type Pooler, startPgbouncer } from "../../support/pgbouncer.ts"
import { until } from "../../support/ports.ts"
import { allRelayed } from "../events/helpers.ts"

// The engine through a PgBouncer of our own in transaction mode (Debian's 1.18, which cannot carry named prepared
// statements), in front of the machine's Postgres: DATABASE_DIRECT_URL for the session work, DB_PREPARED_STATEMENTS off.
let db: { url: string; drop: () => Promise<unknown> }
let pooler: Pooler
let app: TestApp

beforeAll(async () => {
  db = await freshPostgresDatabase()
  pooler = await startPgbouncer("127.0.0.1", 5432, { poolSize: 10 })
  app = await startApp(
    {},
    { databaseLayer: PostgresLive(pooler.through(db.url), 20, 3_000, { directUrl: db.url, prepared: false }) }
  )
})
afterAll(async () => {
  await app?.close()
  await pooler?.dispose()
  await db?.drop()
})

describe("through PgBouncer in transaction mode", () => {
  it("books without overselling, replays idempotent requests, relays every event and keeps its LISTEN direct", async () => {
    const org = await app.newOrg({ plan: "scale" })
    const offering = (
      await app.call(org.key, "POST", "/api/v1/offerings", { name: "Spin", kind: "class", capacity: 7 })
    ).body
    const startsAt = `${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 13)}:00:00.000Z`
    const session = (
      await app.call(org.key, "POST", "/api/v1/sessions", { offering_id: offering.id, starts_at: startsAt })
    ).body.data[0]
    const book = (i: number, headers: Record<string, string> = {}) =>
      app.call(
        org.key,
        "POST",
        "/api/v1/bookings",
        { offering_id: offering.id, session_id: session.id, customer: { email: `p${i}@example.com`, name: `P ${i}` } },
        headers
      )

    // The race: 60 guests at once for 7 places, over 10 server connections shared by the pooler.
    const wave = await Promise.all(Array.from({ length: 60 }, (_, i) => book(i)))
    const statuses = wave.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(7)
    expect(wave.filter((r) => r.status !== 201).map((r) => r.body?.error?.code)).toEqual(Array(53).fill("sold_out"))
    const sessions = (await app.call(org.key, "GET", `/api/v1/sessions?offering_id=${offering.id}`)).body.data
    expect(sessions[0].booked).toBe(7)

    // Idempotency: the same key at once from three callers is one booking; a retry replays it.
    const other = (await app.call(org.key, "POST", "/api/v1/offerings", { name: "Row", kind: "class", capacity: 100 }))
      .body
    const otherSession = (
      await app.call(org.key, "POST", "/api/v1/sessions", { offering_id: other.id, starts_at: startsAt })
    ).body.data[0]
    const key = randomUUID()
    const body = {
      offering_id: other.id,
      session_id: otherSession.id,
      customer: { email: "once@example.com", name: "Once" }
    }
    const same = await Promise.all(
      [0, 1, 2].map(() => app.call(org.key, "POST", "/api/v1/bookings", body, { "idempotency-key": key }))
    )
    const made = same.filter((r) => r.status === 201)
    expect(made).toHaveLength(1)
    expect(same.filter((r) => r.status !== 201).map((r) => r.status)).toEqual([409, 409])
    const replay = await app.call(org.key, "POST", "/api/v1/bookings", body, { "idempotency-key": key })
    expect(replay.status).toBe(201)
    expect(replay.body.id).toBe(made[0].body.id)
    expect(
      (
        await app.call(
          org.key,
          "POST",
          "/api/v1/bookings",
          { ...body, customer: { email: "x@example.com", name: "X" } },
          { "idempotency-key": key }
        )
      ).status
    ).toBe(422)

    // The relay takes every event off its queue (its advisory lock lasts one transaction).
    await until(allRelayed(app, org.id), 30_000, "every event relayed")

    // The LISTEN connection is on Postgres itself: a NOTIFY sent through the pooler goes round to it.
    const heard = await runEngine(
      app,
      Effect.flatMap(Signals, (s) => s.sync.pipe(Effect.map((ok) => ok && s.listening()))).pipe(
        Effect.timeout("5 seconds")
      )
    )
    expect(heard).toBe(true)
  }, 60_000)
})
