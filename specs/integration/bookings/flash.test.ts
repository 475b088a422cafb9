import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type BookingsOrg,
  bookedIn,
  bookingsOrg,
  expectError,
  expireInPlace,
  guest,
  ok,
  type Reply,
  type TestApp
} from "./helpers.ts"
import { liveRows, startRacing } from "./racing.ts"

// Flash sales: a crowd far larger than a time asks for it at once. The database's capacity rule gives the places; a
// full time is refused from what the instance heard of it (engine/services/bookings/gate.ts), and what it heard must
// never refuse a guest a place that a cancel or a lapsed hold gave back. On Postgres the crowd runs in parallel; on
// PGlite one transaction at a time, and the answers must be the same.

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  ;({ app, org } = await startRacing())
})
afterAll(() => app?.close())

const MIN = 60

/** Every request at once, each its own guest; the answers counted by status and code. */
const crowd = async (size: number, body: Record<string, unknown>, tag: string) => {
  const replies: Reply[] = await Promise.all(
    Array.from({ length: size }, (_, i) => org.book({ ...body, customer: guest(`${tag}-${i}`) }))
  )
  const tally: Record<string, number> = {}
  for (const r of replies) {
    const key = r.status === 201 ? "201" : `${r.status} ${r.body?.error?.code}`
    tally[key] = (tally[key] ?? 0) + 1
  }
  return { replies, tally }
}

describe.sequential("a crowd for one time", () => {
  it("300 guests for 20 places: exactly 20 booked, the other 280 told sold_out, no 5xx; the next ones too", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 20 })
    const { replies, tally } = await crowd(300, { offering_id: offering.id, session_id: session.id }, "crowd")
    expect(tally).toEqual({ "201": 20, "409 sold_out": 280 })
    for (const r of replies.filter((x) => x.status === 409))
      expect(r.body.error.message).toBe("not enough places left at this time")
    expect(await bookedIn(org, offering.id, session.id)).toBe(20)
    const live = await liveRows(app, org, offering.id)
    expect(live.length).toBe(20)
    expect(new Set(live.map((b) => b.id))).toEqual(
      new Set(replies.filter((r) => r.status === 201).map((r) => r.body.id))
    )
    // Guests arriving after the sale: the same truth.
    expect((await crowd(50, { offering_id: offering.id, session_id: session.id }, "late")).tally).toEqual({
      "409 sold_out": 50
    })
  })

  it("a time with a waitlist: the guests who found it full are each given a place on the waitlist", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 5, waitlist_enabled: true })
    const { replies, tally } = await crowd(60, { offering_id: offering.id, session_id: session.id }, "wl")
    expect(tally).toEqual({ "201": 5, "409 sold_out": 55 })
    const losers = replies.flatMap((r, i) => (r.status === 409 ? [i] : []))
    const joined = await Promise.all(
      losers.map((i) => org.call("POST", "/waitlist", { session_id: session.id, customer: guest(`wl-${i}`) }))
    )
    expect(joined.map((r) => r.status)).toEqual(losers.map(() => 201))
    const waiting = ok(await org.call("GET", `/waitlist?session_id=${session.id}`)) as { data: unknown[] }
    expect(waiting.data.length).toBe(55)
  })

  it("a cancel gives its place back to the very next guest", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 3 })
    const body = { offering_id: offering.id, session_id: session.id }
    const made = await Promise.all([1, 2, 3].map((n) => org.booked({ ...body, customer: guest(`c-${n}`) })))
    expectError(await org.book({ ...body, customer: guest("c-4") }), 409, "sold_out")
    for (const b of made) {
      ok(await org.act(b.id, "cancel"))
      expect((await org.book({ ...body, customer: guest(`c-again-${b.id}`) })).status).toBe(201)
      expectError(await org.book({ ...body, customer: guest("c-5") }), 409, "sold_out")
    }
    expect(await bookedIn(org, offering.id, session.id)).toBe(3)
  })

  it("a hold that runs out gives its place back to the next guest at once, the lapse job not yet run", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 2, price_cents: 1000 })
    const body = { offering_id: offering.id, session_id: session.id }
    const first = await org.booked({ ...body, customer: guest("h-1"), hold_minutes: 1 })
    await org.booked({ ...body, customer: guest("h-2"), hold_minutes: 30 })
    expectError(await org.book({ ...body, customer: guest("h-3") }), 409, "sold_out")
    // Its expiry passes (the clock does not move, so no job runs): only the gate's own reading of it can tell.
    await expireInPlace(app, first.id, new Date((await org.now()).getTime() - 1000))
    expect((await org.book({ ...body, customer: guest("h-4") })).status).toBe(201)
    expectError(await org.book({ ...body, customer: guest("h-5") }), 409, "sold_out")
  })

  it("the crowd meets lapsed holds: exactly the places they gave back are booked again", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 10, price_cents: 500 })
    const body = { offering_id: offering.id, session_id: session.id }
    for (let i = 0; i < 4; i++) await org.booked({ ...body, customer: guest(`lh-${i}`), hold_minutes: 1 })
    for (let i = 4; i < 10; i++) await org.booked({ ...body, customer: guest(`lh-${i}`), hold_minutes: 30 })
    expect((await crowd(40, body, "lh-before")).tally).toEqual({ "409 sold_out": 40 })
    await app.advance(MIN + 1)
    expect((await crowd(40, body, "lh-after")).tally).toEqual({ "201": 4, "409 sold_out": 36 })
    expect(await bookedIn(org, offering.id, session.id)).toBe(10)
  })

  it("a full time's offering paused meanwhile says offering_paused, and a bigger capacity sells again", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 1 })
    const body = { offering_id: offering.id, session_id: session.id }
    await org.booked({ ...body, customer: guest("p-1") })
    expectError(await org.book({ ...body, customer: guest("p-2") }), 409, "sold_out")
    ok(await org.call("PATCH", `/offerings/${offering.id}`, { active: false }))
    expectError(await org.book({ ...body, customer: guest("p-3") }), 409, "offering_paused")
    ok(await org.call("PATCH", `/offerings/${offering.id}`, { active: true, capacity: 2 }))
    expect((await org.book({ ...body, customer: guest("p-4") })).status).toBe(201)
    expectError(await org.book({ ...body, customer: guest("p-5") }), 409, "sold_out")
  })

  it("another org's guest asking for this full time is told the offering is not found, not that it is full", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 1 })
    await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("t-1") })
    expectError(
      await org.book({ offering_id: offering.id, session_id: session.id, customer: guest("t-2") }),
      409,
      "sold_out"
    )
    const other = await bookingsOrg(app)
    expectError(await other.book({ offering_id: offering.id, session_id: session.id }), 404, "not_found")
  })
})
