import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type BookingsOrg,
  bookingsOrg,
  expectError,
  hoursAhead,
  type Json,
  ok,
  startPinned,
  type TestApp
} from "./helpers.ts"

let app: TestApp
let org: BookingsOrg
let yoga: Json
let kayak: Json
let sessions: Json[]
/** Bookings made in setup, soonest start first. */
let all: Json[]
let cancelledId: string
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
  yoga = await org.offering({
    kind: "class",
    name: "Yoga",
    capacity: 20,
    max_per_booking: 5,
    questions: [{ id: "mat", label: "Own mat?", type: "yes_no" }]
  })
  kayak = await org.rental({ name: "Kayak", capacity: 5, price_cents: 700 })
  const now = await org.now()
  sessions = [
    await org.session(yoga.id, hoursAhead(now, 24)),
    await org.session(yoga.id, hoursAhead(now, 48)),
    await org.session(yoga.id, hoursAhead(now, 72))
  ]
  const people = [
    { email: "ann.smith@example.com", name: "Ann Smith" },
    { email: "bob@builders.io", name: "Bob Jones" },
    { email: "carla_x@example.com", name: "Carla 100%" }
  ]
  const made: Json[] = []
  for (let i = 0; i < 9; i++) {
    made.push(
      await org.booked({
        offering_id: yoga.id,
        session_id: sessions[i % 3].id,
        quantity: 1 + (i % 2),
        customer: people[i % 3]
      })
    )
  }
  made.push(
    await org.booked({
      offering_id: kayak.id,
      starts_at: new Date(`${hoursAhead(now, 48).toISOString().slice(0, 10)}T09:00:00Z`).toISOString(),
      customer: people[1]
    })
  )
  ok(await org.act(made[4].id, "cancel"))
  cancelledId = made[4].id
  all = [...made].sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.id.localeCompare(b.id))
})
afterAll(() => app.close())

const ids = (res: Json) => res.data.map((b: Json) => b.id)
const list = async (query: Record<string, string | number | undefined>) => ok(await org.list(query))

