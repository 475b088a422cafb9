import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, type TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, clockNow, expectError, guest, ok, startPinned } from "../bookings/helpers.ts"

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
})
afterAll(() => app.close())

const promo = async (body: Record<string, unknown>) => ok(await org.call("POST", "/promo_codes", body), 201)
const usesOf = async (id: string) => ok(await org.call("GET", `/promo_codes/${id}`)).uses as number
const today = async () => (await clockNow(app)).toISOString().slice(0, 10)
const dayOffset = async (days: number) =>
  new Date((await clockNow(app)).getTime() + days * 86_400_000).toISOString().slice(0, 10)

describe("promo codes (promo_codes.*)", () => {
  it("are made, listed, read, switched off and deleted, each with its event", async () => {
    const { offering } = await org.classWithSession({ price_cents: 2000 })
    const made = await promo({
      code: "Summer-25",
      percent_off: 25,
      max_uses: 10,
      offering_ids: [offering.id],
      ends_on: await dayOffset(30)
    })
    expect(made).toMatchObject({
      code: "Summer-25",
      percent_off: 25,
      amount_off_cents: null,
      max_uses: 10,
      uses: 0,
      offering_ids: [offering.id],
      active: true,
      starts_on: null
    })
    expect(made.ends_on).toBe(await dayOffset(30))
    expect(ok(await org.call("GET", "/promo_codes")).data.map((p: { id: string }) => p.id)).toContain(made.id)
    expect(ok(await org.call("GET", `/promo_codes/${made.id}`))).toEqual(made)

    const off = ok(await org.call("PATCH", `/promo_codes/${made.id}`, { active: false }))
    expect(off.active).toBe(false)
    expect(off.updated_at).not.toBeNull()
    const gone = ok(await org.call("DELETE", `/promo_codes/${made.id}`))
    expect(gone.id).toBe(made.id)
    expectError(await org.call("GET", `/promo_codes/${made.id}`), 404, "not_found")

    const events = (await org.events()).filter((e) => e.type.startsWith("promo_code.") && e.data.id === made.id)
    expect(events.map((e) => e.type)).toEqual(["promo_code.created", "promo_code.updated", "promo_code.deleted"])
    expect(events[1].data.active).toBe(false)
  })

  it("refuses what a code cannot be", async () => {
    expectError(
      await org.call("POST", "/promo_codes", { code: "BOTH", percent_off: 10, amount_off_cents: 100 }),
      400,
      "invalid_discount"
    )
    expectError(await org.call("POST", "/promo_codes", { code: "NONE" }), 400, "invalid_discount")
    expect((await org.call("POST", "/promo_codes", { code: "no spaces", percent_off: 10 })).status).toBe(400)
    expect((await org.call("POST", "/promo_codes", { code: "AB", percent_off: 10 })).status).toBe(400)
    expect((await org.call("POST", "/promo_codes", { code: "OVER", percent_off: 101 })).status).toBe(400)
    expectError(
      await org.call("POST", "/promo_codes", {
        code: "DATES",
        percent_off: 5,
        starts_on: "2031-02-01",
        ends_on: "2031-01-01"
      }),
      400,
      "invalid_dates"
    )
    const other = await bookingsOrg(app)
    const foreign = await other.offering({ kind: "class", capacity: 5 })
    expectError(
      await org.call("POST", "/promo_codes", { code: "FOREIGN", percent_off: 5, offering_ids: [foreign.id] }),
      400,
      "invalid_offering_ids"
    )
    await promo({ code: "Twice", amount_off_cents: 100 })
    expectError(
      await org.call("POST", "/promo_codes", { code: "TWICE", amount_off_cents: 200 }),
      409,
      "promo_code_exists"
    )
    // Another org has its own codes, and cannot see this org's.
    expect((await other.call("POST", "/promo_codes", { code: "TWICE", amount_off_cents: 200 })).status).toBe(201)
    const mine = ok(await org.call("GET", "/promo_codes")).data.find((p: { code: string }) => p.code === "Twice")
    expectError(await other.call("GET", `/promo_codes/${mine.id}`), 404, "not_found")
    expectError(await other.call("PATCH", `/promo_codes/${mine.id}`, { active: false }), 404, "not_found")
  })

  it("takes its discount off a booking: percent rounded half up, an amount never past the total; bookings keep the code after it is deleted", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: 1999, capacity: 20 })
    const pct = await promo({ code: "TENOFF", percent_off: 10 })
    const held = ok(
      await org.book({ offering_id: offering.id, session_id: session.id, quantity: 1, promo_code: "tenoff" }),
      201
    )
    // 10% of 1999 is 199.9: 200 off, 1799 to pay, held for the checkout of what is left.
    expect(held).toMatchObject({ promo_code: "TENOFF", discount_cents: 200, total_cents: 1799, status: "held" })
    expect(held.checkout_url).not.toBeNull()
    expect(ok(await org.get(held.id))).toMatchObject({ promo_code: "TENOFF", discount_cents: 200, total_cents: 1799 })
    expect(await usesOf(pct.id)).toBe(1)

    await promo({ code: "FREEBIE", amount_off_cents: 5000 })
    const free = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        quantity: 2,
        customer: guest(2),
        promo_code: "FREEBIE"
      }),
      201
    )
    expect(free).toMatchObject({ status: "confirmed", discount_cents: 3998, total_cents: 0, promo_code: "FREEBIE" })
    const confirmed = (await org.events("booking.confirmed")).find((e) => e.data.id === free.id)
    expect(confirmed?.data).toMatchObject({ promo_code: "FREEBIE", discount_cents: 3998 })

    ok(await org.call("DELETE", `/promo_codes/${pct.id}`))
    expect(ok(await org.get(held.id))).toMatchObject({ promo_code: "TENOFF", discount_cents: 200 })
  })

  it("says why a code does not apply: unknown, off, not started, ended, used up, another offering", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: 1000, capacity: 20 })
    const elsewhere = await org.offering({ kind: "class", capacity: 5 })
    const book = (code: string) =>
      org.book({ offering_id: offering.id, session_id: session.id, customer: guest(`r-${code}`), promo_code: code })
    expectError(await book("NOPE"), 400, "promo_code_unknown")
    await promo({ code: "SLEEPING", percent_off: 5, active: false })
    expectError(await book("SLEEPING"), 400, "promo_code_inactive")
    await promo({ code: "LATER", percent_off: 5, starts_on: await dayOffset(3) })
    expectError(await book("LATER"), 400, "promo_code_not_started")
    await promo({ code: "PAST", percent_off: 5, starts_on: await dayOffset(-10), ends_on: await dayOffset(-1) })
    expectError(await book("PAST"), 400, "promo_code_expired")
    await promo({ code: "TODAY", percent_off: 5, starts_on: await today(), ends_on: await today() })
    expect((await book("TODAY")).status).toBe(201)
    await promo({ code: "ONCE", percent_off: 5, max_uses: 1 })
    expect((await book("ONCE")).status).toBe(201)
    expectError(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: guest("again"),
        promo_code: "ONCE"
      }),
      400,
      "promo_code_used_up"
    )
    await promo({ code: "OTHERONLY", percent_off: 5, offering_ids: [elsewhere.id] })
    expectError(await book("OTHERONLY"), 400, "promo_code_not_for_offering")
    // A refused code books nothing and takes no place.
    const sessions = await org.sessions(offering.id)
    expect(sessions.find((s) => s.id === session.id)?.booked).toBe(2)
  })

  it("gives the use back when the hold lapses unpaid; max_uses cannot drop below the uses", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: 1000, capacity: 20 })
    const code = await promo({ code: "LAPSE", percent_off: 50, max_uses: 1 })
    const held = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: guest("lapse"),
        promo_code: "LAPSE",
        hold_minutes: 1
      }),
      201
    )
    expect(held.status).toBe("held")
    expect(await usesOf(code.id)).toBe(1)
    await app.advance(120)
    expect(await usesOf(code.id)).toBe(0)
    const again = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: guest("second"),
        promo_code: "LAPSE"
      }),
      201
    )
    expect(again.discount_cents).toBe(500)
    ok(await org.call("PATCH", `/promo_codes/${code.id}`, { max_uses: 5 }))
    ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: guest("third"),
        promo_code: "LAPSE"
      }),
      201
    )
    expect(await usesOf(code.id)).toBe(2)
    expectError(await org.call("PATCH", `/promo_codes/${code.id}`, { max_uses: 1 }), 409, "max_uses_below_uses")
  })

  it("under 100 parallel bookings, a code with max_uses 7 is used exactly 7 times", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: 1000, capacity: 200 })
    const code = await promo({ code: "RACE", amount_off_cents: 100, max_uses: 7 })
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        org.book({ offering_id: offering.id, session_id: session.id, customer: guest(`race-${i}`), promo_code: "RACE" })
      )
    )
    const statuses = results.map((r) => `${r.status} ${r.body?.error?.code ?? ""}`.trim())
    expect(statuses.filter((s) => s === "201")).toHaveLength(7)
    expect(statuses.filter((s) => s !== "201").every((s) => s === "400 promo_code_used_up")).toBe(true)
    expect(await usesOf(code.id)).toBe(7)
    const [{ n }] = await sql(
      app,
      (s) =>
        s<{
          n: number
        }>`select count(*)::int as n from bookings where promo_code = 'RACE' and offering_id = ${offering.id}`
    )
    expect(n).toBe(7)
    expect((await org.sessions(offering.id)).find((s) => s.id === session.id)?.booked).toBe(7)
  })
})
