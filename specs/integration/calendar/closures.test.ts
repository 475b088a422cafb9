import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type BookingsOrg,
  bookingsOrg,
  expectError,
  guest,
  type Json,
  ok,
  startPinned,
  type TestApp
} from "../bookings/helpers.ts"

// The engine clock reads 2040-01-02 12:00 UTC; these orgs run on UTC.
let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
})
afterAll(() => app.close())

const close = (body: Json) => org.call("POST", "/closures", body)
const starts = async (offeringId: string, from: string, to = from, by: BookingsOrg = org) =>
  (ok(await by.call("GET", `/offerings/${offeringId}/availability?from=${from}&to=${to}`)).data as Json[]).map(
    (s) => s.starts_at as string
  )

describe("closures (closures.*)", () => {
  it("close a day for the org: no times on it, a booking into it is 409 closed with the note; deleting opens it", async () => {
    const o = await org.hoursAppointment()
    expect(await starts(o.id, "2040-01-05")).toContain("2040-01-05T10:00:00.000Z")
    const closure = ok(await close({ starts_on: "2040-01-05", note: "Closed for the holidays" }), 201)
    expect(closure).toMatchObject({
      offering_id: null,
      starts_on: "2040-01-05",
      ends_on: "2040-01-05",
      open_hours: [],
      note: "Closed for the holidays",
      starts_at: "2040-01-05T00:00:00.000Z",
      ends_at: "2040-01-06T00:00:00.000Z"
    })
    const day = ok(await org.call("GET", `/offerings/${o.id}/availability?from=2040-01-04&to=2040-01-06`))
    expect(day.data.filter((s: Json) => s.starts_at.startsWith("2040-01-05"))).toEqual([])
    expect(day.data.some((s: Json) => s.starts_at.startsWith("2040-01-04"))).toBe(true)
    expect(day.data.some((s: Json) => s.starts_at.startsWith("2040-01-06"))).toBe(true)
    expect(day.closures).toEqual([
      { starts_on: "2040-01-05", ends_on: "2040-01-05", open_hours: [], note: "Closed for the holidays" }
    ])
    const refused = await org.book({ offering_id: o.id, starts_at: "2040-01-05T10:00:00.000Z" })
    expectError(refused, 409, "closed")
    expect(refused.body.error.message).toContain("Closed for the holidays")

    expect(ok(await org.call("GET", `/closures/${closure.id}`))).toEqual(closure)
    expect(ok(await org.call("GET", "/closures?from=2040-01-05&to=2040-01-05")).data).toEqual([closure])
    expect(ok(await org.call("GET", "/closures?from=2040-01-06")).data).toEqual([])
    expect(ok(await org.call("DELETE", `/closures/${closure.id}`))).toEqual(closure)
    expectError(await org.call("GET", `/closures/${closure.id}`), 404, "not_found")
    await org.booked({ offering_id: o.id, starts_at: "2040-01-05T10:00:00.000Z" })
    const events = (await org.events()).filter((e) => e.type.startsWith("closure."))
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["closure.created", closure],
      ["closure.deleted", closure]
    ])
  })

  it("open other hours that day: the closure's hours take the weekly hours' place", async () => {
    const o = await org.hoursAppointment({}, [{ weekday: 6, start_time: "09:00", end_time: "17:00" }])
    ok(
      await close({
        offering_id: o.id,
        starts_on: "2040-01-07",
        open_hours: [
          { start_time: "12:00", end_time: "14:00" },
          { start_time: "18:00", end_time: "19:00" }
        ]
      }),
      201
    )
    expect(await starts(o.id, "2040-01-07")).toEqual([
      "2040-01-07T12:00:00.000Z",
      "2040-01-07T13:00:00.000Z",
      "2040-01-07T18:00:00.000Z"
    ])
    expectError(await org.book({ offering_id: o.id, starts_at: "2040-01-07T10:00:00.000Z" }), 409, "closed")
    await org.booked({ offering_id: o.id, starts_at: "2040-01-07T18:00:00.000Z" })
    // Another offering keeps its hours: the closure was this offering's only.
    const other = await org.hoursAppointment({}, [{ weekday: 6, start_time: "09:00", end_time: "11:00" }])
    expect(await starts(other.id, "2040-01-07")).toEqual(["2040-01-07T09:00:00.000Z", "2040-01-07T10:00:00.000Z"])
  })

  it("rentals: not picked up on a closed day, nor returned on one; a rental over a closed day is kept", async () => {
    const o = await org.rental({ duration_minutes: 1440, max_periods: 3 })
    ok(await close({ offering_id: o.id, starts_on: "2040-01-10" }), 201)
    expectError(await org.book({ offering_id: o.id, starts_at: "2040-01-10T09:00:00.000Z" }), 409, "closed")
    expectError(await org.book({ offering_id: o.id, starts_at: "2040-01-09T09:00:00.000Z" }), 409, "closed")
    await org.booked({ offering_id: o.id, starts_at: "2040-01-09T09:00:00.000Z", periods: 2 })
    expect((await starts(o.id, "2040-01-08", "2040-01-11")).map((s) => s.slice(0, 10))).not.toContain("2040-01-10")
  })

  it("a closure over booked times: previewed, refused without a choice, then refund cancels them", async () => {
    const c = await org.offering({ kind: "class", capacity: 5 })
    const booked = await org.session(c.id, new Date("2040-01-12T10:00:00Z"))
    const free = await org.session(c.id, new Date("2040-01-12T15:00:00Z"))
    const later = await org.session(c.id, new Date("2040-01-13T10:00:00Z"))
    const b = await org.booked({ offering_id: c.id, session_id: booked.id, quantity: 2 })
    const a = await org.hoursAppointment()
    const onHours = await org.booked({ offering_id: a.id, starts_at: "2040-01-12T11:00:00.000Z", customer: guest(2) })
    const body = { starts_on: "2040-01-12", note: "Boiler repairs" }
    const preview = ok(await org.call("POST", "/closures/preview", body))
    expect(preview.times).toEqual([
      {
        session_id: booked.id,
        offering_id: c.id,
        starts_at: "2040-01-12T10:00:00.000Z",
        ends_at: booked.ends_at,
        booked: 2
      }
    ])
    expect(preview.bookings).toEqual([
      {
        booking_id: onHours.id,
        offering_id: a.id,
        starts_at: "2040-01-12T11:00:00.000Z",
        ends_at: "2040-01-12T12:00:00.000Z",
        status: "confirmed"
      }
    ])
    expect(preview.closure).toMatchObject({ starts_on: "2040-01-12", note: "Boiler repairs" })
    expect(ok(await org.call("GET", "/closures?from=2040-01-12&to=2040-01-12")).data).toEqual([])
    expectError(await close(body), 409, "closure_has_bookings")
    expect(ok(await org.get(b.id)).status).toBe("confirmed")

    ok(await close({ ...body, guests: "refund" }), 201)
    expect(ok(await org.get(b.id))).toMatchObject({ status: "cancelled" })
    expect(ok(await org.get(onHours.id))).toMatchObject({ status: "cancelled", cancel_reason: "closed" })
    const times = await org.sessions(c.id)
    expect(times.find((s) => s.id === booked.id)?.status).toBe("cancelled")
    // A time nobody booked stays scheduled, left out while the closure stands; the next day is offered.
    expect(times.find((s) => s.id === free.id)?.status).toBe("scheduled")
    expect(await starts(c.id, "2040-01-12", "2040-01-13")).toEqual([later.starts_at])
    expectError(await org.book({ offering_id: c.id, session_id: free.id }), 409, "closed")
    const types = (await org.events()).map((e) => e.type)
    expect(types.slice(types.lastIndexOf("session.cancelled") - 1)).toEqual([
      "booking.cancelled",
      "session.cancelled",
      "booking.cancelled",
      "closure.created"
    ])
  })

  it("guests choose: bookings inside stay confirmed with choose_by while their guests pick another time", async () => {
    const a = await org.hoursAppointment()
    const b = await org.booked({ offering_id: a.id, starts_at: "2040-01-15T09:00:00.000Z", customer: guest(3) })
    ok(await close({ offering_id: a.id, starts_on: "2040-01-15", ends_on: "2040-01-16", guests: "choose" }), 201)
    const called = ok(await org.get(b.id))
    expect(called.status).toBe("confirmed")
    expect(called.choose_by).not.toBeNull()
    expect(await org.mailKinds(b.id)).toContain("booking.called_off")
    expectError(await org.act(b.id, "move", { starts_at: "2040-01-16T09:00:00.000Z" }), 409, "closed")
    expect(ok(await org.act(b.id, "move", { starts_at: "2040-01-17T09:00:00.000Z" })).starts_at).toBe(
      "2040-01-17T09:00:00.000Z"
    )
  })

  it("refuses what is not a closure with a clear 400 or 404, and keeps each org's closures its own", async () => {
    expectError(await close({ starts_on: "2040-01-20", ends_on: "2040-01-19" }), 400, "invalid_dates")
    expectError(await close({ starts_on: "2040-01-20", ends_on: "2041-02-20" }), 400, "invalid_dates")
    expectError(
      await close({ starts_on: "2040-01-20", open_hours: [{ start_time: "14:00", end_time: "10:00" }] }),
      400,
      "invalid_open_hours"
    )
    expect((await close({ starts_on: "2040-02-30" })).status).toBe(400)
    expect((await close({ starts_on: "2040-01-20", extra: 1 })).status).toBe(400)
    expect((await close({ starts_on: "2040-01-20", note: "x".repeat(501) })).status).toBe(400)
    const other = await bookingsOrg(app)
    const theirs = await other.hoursAppointment()
    expectError(await close({ starts_on: "2040-01-20", offering_id: theirs.id }), 404, "not_found")
    const mine = ok(await close({ starts_on: "2040-01-21" }), 201)
    expectError(await other.call("GET", `/closures/${mine.id}`), 404, "not_found")
    expectError(await other.call("DELETE", `/closures/${mine.id}`), 404, "not_found")
    expect(ok(await other.call("GET", "/closures")).data).toEqual([])
    expect(await starts(theirs.id, "2040-01-21", "2040-01-21", other)).toContain("2040-01-21T09:00:00.000Z")
  })
})
