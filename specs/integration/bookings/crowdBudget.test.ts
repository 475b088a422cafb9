import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { advanceTo, type BookingsOrg, bookingsOrg, expectError, guest, ok, PIN, type Reply } from "./helpers.ts"

// A crowd far larger than the instance's request budget (MAX_INFLIGHT 16 here, and no queue for a turn: MAX_QUEUED
// 0) for one time: the guests waiting their turn at the bookings gate are not work, so none is told 503 overloaded;
// every guest gets the truth (a place or sold_out), through REST and through the public (widget) surface, whose
// booking no longer reads the offering before the gate.

let app: TestApp
let org: BookingsOrg
let pk: string
beforeAll(async () => {
  app = await startApp({ maxInflight: 16, maxQueued: 0 })
  await advanceTo(app, PIN)
  org = await bookingsOrg(app)
  pk = ok(await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "publishable", name: "site" }), 201).key
})
afterAll(() => app?.close())

const tally = (replies: ReadonlyArray<Reply>) => {
  const out: Record<string, number> = {}
  for (const r of replies) {
    const key = r.status === 201 ? "201" : `${r.status} ${r.body?.error?.code}`
    out[key] = (out[key] ?? 0) + 1
  }
  return out
}

describe.sequential("a crowd past MAX_INFLIGHT", () => {
  it("200 guests through REST for 5 places: 5 booked, 195 sold_out, no 503", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 5 })
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        org.book({ offering_id: offering.id, session_id: session.id, customer: guest(`rest-${i}`) })
      )
    )
    expect(tally(replies)).toEqual({ "201": 5, "409 sold_out": 195 })
  })

  it("200 guests through the public surface for 5 places: 5 booked, 195 sold_out, no 503", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 5, waitlist_enabled: true })
    // The widget's page has read the offering with its key before the sale, as a page does: a key no instance knows
    // yet is looked up once per guest who presents it meanwhile (the key cache's own concern), and those lookups count.
    ok(await app.call(pk, "GET", `/api/v1/public/offerings/${offering.id}`))
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        app.call(pk, "POST", "/api/v1/public/bookings", {
          offering_id: offering.id,
          session_id: session.id,
          customer: guest(`pub-${i}`)
        })
      )
    )
    expect(tally(replies)).toEqual({ "201": 5, "409 sold_out": 195 })
  })

  it("the 195 told sold_out then join the time's waitlist at once: every one gets a place on it, no 503", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 5, waitlist_enabled: true })
    ok(await app.call(pk, "GET", `/api/v1/public/offerings/${offering.id}`))
    const replies = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const customer = guest(`join-${i}`)
        const booked = await app.call(pk, "POST", "/api/v1/public/bookings", {
          offering_id: offering.id,
          session_id: session.id,
          customer
        })
        if (booked.status !== 409) return booked
        // Joins of one time lock its row and the org's event clock: they wait their turn parked in memory, not as work.
        return app.call(pk, "POST", "/api/v1/public/waitlist", { session_id: session.id, customer })
      })
    )
    expect(tally(replies)).toEqual({ "201": 200 })
    const listed = ok(await org.call("GET", `/waitlist?session_id=${session.id}`))
    expect(listed.data.length).toBe(195)
  })

  it("the public surface still says not found for a paused offering's full time, and sold_out once it is active", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 1 })
    const body = (who: string) => ({ offering_id: offering.id, session_id: session.id, customer: guest(who) })
    const pub = (who: string) => app.call(pk, "POST", "/api/v1/public/bookings", body(who))
    expect((await pub("paused-1")).status).toBe(201)
    expectError(await pub("paused-2"), 409, "sold_out")
    ok(await org.call("PATCH", `/offerings/${offering.id}`, { active: false }))
    expectError(await pub("paused-3"), 404, "not_found")
    expectError(await org.book(body("paused-4")), 409, "offering_paused")
    ok(await org.call("PATCH", `/offerings/${offering.id}`, { active: true }))
    expectError(await pub("paused-5"), 409, "sold_out")
  })
})
