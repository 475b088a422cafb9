import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { allEvents, expectError, type Json, offerings, UNKNOWN_ID } from "./fixtures.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

const fresh = async () => {
  const org = await app.newOrg()
  return { org, api: offerings(app, org.key) }
}

describe("offerings.list, get, update, delete", () => {
  it("lists the org's offerings, paused ones included, filtered by kind", async () => {
    const { api } = await fresh()
    const yoga = await api.create({ name: "Yoga", kind: "class" })
    const paused = await api.create({ name: "Pottery", kind: "class", active: false })
    const massage = await api.create({ name: "Massage", kind: "appointment" })
    const kayak = await api.create({ name: "Kayak", kind: "rental" })
    const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((o) => o.id).sort()
    const all = await api.list()
    expect(all.status).toBe(200)
    expect(ids(all)).toEqual([yoga.id, paused.id, massage.id, kayak.id].sort())
    expect(all.body.data.find((o: Json) => o.id === paused.id)).toEqual(paused)
    expect(ids(await api.list("?kind=class"))).toEqual([yoga.id, paused.id].sort())
    expect(ids(await api.list("?kind=appointment"))).toEqual([massage.id])
    expect(ids(await api.list("?kind=rental"))).toEqual([kayak.id])
    expectError(await api.list("?kind=workshop"), 400, "invalid_kind")
  })

  it("lists nothing for a new org", async () => {
    const { api } = await fresh()
    expect((await api.list()).body).toEqual({ data: [] })
  })

  it("gets an offering with its questions", async () => {
    const { api } = await fresh()
    const created = await api.create({
      name: "Dive",
      kind: "class",
      questions: [{ id: "cert", label: "Certificate level?", type: "text", required: true }]
    })
    const got = await api.get(created.id)
    expect(got.status).toBe(200)
    expect(got.body).toEqual(created)
    expect(got.body.questions).toEqual([{ id: "cert", label: "Certificate level?", type: "text", required: true }])
  })

  it("updates only the fields sent and stamps updated_at", async () => {
    const { api } = await fresh()
    const created = await api.create({ name: "Yoga", kind: "class", capacity: 12, description: "Morning flow" })
    await app.advance(60)
    const now = (await app.admin("GET", "/clock")).body.now
    const updated = await api.patch(created.id, { name: "Hot yoga", price_cents: 1500 })
    expect(updated.status).toBe(200)
    expect(updated.body).toEqual({ ...created, name: "Hot yoga", price_cents: 1500, updated_at: now })
    expect((await api.get(created.id)).body).toEqual(updated.body)
  })

  it("accepts an empty update", async () => {
    const { api } = await fresh()
    const created = await api.create({ name: "Yoga", kind: "class" })
    const updated = await api.patch(created.id, {})
    expect(updated.status).toBe(200)
    expect({ ...updated.body, updated_at: null }).toEqual(created)
  })

  it("deletes an offering, which then answers 404 everywhere", async () => {
    const { api } = await fresh()
    const kept = await api.create({ name: "Kept", kind: "rental" })
    const gone = await api.create({ name: "Gone", kind: "rental" })
    const deleted = await api.remove(gone.id)
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ cancelled: 0, refunded: 0, refunding: 0, refund_failed: 0 })
    expectError(await api.get(gone.id), 404, "not_found")
    expectError(await api.patch(gone.id, { name: "Back" }), 404, "not_found")
    expectError(await api.remove(gone.id), 404, "not_found")
    expectError(await api.getHours(gone.id), 404, "not_found")
    expectError(await api.setHours(gone.id, { hours: [] }), 404, "not_found")
    expect((await api.list()).body.data).toEqual([kept])
  })

  it("deletes with cancel_bookings=true as well, and refuses a cancel_bookings that is not a boolean", async () => {
    const { api } = await fresh()
    const target = await api.create({ name: "Target", kind: "class" })
    expectError(await api.remove(target.id, "?cancel_bookings=yes"), 400, "invalid_cancel_bookings")
    expect((await api.get(target.id)).status).toBe(200)
    expect((await api.remove(target.id, "?cancel_bookings=true")).body).toEqual({
      cancelled: 0,
      refunded: 0,
      refunding: 0,
      refund_failed: 0
    })
    expectError(await api.get(target.id), 404, "not_found")
  })

  it("answers an unknown id with 404 not_found", async () => {
    const { api } = await fresh()
    expectError(await api.get(UNKNOWN_ID), 404, "not_found")
    expectError(await api.patch(UNKNOWN_ID, { name: "x" }), 404, "not_found")
    expectError(await api.remove(UNKNOWN_ID), 404, "not_found")
  })
})

