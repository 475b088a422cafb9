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
  it("refuses a booking that would overfill a time, even when written around the engine", async () => {
    const org = await app.newOrg({ plan: "scale" })
    const { body: o } = await app.call(org.key, "POST", "/api/v1/offerings", { name: "Spin", kind: "class", capacity: 2 })
    const now = new Date((await app.admin("GET", "/clock")).body.now)
    const startsAt = new Date(Math.ceil(now.getTime() / 3600000) * 3600000 + 86400000).toISOString()
    const { body: s } = await app.call(org.key, "POST", "/api/v1/sessions", { offering_id: o.id, starts_at: startsAt })
    const booked = await app.call(org.key, "POST", "/api/v1/bookings", { offering_id: o.id, session_id: s.data[0].id, quantity: 2, customer: { email: "a@example.com", name: "A" } })
    expect(booked.status).toBe(201)
    const run = (statement: (q: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
      app.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, statement).pipe(
        Effect.as(null),
        Effect.catchAll((e) => Effect.succeed((e as { cause?: { code?: string; constraint?: string } }).cause ?? null))
      ))
    const copy = (id: string, reference: string, handle: string, status: string) =>
      run((q) => q`insert into bookings (id, org_id, offering_id, customer_id, session_id, starts_at, ends_at, quantity, places, state, machine,
          status, keeps_place, total_cents, reference, handle, source, created_at)
        select ${id}::uuid, org_id, offering_id, customer_id, session_id, starts_at, ends_at, 1, 1, state, machine,
          ${status}, keeps_place, total_cents, ${reference}, ${handle}, source, created_at
        from bookings where id = ${booked.body.id}`)
    // Confirmed or held, a booking that takes a place where there is none is refused by the database itself.
    for (const [n, status] of ["confirmed", "held"].entries()) {
      expect(await copy(crypto.randomUUID(), `GUARD00${n}`, `guard-handle-${n}`, status)).toMatchObject({ code: "23514", constraint: "sold_out" })
    }
    const count = await sql(app, (q) => q<{ n: number }>`select count(*)::int as n from bookings where session_id = ${s.data[0].id}`)
    expect(count[0].n).toBe(1)
    // A cancelled booking taken back to confirmed around the engine, with the time full again, is refused too.
    expect((await app.call(org.key, "POST", `/api/v1/bookings/${booked.body.id}/cancel`, {})).status).toBe(200)
    const again = await app.call(org.key, "POST", "/api/v1/bookings", { offering_id: o.id, session_id: s.data[0].id, quantity: 2, customer: { email: "b@example.com", name: "B" } })
    expect(again.status).toBe(201)
    expect(await run((q) => q`update bookings set status = 'confirmed', keeps_place = true where id = ${booked.body.id}`)).toMatchObject({ code: "23514", constraint: "sold_out" })
    const [time] = await sql(app, (q) => q<{ booked: number; cap: number }>`select booked, cap from sessions where id = ${s.data[0].id}`)
    expect(time).toEqual({ booked: 2, cap: 2 })
  })
})
