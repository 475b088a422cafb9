import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Signals } from "../../../engine/ports/Signals.ts"
import { type Reply, startApp, type TestApp } from "../../support/app.ts"
import { dropTestDatabase } from "../../support/database.ts"
import { clockNow, expireInPlace, guest, hoursAhead } from "./helpers.ts"

// Two instances of the engine over one Postgres database, each with its own memory of which times are full (the
// places gate) and of API keys, both kept by notices through Postgres (LISTEN/NOTIFY).
const name = `be_flash_${randomBytes(5).toString("hex")}`
let a: TestApp
let b: TestApp
let org: { id: string; key: string; keyId: string }
beforeAll(async () => {
  a = await startApp({}, { database: name })
  b = await startApp({}, { database: name })
  org = await a.newOrg({ timezone: "UTC", plan: "scale" })
})
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()])
  await dropTestDatabase(name)
})

const on = (app: TestApp, method: string, path: string, body?: unknown) =>
  app.call(org.key, method, `/api/v1${path}`, body)
const code = (r: Reply) => (r.status === 201 ? "201" : `${r.status} ${r.body?.error?.code}`)

/** A class (free unless priced) with one time tomorrow. */
const timeOf = async (capacity: number, extra: Record<string, unknown> = {}) => {
  const offering = (await on(a, "POST", "/offerings", { name: "Flash", kind: "class", capacity, ...extra })).body
  const made = await on(a, "POST", "/sessions", {
    offering_id: offering.id,
    starts_at: hoursAhead(new Date(), 30).toISOString()
  })
  expect(made.status).toBe(201)
  return { offering_id: offering.id as string, session_id: made.body.data[0].id as string }
}
const book = (app: TestApp, time: { offering_id: string; session_id: string }, who: string, extra = {}) =>
  on(app, "POST", "/bookings", { ...time, customer: guest(who), ...extra })

describe.sequential("a full time across two instances", () => {
  it("a crowd spread over both: exactly the time's places are booked, every other guest told sold_out", async () => {
    const time = await timeOf(20)
    const replies = await Promise.all(
      Array.from({ length: 300 }, (_, i) => book(i % 2 === 0 ? a : b, time, `two-${i}`))
    )
    const tally: Record<string, number> = {}
    for (const r of replies) tally[code(r)] = (tally[code(r)] ?? 0) + 1
    expect(tally).toEqual({ "201": 20, "409 sold_out": 280 })
  })

  it("both refuse a full time while its table is locked: the refusal needs no transaction and no row lock", async () => {
    const time = await timeOf(1)
    expect(code(await book(a, time, "lock-1"))).toBe("201")
    expect(code(await book(a, time, "lock-2"))).toBe("409 sold_out")
    expect(code(await book(b, time, "lock-3"))).toBe("409 sold_out")
    const holder = new pg.Client({ connectionString: `${process.env.DATABASE_URL?.replace(/\/[^/]*$/, "")}/${name}` })
    await holder.connect()
    try {
      await holder.query("begin")
      await holder.query("lock table sessions, bookings in access exclusive mode")
      const refused = await Promise.all([book(a, time, "lock-4"), book(b, time, "lock-5")])
      expect(refused.map(code)).toEqual(["409 sold_out", "409 sold_out"])
    } finally {
      await holder.query("rollback").catch(() => {})
      await holder.end()
    }
  })

  it("a place cancelled on one instance is the next guest's on the other at once", async () => {
    const time = await timeOf(2)
    const first = await book(a, time, "cx-1")
    expect(code(await book(a, time, "cx-2"))).toBe("201")
    expect(code(await book(b, time, "cx-3"))).toBe("409 sold_out")
    expect((await on(a, "POST", `/bookings/${first.body.id}/cancel`, {})).status).toBe(200)
    expect(code(await book(b, time, "cx-4"))).toBe("201")
    expect(code(await book(a, time, "cx-5"))).toBe("409 sold_out")
    expect(code(await book(b, time, "cx-6"))).toBe("409 sold_out")
  })

  it("a hold made on one instance that runs out is the next guest's on the other at once", async () => {
    const time = await timeOf(2, { price_cents: 900 })
    const hold = await book(a, time, "hx-1")
    expect(hold.body.status).toBe("held")
    expect(code(await book(a, time, "hx-2"))).toBe("201")
    expect(code(await book(b, time, "hx-3"))).toBe("409 sold_out")
    // Each instance's test clock stands still: the hold ran out a second before the earlier of the two.
    const now = Math.min((await clockNow(a)).getTime(), (await clockNow(b)).getTime())
    await expireInPlace(a, hold.body.id, new Date(now - 1000))
    expect(code(await book(b, time, "hx-4"))).toBe("201")
    expect(code(await book(a, time, "hx-5"))).toBe("409 sold_out")
  })
})

describe("API keys across two instances", () => {
  it("a key revoked on one instance is refused on the other as soon as it has heard what committed before", async () => {
    const other = await a.newOrg()
    for (const app of [a, b]) expect((await app.call(other.key, "GET", "/api/v1/offerings")).status).toBe(200)
    expect((await a.admin("DELETE", `/api_keys/${other.keyId}`)).status).toBe(200)
    // b's listener has heard every notice committed before this point: the revocation among them.
    expect(await b.runtime.runPromise(Effect.flatMap(Signals, (s) => s.sync))).toBe(true)
    const onB = await b.call(other.key, "GET", "/api/v1/offerings")
    expect({ status: onB.status, code: onB.body.error?.code }).toEqual({ status: 401, code: "unauthorized" })
  })
})