describe("offering active", () => {
  it("pauses with active false and resumes with active true, each an offering.updated event", async () => {
    const { org, api } = await fresh()
    const created = await api.create({ name: "Yoga", kind: "class" })
    const paused = await api.patch(created.id, { active: false })
    expect(paused.body.active).toBe(false)
    expect((await api.list()).body.data.map((o: Json) => [o.id, o.active])).toEqual([[created.id, false]])
    const again = await api.patch(created.id, { active: false })
    expect(again.body.active).toBe(false)
    const resumed = await api.patch(created.id, { active: true })
    expect(resumed.body.active).toBe(true)
    const events = await allEvents(app, org.key, "offering.updated")
    expect(events.map((e) => e.data.active)).toEqual([false, false, true])
    expect(events[2].data).toEqual(resumed.body)
  })

  it("creates a paused offering with active false", async () => {
    const { api } = await fresh()
    const created = await api.create({ name: "Later", kind: "rental", active: false })
    expect(created.active).toBe(false)
    expect((await api.get(created.id)).body.active).toBe(false)
  })

  it("deletes a paused offering", async () => {
    const { api } = await fresh()
    const created = await api.create({ name: "Later", kind: "rental", active: false })
    expect((await api.remove(created.id)).status).toBe(200)
    expectError(await api.get(created.id), 404, "not_found")
  })
})

describe("deposits exclude each other", () => {
  it("clears deposit_percent when deposit_cents is set, and the other way round", async () => {
    const { api } = await fresh()
    const created = await api.create({ name: "Kayak", kind: "rental", deposit_percent: 30 })
    expect(created).toMatchObject({ deposit_percent: 30, deposit_cents: null })
    const cents = await api.patch(created.id, { deposit_cents: 500 })
    expect(cents.body).toMatchObject({ deposit_cents: 500, deposit_percent: null })
    const percent = await api.patch(created.id, { deposit_percent: 25 })
    expect(percent.body).toMatchObject({ deposit_cents: null, deposit_percent: 25 })
    const none = await api.patch(created.id, { deposit_percent: null })
    expect(none.body).toMatchObject({ deposit_cents: null, deposit_percent: null })
  })

  it("keeps the other deposit untouched when an update does not name either", async () => {
    const { api } = await fresh()
    const created = await api.create({ name: "Kayak", kind: "rental", deposit_cents: 700 })
    expect((await api.patch(created.id, { price_cents: 5000 })).body).toMatchObject({
      deposit_cents: 700,
      deposit_percent: null
    })
  })

  it("refuses both in one request with 400 deposit_conflict", async () => {
    const { api } = await fresh()
    expectError(
      await api.post({ name: "Both", kind: "class", deposit_cents: 500, deposit_percent: 20 }),
      400,
      "deposit_conflict"
    )
    expect((await api.list()).body.data).toEqual([])
    const created = await api.create({ name: "One", kind: "class", deposit_cents: 300 })
    expectError(await api.patch(created.id, { deposit_cents: 500, deposit_percent: 20 }), 400, "deposit_conflict")
    expect((await api.get(created.id)).body).toEqual(created)
  })

  it("accepts one deposit with the other null in the same request", async () => {
    const { api } = await fresh()
    const created = await api.create({ name: "One", kind: "class", deposit_cents: 300, deposit_percent: null })
    expect(created).toMatchObject({ deposit_cents: 300, deposit_percent: null })
    expect((await api.patch(created.id, { deposit_cents: null, deposit_percent: 10 })).body).toMatchObject({
      deposit_cents: null,
      deposit_percent: 10
    })
  })
})

