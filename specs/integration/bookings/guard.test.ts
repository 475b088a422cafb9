import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, startApp, type TestApp } from "../../support/app.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

describe("the database's capacity guard", () => {
  it("refuses at commit a confirmed booking that would overfill a time, even when written around the engine", async () => {
    const org = await app.newOrg({ plan: "scale" })
    const { body: o } = await app.call(org.key, "POST", "/api/v1/offerings", { name: "Spin", kind: "class", capacity: 2 })
    const now = new Date((await app.admin("GET", "/clock")).body.now)
    const startsAt = new Date(Math.ceil(now.getTime() / 3600000) * 3600000 + 86400000).toISOString()
    const { body: s } = await app.call(org.key, "POST", "/api/v1/sessions", { offering_id: o.id, starts_at: startsAt })
    const booked = await app.call(org.key, "POST", "/api/v1/bookings", { offering_id: o.id, session_id: s.data[0].id, quantity: 2, customer: { email: "a@example.com", name: "A" } })
    expect(booked.status).toBe(201)
    const copy = (id: string, reference: string, handle: string) =>
      app.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (q) => q`insert into bookings (id, org_id, offering_id, customer_id, session_id, starts_at, ends_at, quantity, state, machine,
          status, keeps_place, total_cents, reference, handle, source, created_at)
        select ${id}::uuid, org_id, offering_id, customer_id, session_id, starts_at, ends_at, 1, state, machine,
          status, keeps_place, total_cents, ${reference}, ${handle}, source, created_at
        from bookings where id = ${booked.body.id}`).pipe(Effect.as(null), Effect.catchAll((e) => Effect.succeed(String(e.cause)))))
    const failure = await copy(crypto.randomUUID(), "GUARD001", "guard-handle-1")
    expect(failure).toMatch(/capacity exceeded/)
    const count = await sql(app, (q) => q<{ n: number }>`select count(*)::int as n from bookings where session_id = ${s.data[0].id}`)
    expect(count[0].n).toBe(1)
  })
})
