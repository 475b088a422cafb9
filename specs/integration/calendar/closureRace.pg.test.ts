import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql } from "../../support/app.ts"
import { type BookingsOrg, guest, ok, type TestApp } from "../bookings/helpers.ts"
import { startRacing } from "../bookings/racing.ts"

// A booking that read the closures before a new closure committed, and commits after it, lands inside the closed
// time unless the closure waits it out. Real Postgres only: the test holds the time's row lock so the booking waits
// between its read and its write while the closure commits.

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  ;({ app, org } = await startRacing())
})
afterAll(() => app?.close())

const waitFor = async (what: () => Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await what()); i++) await new Promise((r) => setTimeout(r, 25))
  expect(await what()).toBe(true)
}

describe("a closure created while a booking into it is on its way (Postgres)", () => {
  it.each([
    ["without", undefined, 48],
    ["with", "closure-race-1", 120]
  ] as const)(
    "the booking that raced it is cancelled like those found before, not left inside the closure (%s an Idempotency-Key)",
    async (_, key, hours) => {
      const { offering, session } = await org.classWithSession({ capacity: 10, price_cents: 1500 }, hours)
      let release = () => {}
      const released = new Promise<void>((resolve) => (release = resolve))
      let locked = () => {}
      const isLocked = new Promise<void>((resolve) => (locked = resolve))
      const holder = app.runtime.runPromise(
        Effect.flatMap(SqlClient.SqlClient, (q) =>
          q.withTransaction(
            Effect.gen(function* () {
              yield* q`select id from sessions where id = ${session.id} for update`
              locked()
              yield* Effect.promise(() => released)
            })
          )
        ).pipe(Effect.orDie)
      )
      await isLocked
      // The booking reads (no closure yet), then waits on the time's row to count its place.
      const booking = org.book({ offering_id: offering.id, session_id: session.id, customer: guest("racer") })
      await waitFor(async () => {
        const rows = await sql(
          app,
          (q) => q<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`
        )
        return rows[0].n > 0
      })
      const day = String(session.starts_at).slice(0, 10)
      const note = `Burst pipe ${key ?? "plain"}`
      const closure = org.call(
        "POST",
        "/closures",
        { starts_on: day, note, guests: "refund" },
        key === undefined ? undefined : { "idempotency-key": key }
      )
      // Once the closure has committed, the booking may go on.
      await waitFor(async () => {
        const rows = await sql(
          app,
          (q) => q<{ n: number }>`select count(*)::int as n from closures where note = ${note}`
        )
        return rows[0].n > 0
      })
      release()
      await holder
      const booked = await booking
      expect([200, 201]).toContain(booked.status)
      expect((await closure).status).toBe(201)
      // Without a key the answer comes once it is settled; under a key, just after the key's transaction commits.
      const status = async () => (ok(await org.call("GET", `/bookings/${booked.body.id}`)) as { status: string }).status
      if (key === undefined) expect(await status()).toBe("cancelled")
      await waitFor(async () => (await status()) === "cancelled")
      const live = await sql(
        app,
        (q) => q<{ n: number }>`select count(*)::int as n from bookings
        where offering_id = ${offering.id} and status in ('confirmed', 'held') and keeps_place`
      )
      expect(live[0].n).toBe(0)
    }
  )
})