describe("location, coordinates and place_id", () => {
  it.each([
    ["52.3731, 4.8922", 52.3731, 4.8922],
    ["Pier 3 (52.37, 4.89)", 52.37, 4.89],
    ["-33.8688,151.2093", -33.8688, 151.2093],
    ["geo:52.3731,4.8922", 52.3731, 4.8922],
    ["Meet at 40.7128; -74.0060 by the fountain", 40.7128, -74.006]
  ])("sets lat and lon from %j", async (location, lat, lon) => {
    const { api } = await fresh()
    const created = await api.create({ name: "Walk", kind: "class", location })
    expect(created).toMatchObject({ location, lat, lon })
    const other = await api.create({ name: "Walk 2", kind: "class" })
    expect((await api.patch(other.id, { location })).body).toMatchObject({ location, lat, lon })
  })

  it.each([
    ["Damrak 1, 1012 LG Amsterdam"],
    ["52.3, 4.8"],
    ["52, 4"],
    ["95.1234, 4.8922"],
    ["https://meet.example.com/room-42"]
  ])("leaves lat and lon null for %j", async (location) => {
    const { api } = await fresh()
    const created = await api.create({ name: "Walk", kind: "class", location })
    expect(created).toMatchObject({ location, lat: null, lon: null })
  })

  it("clears coordinates and place_id when a new location has neither", async () => {
    const { api } = await fresh()
    const created = await api.create({
      name: "Walk",
      kind: "class",
      location: "52.3731, 4.8922",
      place_id: "ChIJVXealLU_xkcRja_At0z9AGY"
    })
    expect(created).toMatchObject({ lat: 52.3731, lon: 4.8922, place_id: "ChIJVXealLU_xkcRja_At0z9AGY" })
    const moved = await api.patch(created.id, { location: "Museumplein, Amsterdam" })
    expect(moved.body).toMatchObject({ location: "Museumplein, Amsterdam", lat: null, lon: null, place_id: null })
  })

  it("sets coordinates from the new text and clears place_id", async () => {
    const { api } = await fresh()
    const created = await api.create({ name: "Walk", kind: "class", lat: 1.5, lon: 2.5, place_id: "old-place" })
    const moved = await api.patch(created.id, { location: "51.9244, 4.4777" })
    expect(moved.body).toMatchObject({ lat: 51.9244, lon: 4.4777, place_id: null })
  })

  it("a new location with lat only clears the old lon; one typed as people write it is read whole", async () => {
    const { api } = await fresh()
    const created = await api.create({ name: "Walk", kind: "class", location: "52.3731°N, 4.8922°E" })
    expect(created).toMatchObject({ lat: 52.3731, lon: 4.8922 })
    const moved = await api.patch(created.id, { location: "Harbour", lat: 51.9 })
    expect(moved.body).toMatchObject({ location: "Harbour", lat: 51.9, lon: null })
    const priced = await api.patch(created.id, { location: "Room 123.45, 6.78 (12.50, 3.25 EUR)" })
    expect(priced.body).toMatchObject({ lat: null, lon: null })
    expect((await api.patch(created.id, { location: "33.92° S, 18.42° E" })).body).toMatchObject({
      lat: -33.92,
      lon: 18.42
    })
  })

  it("keeps lat, lon and place_id sent with the new location", async () => {
    const { api } = await fresh()
    const created = await api.create({ name: "Walk", kind: "class", location: "52.3731, 4.8922" })
    const moved = await api.patch(created.id, {
      location: "51.9244, 4.4777",
      lat: 10.5,
      lon: 20.25,
      place_id: "new-place"
    })
    expect(moved.body).toMatchObject({ location: "51.9244, 4.4777", lat: 10.5, lon: 20.25, place_id: "new-place" })
  })

  it("leaves coordinates and place_id alone when the location is not sent", async () => {
    const { api } = await fresh()
    const created = await api.create({ name: "Walk", kind: "class", location: "52.3731, 4.8922", place_id: "p1" })
    expect((await api.patch(created.id, { name: "Evening walk" })).body).toMatchObject({
      lat: 52.3731,
      lon: 4.8922,
      place_id: "p1"
    })
    expect((await api.patch(created.id, { lat: 0.5 })).body).toMatchObject({ lat: 0.5, lon: 4.8922, place_id: "p1" })
  })
})

describe("waiver_required", () => {
  it("needs the org's waiver text first (409 waiver_missing), then works", async () => {
    const { org, api } = await fresh()
    expectError(await api.post({ name: "Climb", kind: "class", waiver_required: true }), 409, "waiver_missing")
    const created = await api.create({ name: "Climb", kind: "class" })
    expectError(await api.patch(created.id, { waiver_required: true }), 409, "waiver_missing")
    expect((await api.get(created.id)).body).toEqual(created)
    expect((await app.call(org.key, "GET", "/api/v1/waiver")).body).toEqual({ text: null, version: 0 })
    const saved = await app.call(org.key, "PUT", "/api/v1/waiver", { text: "I climb at my own risk." })
    expect(saved.status).toBe(200)
    expect(saved.body).toEqual({ text: "I climb at my own risk.", version: 1 })
    expect((await api.patch(created.id, { waiver_required: true })).body.waiver_required).toBe(true)
    expect((await api.post({ name: "Boulder", kind: "rental", waiver_required: true })).status).toBe(201)
  })

  it("accepts waiver_required false without waiver text", async () => {
    const { api } = await fresh()
    const created = await api.create({ name: "Climb", kind: "class", waiver_required: false })
    expect((await api.patch(created.id, { waiver_required: false })).status).toBe(200)
  })

  it("is refused again once the waiver text is removed", async () => {
    const { org, api } = await fresh()
    await app.call(org.key, "PUT", "/api/v1/waiver", { text: "v1" })
    expect((await app.call(org.key, "PUT", "/api/v1/waiver", { text: null })).body).toEqual({ text: null, version: 2 })
    expectError(await api.post({ name: "Climb", kind: "class", waiver_required: true }), 409, "waiver_missing")
  })
})

