import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, expectError, guest, ok, startPinned } from "./helpers.ts"

let app: TestApp
let org: BookingsOrg
let pk: string
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
  pk = ok(await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "publishable", name: "site" }), 201).key
})
afterAll(() => app.close())

/** A guest booking through the widget's surface: a priced time is held until paid. */
const hold = (body: Record<string, unknown>) => app.call(pk, "POST", "/api/v1/public/bookings", body)
const paidClass = (capacity: number, hours = 48) =>
  org.classWithSession({ price_cents: 1000, capacity, max_per_booking: capacity }, hours)

describe("caps on guests' unpaid holds", () => {
  it("the org shows and changes them; bad values are 400", async () => {
    const shown = ok(await org.call("GET", "/org"))
    expect(shown).toMatchObject({ max_guest_holds: 3, max_held_percent: 50 })
    expectError(await org.call("PATCH", "/org", { max_held_percent: 0 }), 400, "invalid_max_held_percent")
    expectError(await org.call("PATCH", "/org", { max_guest_holds: 1.5 }), 400, "invalid_max_guest_holds")
    expect(ok(await org.call("PATCH", "/org", { max_held_percent: null }))).toMatchObject({ max_held_percent: null })
    expect(ok(await org.call("PATCH", "/org", { max_held_percent: 50 }))).toMatchObject({ max_held_percent: 50 })
  })

  it("one guest holds at most max_guest_holds at once; the business's own holds and paid-for bookings do not count", async () => {
    const times = await Promise.all([1, 2, 3, 4, 5].map((i) => paidClass(10, 48 + i)))
    for (const t of times.slice(0, 3)) {
      expect(
        ok(await hold({ offering_id: t.offering.id, session_id: t.session.id, customer: guest("greedy") }), 201).status
      ).toBe("held")
    }
    const refused = await hold({
      offering_id: times[3].offering.id,
      session_id: times[3].session.id,
      customer: { email: "GUESTGREEDY@example.com", name: "G" }
    })
    expectError(refused, 409, "too_many_holds")
    expect(refused.body.error.message).toMatch(/3 unpaid bookings held/)
    // The business books for the same guest with its secret key: not capped.
    expect(
      ok(
        await org.book({
          offering_id: times[3].offering.id,
          session_id: times[3].session.id,
          customer: guest("greedy")
        }),
        201
      ).status
    ).toBe("held")
    // Another guest is not affected.
    ok(
      await hold({ offering_id: times[4].offering.id, session_id: times[4].session.id, customer: guest("modest") }),
      201
    )
    // Once the holds lapse, the guest may hold again.
    await app.advance(31 * 60)
    ok(
      await hold({ offering_id: times[4].offering.id, session_id: times[4].session.id, customer: guest("greedy") }),
      201
    )
    // No cap: as many as they like.
    ok(await org.call("PATCH", "/org", { max_guest_holds: null }))
    for (const t of times.slice(0, 3))
      ok(await hold({ offering_id: t.offering.id, session_id: t.session.id, customer: guest("greedy") }), 201)
    ok(await org.call("PATCH", "/org", { max_guest_holds: 3 }))
  })

  it("guests' holds take at most max_held_percent of a time's places, unless a hold is the only one there", async () => {
    const t = await paidClass(10)
    const at = { offering_id: t.offering.id, session_id: t.session.id }
    // A party of 8 alone may hold: the rule is about several holds filling a time, not a large party.
    const big = ok(await hold({ ...at, quantity: 8, customer: guest("party") }), 201)
    expectError(await hold({ ...at, quantity: 1, customer: guest("late1") }), 409, "places_on_hold")
    ok(await org.act(big.id, "cancel"))
    ok(await hold({ ...at, quantity: 3, customer: guest("h1") }), 201)
    ok(await hold({ ...at, quantity: 2, customer: guest("h2") }), 201)
    const refused = await hold({ ...at, quantity: 1, customer: guest("h3") })
    expectError(refused, 409, "places_on_hold")
    expect(refused.body.error.message).toMatch(/try again after 2040-/)
    // Confirmed bookings take places but are not holds: the business's own booking and a paid one leave the cap as it was.
    ok(await org.book({ ...at, quantity: 2, customer: guest("walkin") }), 201)
    expectError(await hold({ ...at, quantity: 1, customer: guest("h4") }), 409, "places_on_hold")
    ok(await org.call("PATCH", "/org", { max_held_percent: 80 }))
    ok(await hold({ ...at, quantity: 1, customer: guest("h5") }), 201)
    ok(await org.call("PATCH", "/org", { max_held_percent: 50 }))
  })

  it("20 guests racing for a 10-place time: exactly 5 holds, the rest places_on_hold, never more", async () => {
    const t = await paidClass(10)
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        hold({ offering_id: t.offering.id, session_id: t.session.id, customer: guest(`race${i}`) })
      )
    )
    const codes = results.map((r) => (r.status === 201 ? "held" : (r.body as { error: { code: string } }).error.code))
    expect(codes.filter((c) => c === "held")).toHaveLength(5)
    expect(codes.filter((c) => c !== "held").every((c) => c === "places_on_hold")).toBe(true)
    const [s] = (await org.sessions(t.offering.id)).filter((x) => x.id === t.session.id)
    expect(s.booked).toBe(5)
  })

  it("one guest racing 8 holds on 8 times at once gets exactly max_guest_holds", async () => {
    const times = await Promise.all(Array.from({ length: 8 }, (_, i) => paidClass(10, 60 + i)))
    const results = await Promise.all(
      times.map((t) => hold({ offering_id: t.offering.id, session_id: t.session.id, customer: guest("racer") }))
    )
    expect(results.filter((r) => r.status === 201)).toHaveLength(3)
    for (const r of results.filter((r) => r.status !== 201)) expectError(r, 409, "too_many_holds")
  })
})
