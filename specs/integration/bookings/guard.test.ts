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
    const { body: o } = await app.call(org.key, "POST", "/api/v1/offerings", {
      name: "Spin",
      kind: "class",
      capacity: 2
    })
    const now = new Date((await app.admin("GET", "/clock")).body.now)
    const startsAt = new Date(Math.ceil(now.getTime() / 3600000) * 3600000 + 86400000).toISOString()
    const { body: s } = await app.call(org.key, "POST", "/api/v1/sessions", { offering_id: o.id, starts_at: startsAt })
    const booked = await app.call(org.key, "POST", "/api/v1/bookings", {
      offering_id: o.id,
      session_id: s.data[0].id,
      quantity: 2,
      customer: { email: "a@example.com", name: "A" }
    })
    expect(booked.status).toBe(201)
    const run = (statement: (q: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
      app.runtime.runPromise(
        Effect.flatMap(SqlClient.SqlClient, statement).pipe(
          Effect.as(null),
          Effect.catchAll((e) =>
            Effect.succeed((e as { cause?: { code?: string; constraint?: string } }).cause ?? null)
          )
        )
      )
    const copy = (id: string, reference: string, handle: string, status: string) =>
      run(
        (
          q
        ) => q`insert into bookings (id, org_id, offering_id, customer_id, session_id, starts_at, ends_at, quantity, places, state, machine,
          status, keeps_place, total_cents, reference, handle, source, created_at)
        select ${id}::uuid, org_id, offering_id, customer_id, session_id, starts_at, ends_at, 1, 1, state, machine,
          ${status}, keeps_place, total_cents, ${reference}, ${handle}, source, created_at
        from bookings where id = ${booked.body.id}`
      )
    // Confirmed or held, a booking that takes a place where there is none is refused by the database itself.
    for (const [n, status] of ["confirmed", "held"].entries()) {
      expect(await copy(crypto.randomUUID(), `GUARD00${n}`, `guard-handle-${n}`, status)).toMatchObject({
        code: "23514",
        constraint: "sold_out"
      })
    }
    const count = await sql(
      app,
      (q) => q<{ n: number }>`select count(*)::int as n from bookings where session_id = ${s.data[0].id}`
    )
    expect(count[0].n).toBe(1)
    // A cancelled booking taken back to confirmed around the engine, with the time full again, is refused too.
    expect((await app.call(org.key, "POST", `/api/v1/bookings/${booked.body.id}/cancel`, {})).status).toBe(200)
    const again = await app.call(org.key, "POST", "/api/v1/bookings", {
      offering_id: o.id,
      session_id: s.data[0].id,
      quantity: 2,
      customer: { email: "b@example.com", name: "B" }
    })
    expect(again.status).toBe(201)
    expect(
      await run((q) => q`update bookings set status = 'confirmed', keeps_place = true where id = ${booked.body.id}`)
    ).toMatchObject({ code: "23514", constraint: "sold_out" })
    const [time] = await sql(
      app,
      (q) => q<{ booked: number; cap: number }>`select booked, cap from sessions where id = ${s.data[0].id}`
    )
    expect(time).toEqual({ booked: 2, cap: 2 })
  })
})

describe("what the booking's foreign keys kept, now that its insert has none (migration 0090)", () => {
  it("refuses a booking at a time that is not there or is another offering's, and the delete of a row bookings point at", async () => {
    const org = await app.newOrg({ plan: "scale" })
    const offering = async (name: string) =>
      (await app.call(org.key, "POST", "/api/v1/offerings", { name, kind: "class", capacity: 5 })).body
    const [o, other] = [await offering("Spin"), await offering("Yoga")]
    const now = new Date((await app.admin("GET", "/clock")).body.now)
    const startsAt = new Date(Math.ceil(now.getTime() / 3600000) * 3600000 + 86400000).toISOString()
    const time = async (offeringId: string) =>
      (await app.call(org.key, "POST", "/api/v1/sessions", { offering_id: offeringId, starts_at: startsAt })).body
        .data[0]
    const [s, elsewhere] = [await time(o.id), await time(other.id)]
    const booked = await app.call(org.key, "POST", "/api/v1/bookings", {
      offering_id: o.id,
      session_id: s.id,
      customer: { email: "a@example.com", name: "A" }
    })
    expect(booked.status).toBe(201)
    const run = (statement: (q: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
      app.runtime.runPromise(
        Effect.flatMap(SqlClient.SqlClient, statement).pipe(
          Effect.as(null),
          Effect.catchAll((e) =>
            Effect.succeed((e as { cause?: { code?: string; constraint?: string } }).cause ?? null)
          )
        )
      )
    let n = 0
    const copy = (set: { session?: string; series?: string; status?: string }) =>
      run(
        (
          q
        ) => q`insert into bookings (id, org_id, offering_id, customer_id, session_id, series_id, starts_at, ends_at, quantity, places, state, machine,
          status, keeps_place, total_cents, reference, handle, source, created_at)
        select ${crypto.randomUUID()}::uuid, org_id, offering_id, customer_id, ${set.session ?? null}::uuid, ${set.series ?? null}::uuid, starts_at, ends_at, 1, 1, state, machine,
          ${set.status ?? "confirmed"}, keeps_place, total_cents, ${`FKGONE${++n}`}, ${`fk-gone-${n}`}, source, created_at
        from bookings where id = ${booked.body.id}`
      )
    const refused = { code: "23514", constraint: "time_not_available" }
    // A time of another offering at the same hour, a time that does not exist, a course that does not exist; held,
    // confirmed, or cancelled (a booking that takes no place is checked too).
    expect(await copy({ session: elsewhere.id })).toMatchObject(refused)
    expect(await copy({ session: crypto.randomUUID() })).toMatchObject(refused)
    expect(await copy({ session: crypto.randomUUID(), status: "cancelled" })).toMatchObject(refused)
    expect(await copy({ session: s.id, series: crypto.randomUUID() })).toMatchObject(refused)
    expect(await copy({ session: s.id })).toBeNull()
    // Moved around the engine to another offering's time or to none, whether it holds its place or not.
    expect(
      await run((q) => q`update bookings set session_id = ${elsewhere.id} where id = ${booked.body.id}`)
    ).toMatchObject(refused)
    expect(
      await run(
        (q) =>
          q`update bookings set session_id = ${crypto.randomUUID()}, status = 'cancelled' where id = ${booked.body.id}`
      )
    ).toMatchObject(refused)
    const places = await sql(
      app,
      (q) =>
        q<{
          id: string
          booked: number
        }>`select id, booked from sessions where id in (${s.id}, ${elsewhere.id}) order by id`
    )
    expect(Object.fromEntries(places.map((p) => [p.id, p.booked]))).toEqual({ [s.id]: 2, [elsewhere.id]: 0 })
    // The rows bookings point at are marked, never deleted.
    for (const [table, id] of [
      ["orgs", org.id],
      ["offerings", o.id],
      ["sessions", s.id],
      ["customers", booked.body.customer_id],
      ["series", crypto.randomUUID()]
    ]) {
      expect(await run((q) => q`delete from ${q(table)} where id = ${id}`)).toMatchObject({ code: "23001" })
    }
    const left = await sql(
      app,
      (q) =>
        q<{
          n: number
        }>`select count(*)::int as n from bookings b join sessions s on s.id = b.session_id join customers c on c.id = b.customer_id join orgs g on g.id = b.org_id where b.org_id = ${org.id}`
    )
    expect(left[0].n).toBe(2)
  })
})