describe("waitlist_enabled", () => {
  it.each([
    ["a class", { kind: "class" }],
    ["an appointment on its calendar", { kind: "appointment" }],
    ["an appointment with schedule calendar", { kind: "appointment", schedule: "calendar" }]
  ])("is accepted on %s", async (_, body) => {
    const { api } = await fresh()
    const created = await api.post({ name: "W", ...body, waitlist_enabled: true })
    expect(created.status).toBe(201)
    expect(created.body.waitlist_enabled).toBe(true)
    const target = await api.create({ name: "T", ...body })
    expect((await api.patch(target.id, { waitlist_enabled: true })).body.waitlist_enabled).toBe(true)
  })

  it.each([
    ["a rental", { kind: "rental" }],
    ["an appointment on weekly hours", { kind: "appointment", schedule: "hours" }]
  ])("is refused on %s with 400 waitlist_not_supported", async (_, body) => {
    const { api } = await fresh()
    expectError(await api.post({ name: "W", ...body, waitlist_enabled: true }), 400, "waitlist_not_supported")
    const target = await api.create({ name: "T", ...body })
    expectError(await api.patch(target.id, { waitlist_enabled: true }), 400, "waitlist_not_supported")
    expect((await api.get(target.id)).body).toEqual(target)
    expect((await api.patch(target.id, { waitlist_enabled: false })).status).toBe(200)
  })

  it("keeps an appointment with a waitlist from moving to hours, unless the waitlist goes in the same request", async () => {
    const { api } = await fresh()
    const created = await api.create({ name: "Consult", kind: "appointment", waitlist_enabled: true })
    expectError(await api.patch(created.id, { schedule: "hours" }), 400, "waitlist_not_supported")
    expect((await api.get(created.id)).body.schedule).toBe("calendar")
    expect((await api.patch(created.id, { schedule: "hours", waitlist_enabled: false })).body).toMatchObject({
      schedule: "hours",
      waitlist_enabled: false
    })
  })
})

describe("course", () => {
  it("is valid for classes", async () => {
    const { api } = await fresh()
    const created = await api.create({ name: "Ten weeks of pottery", kind: "class", course: true })
    expect(created.course).toBe(true)
    expect((await api.patch(created.id, { course: false })).body.course).toBe(false)
  })

  it.each(["appointment", "rental"])("is refused on an %s with 409 not_a_class", async (kind) => {
    const { api } = await fresh()
    expectError(await api.post({ name: "C", kind, course: true }), 409, "not_a_class")
    const target = await api.create({ name: "T", kind })
    expectError(await api.patch(target.id, { course: true }), 409, "not_a_class")
    expect((await api.get(target.id)).body.course).toBe(false)
  })

  it("has no waitlist: 409 waitlist_conflict in one request, on a course, or on a class with a waitlist", async () => {
    const { api } = await fresh()
    expectError(
      await api.post({ name: "C", kind: "class", course: true, waitlist_enabled: true }),
      409,
      "waitlist_conflict"
    )
    const course = await api.create({ name: "Course", kind: "class", course: true })
    expectError(await api.patch(course.id, { waitlist_enabled: true }), 409, "waitlist_conflict")
    const listed = await api.create({ name: "Waitlisted", kind: "class", waitlist_enabled: true })
    expectError(await api.patch(listed.id, { course: true }), 409, "waitlist_conflict")
    expect((await api.patch(listed.id, { course: true, waitlist_enabled: false })).body).toMatchObject({
      course: true,
      waitlist_enabled: false
    })
    expect((await api.list()).body.data.map((o: Json) => o.name).sort()).toEqual(["Course", "Waitlisted"])
  })
})

