import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BookingsOrg, guest, ok, type TestApp } from "./helpers.ts"
import { crossLocks, startRacing } from "./racing.ts"

// Operations that cancel bookings as times or offerings go away lock the time (or offering) first, then its bookings.
// A transaction of the test's own that holds a booking and then asks for the time closes a lock cycle; Postgres ends
// the operation's transaction (it waited first). The operation runs again instead of answering 500, and what it did on
// the first try is gone: one cancellation, one event, one mail. Runs only when DATABASE_URL is set.

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  ;({ app, org } = await startRacing())
})
afterAll(() => app?.close())

const LOCKING_BOOKINGS = "select * from bookings b"

/** What a cancelled booking left behind: its status, its booking.cancelled events and its cancellation mails. */
const traces = async (bookingId: string) => {
  const events = (await org.events("booking.cancelled")).filter((e) => e.data.id === bookingId)
  const mails = (await org.mailKinds(bookingId)).filter((k) => k === "booking.cancelled")
  return { status: (await org.get(bookingId)).body.status, events: events.length, mails: mails.length }
}

describe.sequential("operations that deadlock with another transaction run again (Postgres)", () => {
  it("sessions.cancel cancels the time and its bookings once, not a 500", async () => {
    const { session, offering } = await org.classWithSession({}, 72)
    const b = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("dl-session") })
    const res = await crossLocks(
      app,
      { table: "bookings", id: b.id },
      { table: "sessions", id: session.id },
      LOCKING_BOOKINGS,
      () => org.call("POST", `/sessions/${session.id}/cancel`, { guests: "refund" })
    )
    expect([res.status, res.body.status]).toEqual([200, "cancelled"])
    expect(await traces(b.id)).toEqual({ status: "cancelled", events: 1, mails: 1 })
  })

  it("offerings.delete with cancel_bookings cancels the offering's bookings once, not a 500", async () => {
    const { session, offering } = await org.classWithSession({}, 80)
    const b = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("dl-offering") })
    const res = await crossLocks(
      app,
      { table: "bookings", id: b.id },
      { table: "offerings", id: offering.id },
      LOCKING_BOOKINGS,
      () => org.call("DELETE", `/offerings/${offering.id}?cancel_bookings=true`)
    )
    expect([res.status, res.body.cancelled]).toEqual([200, 1])
    expect(await traces(b.id)).toEqual({ status: "cancelled", events: 1, mails: 1 })
  })

  it("deleting a course's calendar entry with cancel_bookings cancels its bookings once, not a 500", async () => {
    const { offering, series, sessions } = await org.course()
    const b = await org.booked({ offering_id: offering.id, series_id: series.id, customer: guest("dl-series") })
    const res = await crossLocks(
      app,
      { table: "bookings", id: b.id },
      { table: "sessions", id: sessions[1].id },
      LOCKING_BOOKINGS,
      () => org.call("DELETE", `/series/${series.id}?cancel_bookings=true`)
    )
    // cancelled counts the booked times removed (the course's three), the booking is cancelled once.
    expect([res.status, res.body.cancelled]).toEqual([200, sessions.length])
    expect(await traces(b.id)).toEqual({ status: "cancelled", events: 1, mails: 1 })
    expect(ok(await org.call("GET", `/sessions?offering_id=${offering.id}`)).data).toEqual([])
  })
})
