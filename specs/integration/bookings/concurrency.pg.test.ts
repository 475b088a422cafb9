import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BookingsOrg, guest, type TestApp } from "./helpers.ts"
import { customers, liveRows as liveRowsOf, startRacing } from "./racing.ts"

// Races only real Postgres can stage: the test holds a row lock in a transaction of its own while requests queue on it,
// which needs more than PGlite's one connection. Runs only when DATABASE_URL is set (see vitest.config.ts).

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  ({ app, org } = await startRacing())
})
afterAll(() => app?.close())

const liveRows = (offeringId: string) => liveRowsOf(app, org, offeringId)

describe.sequential("the last places, raced while a row is locked (Postgres)", () => {
  it("bookings that found a time before it was cancelled, and waited on its lock, are refused", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 50 })
    // Hold the session's row lock, queue sessions.cancel on it, then bookings (which find the time still scheduled).
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    let locked = () => {}
    const isLocked = new Promise<void>((resolve) => (locked = resolve))
    const holder = app.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`select id from sessions where id = ${session.id} for update`
        locked()
        yield* Effect.promise(() => released)
      }))).pipe(Effect.orDie))
    await isLocked
    const cancel = org.call("POST", `/sessions/${session.id}/cancel`, { guests: "refund" })
    await new Promise((r) => setTimeout(r, 300))
    const bookings = Promise.all(Array.from({ length: 10 }, (_, i) => org.book({ offering_id: offering.id, session_id: session.id, customer: customers("late", i) })))
    await new Promise((r) => setTimeout(r, 500))
    release()
    await holder
    expect((await cancel).status).toBe(200)
    expect((await bookings).map((r) => `${r.status} ${r.body?.error?.code}`)).toEqual(Array.from({ length: 10 }, () => "409 time_not_available"))
    expect(await liveRows(offering.id)).toEqual([])
  })

  it("a confirm that waited while its hold lapsed and the seat was taken is refused, not oversold", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 1, price_cents: 100 })
    const hold = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("slow-payer") })
    // Hold the booking's row lock while confirm waits for it, then do what the lapse job and another guest would.
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    let locked = () => {}
    const isLocked = new Promise<void>((resolve) => (locked = resolve))
    const holder = app.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (q) =>
      q.withTransaction(Effect.gen(function*() {
        yield* q`select id from bookings where id = ${hold.id} for update`
        locked()
        yield* Effect.promise(() => released)
        yield* q`update bookings set keeps_place = false, state = 'held.lapsed' where id = ${hold.id}`
        yield* q`insert into bookings (id, org_id, offering_id, customer_id, session_id, starts_at, ends_at, quantity, places, state, machine,
            status, keeps_place, total_cents, reference, handle, source, created_at, confirmed_at)
          select gen_random_uuid(), org_id, offering_id, customer_id, session_id, starts_at, ends_at, 1, 1, 'confirmed.plain', machine,
            'confirmed', true, total_cents, 'TAKER001', 'taker-handle-0001', source, created_at, created_at
          from bookings where id = ${hold.id}`
      }))).pipe(Effect.orDie))
    await isLocked
    const confirm = org.act(hold.id, "confirm")
    await new Promise((r) => setTimeout(r, 400))
    release()
    await holder
    const res = await confirm
    expect(`${res.status} ${res.body?.error?.code}`).toBe("409 sold_out")
    expect((await org.sessions(offering.id)).map((s) => s.booked)).toEqual([1])
    expect((await liveRows(offering.id)).length).toBe(1)
  })
})