describe("schedule", () => {
  it("starts a new appointment on its calendar", async () => {
    const { api } = await fresh()
    expect((await api.create({ name: "Haircut", kind: "appointment" })).schedule).toBe("calendar")
    expect((await api.create({ name: "Haircut on hours", kind: "appointment", schedule: "hours" })).schedule).toBe(
      "hours"
    )
  })

  it("is null for classes and rentals", async () => {
    const { api } = await fresh()
    expect((await api.create({ name: "Yoga", kind: "class" })).schedule).toBeNull()
    expect((await api.create({ name: "Kayak", kind: "rental" })).schedule).toBeNull()
  })

  it.each(["class", "rental"])("is refused on a %s with 400 schedule_not_supported", async (kind) => {
    const { api } = await fresh()
    for (const schedule of ["hours", "calendar"]) {
      expectError(await api.post({ name: "S", kind, schedule }), 400, "schedule_not_supported")
    }
    const target = await api.create({ name: "T", kind })
    expectError(await api.patch(target.id, { schedule: "hours" }), 400, "schedule_not_supported")
    expect((await api.get(target.id)).body).toEqual(target)
  })

  it("moves an appointment between calendar and hours", async () => {
    const { api } = await fresh()
    const created = await api.create({ name: "Haircut", kind: "appointment" })
    expect((await api.patch(created.id, { schedule: "hours" })).body.schedule).toBe("hours")
    expect((await api.patch(created.id, { schedule: "calendar" })).body.schedule).toBe("calendar")
  })
})

describe("guest_price_cents", () => {
  it("applies to appointments only (400 guest_price_not_supported), null is accepted everywhere", async () => {
    const { api } = await fresh()
    expect((await api.create({ name: "A", kind: "appointment", guest_price_cents: 0 })).guest_price_cents).toBe(0)
    expectError(await api.post({ name: "C", kind: "class", guest_price_cents: 100 }), 400, "guest_price_not_supported")
    const rental = await api.create({ name: "R", kind: "rental", guest_price_cents: null })
    expectError(await api.patch(rental.id, { guest_price_cents: 100 }), 400, "guest_price_not_supported")
  })
})

describe("questions", () => {
  it("keeps the ids sent, generates the missing ones, defaults required to false", async () => {
    const { api } = await fresh()
    const created = await api.create({
      name: "Dive",
      kind: "class",
      questions: [
        {
          id: "level",
          label: "Certificate level?",
          type: "choice",
          options: ["Open water", "Advanced"],
          required: true
        },
        { label: "Any allergies?", type: "text" }
      ]
    })
    const [level, allergies] = created.questions as Array<Json>
    expect(level).toEqual({
      id: "level",
      label: "Certificate level?",
      type: "choice",
      options: ["Open water", "Advanced"],
      required: true
    })
    expect(allergies).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
      label: "Any allergies?",
      type: "text",
      required: false
    })
    expect(allergies.id).not.toBe("level")
  })

  it("replaces the whole list on update: kept ids stay, dropped questions go, new ones get ids", async () => {
    const { api } = await fresh()
    const created = await api.create({
      name: "Dive",
      kind: "class",
      questions: [
        { label: "Height?", type: "text" },
        { label: "Weight?", type: "text" }
      ]
    })
    const [height] = created.questions as Array<Json>
    const updated = await api.patch(created.id, {
      questions: [
        { label: "Shoe size?", type: "text" },
        { id: height.id, label: "Height in cm?", type: "text", required: true }
      ]
    })
    expect(updated.status).toBe(200)
    const [shoe, kept] = updated.body.questions as Array<Json>
    expect(kept).toEqual({ id: height.id, label: "Height in cm?", type: "text", required: true })
    expect(shoe.id).toMatch(/^[A-Za-z0-9_-]{1,40}$/)
    expect([height.id, (created.questions as Array<Json>)[1].id]).not.toContain(shoe.id)
    expect((await api.get(created.id)).body.questions).toEqual(updated.body.questions)
    expect((await api.patch(created.id, { questions: [] })).body.questions).toEqual([])
  })

  it("generates distinct ids for many new questions", async () => {
    const { api } = await fresh()
    const questions = Array.from({ length: 6 }, (_, i) => ({ label: `Q${i}`, type: "yes_no" }))
    const created = await api.create({ name: "Many", kind: "rental", questions })
    expect(new Set((created.questions as Array<Json>).map((q) => q.id)).size).toBe(6)
  })

  it("leaves the questions alone when an update does not send them", async () => {
    const { api } = await fresh()
    const created = await api.create({
      name: "Q",
      kind: "class",
      questions: [{ id: "a", label: "A?", type: "yes_no" }]
    })
    expect((await api.patch(created.id, { name: "Q2" })).body.questions).toEqual(created.questions)
  })
})