describe("bookings.list", () => {
  it("lists the org's bookings soonest first, each with its customer; desc serves the latest first", async () => {
    const page = await list({})
    expect(ids(page)).toEqual(all.map((b) => b.id))
    expect(page.next_after).toBeNull()
    for (const b of page.data) {
      expect(b.customer).toEqual({
        id: b.customer_id,
        name: expect.any(String),
        email: expect.any(String),
        phone: null
      })
      expect("handle" in b).toBe(false)
    }
    expect(ids(await list({ order: "desc" }))).toEqual(all.map((b) => b.id).reverse())
    expect(ids(await list({ order: "asc" }))).toEqual(all.map((b) => b.id))
  })

  it("filters by status, offering, session, customer and start time", async () => {
    const cancelled = (await list({ status: "cancelled" })).data
    expect(cancelled.map((b: Json) => b.id)).toEqual([cancelledId])
    expect(cancelled[0].status).toBe("cancelled")
    expect((await list({ status: "held" })).data.map((b: Json) => b.offering_id)).toEqual([kayak.id])
    expect((await list({ status: "confirmed" })).data.length).toBe(8)
    expect(ids(await list({ offering_id: kayak.id }))).toEqual(
      all.filter((b) => b.offering_id === kayak.id).map((b) => b.id)
    )
    expect(ids(await list({ session_id: sessions[1].id }))).toEqual(
      all.filter((b) => b.session_id === sessions[1].id).map((b) => b.id)
    )
    const bob = all.find((b) => b.offering_id === kayak.id)!.customer_id
    expect(ids(await list({ customer_id: bob }))).toEqual(all.filter((b) => b.customer_id === bob).map((b) => b.id))
    expect(ids(await list({ from: sessions[1].starts_at }))).toEqual(
      all.filter((b) => b.starts_at >= sessions[1].starts_at).map((b) => b.id)
    )
    expect(ids(await list({ to: sessions[1].starts_at }))).toEqual(
      all.filter((b) => b.starts_at < sessions[1].starts_at).map((b) => b.id)
    )
    expect(ids(await list({ from: sessions[1].starts_at, to: sessions[2].starts_at, offering_id: yoga.id }))).toEqual(
      all.filter((b) => b.session_id === sessions[1].id).map((b) => b.id)
    )
    expect((await list({ offering_id: "00000000-0000-4000-8000-000000000000" })).data).toEqual([])
  })

  it("finds a reference in any case, and q in any part of a name, email or reference", async () => {
    const target = all[3]
    expect(ids(await list({ reference: target.reference.toLowerCase() }))).toEqual([target.id])
    expect(ids(await list({ reference: target.reference }))).toEqual([target.id])
    expect(ids(await list({ reference: target.reference.slice(0, 4) }))).toEqual([])
    expect(ids(await list({ q: target.reference.slice(2, 6).toLowerCase() }))).toContain(target.id)
    const bySmith = await list({ q: "sMiTh" })
    expect(bySmith.data.length).toBe(3)
    for (const b of bySmith.data) expect(b.customer.name).toBe("Ann Smith")
    expect((await list({ q: "BUILDERS.IO" })).data.length).toBe(4)
    expect((await list({ q: "100%" })).data.length).toBe(3)
    expect((await list({ q: "_x@" })).data.length).toBe(3)
    expect((await list({ q: "%" })).data.length).toBe(3)
    expect((await list({ q: "a_n" })).data).toEqual([])
  })

  it("pages with limit and after; next_after is null after the last page, in either order", async () => {
    for (const order of ["asc", "desc"] as const) {
      const seen: string[] = []
      let after: string | undefined
      for (let i = 0; i < 10; i++) {
        const page = await list({ limit: 3, order, after })
        seen.push(...ids(page))
        if (page.next_after === null) break
        expect(page.data.length).toBe(3)
        expect(page.next_after).toBe(page.data[2].id)
        after = page.next_after
      }
      const expected = all.map((b) => b.id)
      expect(seen).toEqual(order === "asc" ? expected : [...expected].reverse())
    }
    const exact = await list({ limit: all.length })
    expect(exact.next_after).toBeNull()
    const oneShort = await list({ limit: all.length - 1 })
    expect(oneShort.next_after).toBe(all[all.length - 2].id)
  })

  it("refuses bad filters with 400 invalid_<field>", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ limit: "0" }, "invalid_limit"],
      [{ limit: "501" }, "invalid_limit"],
      [{ limit: "ten" }, "invalid_limit"],
      [{ status: "pending" }, "invalid_status"],
      [{ order: "newest" }, "invalid_order"],
      [{ from: "yesterday" }, "invalid_from"],
      [{ to: "2040-13-45" }, "invalid_to"],
      [{ offering_id: "yoga" }, "invalid_offering_id"],
      [{ customer_id: "1" }, "invalid_customer_id"],
      [{ session_id: "x" }, "invalid_session_id"],
      [{ after: "x" }, "invalid_after"],
      [{ after: "00000000-0000-4000-8000-000000000000" }, "invalid_after"],
      [{ reference: "R".repeat(41) }, "invalid_reference"],
      [{ q: "q".repeat(81) }, "invalid_q"]
    ]
    for (const [query, code] of cases) expectError(await org.list(query), 400, code)
    expect((await list({ limit: 500 })).data.length).toBe(all.length)
    expect((await list({ reference: "R".repeat(40), q: "q".repeat(80) })).data).toEqual([])
  })
})

describe("bookings.get", () => {
  it("returns the booking with its offering (id, name, kind, questions) and customer", async () => {
    const b = all.find((x) => x.offering_id === yoga.id)!
    const got = ok(await org.get(b.id))
    expect(got).toMatchObject({ id: b.id, reference: b.reference, status: expect.any(String) })
    expect(got.offering).toEqual({
      id: yoga.id,
      name: "Yoga",
      kind: "class",
      questions: [{ id: "mat", label: "Own mat?", type: "yes_no", required: false }]
    })
    expect(got.customer).toMatchObject({ id: b.customer_id, email: expect.stringContaining("@") })
    const r = all.find((x) => x.offering_id === kayak.id)!
    expect(ok(await org.get(r.id)).offering).toEqual({ id: kayak.id, name: "Kayak", kind: "rental", questions: [] })
    expectError(await org.get("00000000-0000-4000-8000-000000000000"), 404, "not_found")
    expectError(await org.get("nope"), 400, "invalid_id")
  })
})
