import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  bookSession,
  expectError,
  type Json,
  newOrg,
  type Org,
  ok,
  seedBookings,
  sessionsOf,
  startPinned,
  type TestApp,
  wall
} from "./helpers.ts"

let app: TestApp
let org: Org
beforeAll(async () => {
  app = await startPinned()
  org = await newOrg(app, "Europe/Amsterdam")
})
afterAll(() => app.close())

const NOBODY = "5a0d7c4e-1b7e-4c9a-9a43-5b8f0a3c2d11"

describe("sessions.create", () => {
  it("schedules one time on its own, lasting the class's length by default", async () => {
    const o = await org.klass({ duration_minutes: 75 })
    const res = await org.sessions.create({ offering_id: o.id, starts_at: "2040-01-10T17:00:00Z" })
    const { data } = ok(res, 201)
    expect(data).toHaveLength(1)
    expect(data[0]).toMatchObject({
      org_id: org.id,
      offering_id: o.id,
      starts_at: "2040-01-10T17:00:00.000Z",
      ends_at: "2040-01-10T18:15:00.000Z",
      capacity: null,
      status: "scheduled",
      series_id: null,
      occurs_on: null,
      teacher: null
    })
    expect(await sessionsOf(org, o.id)).toEqual([{ ...data[0], booked: 0 }])
  })

  it("takes its own seats, teacher and end", async () => {
    const ana = await org.member("ana.s@example.com")
    const o = await org.klass({ capacity: 20 })
    const [s] = await org.sessions.make({
      offering_id: o.id,
      starts_at: "2040-01-10T17:00:00Z",
      ends_at: "2040-01-10T17:20:00Z",
      capacity: 6,
      teacher: ana
    })
    expect(s).toMatchObject({
      capacity: 6,
      ends_at: "2040-01-10T17:20:00.000Z",
      teacher: { user_id: ana, name: "ana.s" }
    })
    expect((await org.slots(o.id))[0]).toMatchObject({ session_id: s.id, capacity: 6, remaining: 6 })
  })

  it.each([
    [
      "Europe/Amsterdam, over the end of summer time",
      "Europe/Amsterdam",
      "2040-10-14T16:00:00Z",
      ["2040-10-14T16:00", "2040-10-21T16:00", "2040-10-28T17:00", "2040-11-04T17:00"]
    ],
    [
      "America/New_York, over the start of summer time",
      "America/New_York",
      "2040-03-04T23:00:00Z",
      ["2040-03-04T23:00", "2040-03-11T22:00", "2040-03-18T22:00", "2040-03-25T22:00"]
    ],
    [
      "Australia/Lord_Howe, over its half-hour change in April",
      "Australia/Lord_Howe",
      "2040-03-25T07:00:00Z",
      ["2040-03-25T07:00", "2040-04-01T07:30", "2040-04-08T07:30", "2040-04-15T07:30"]
    ],
    [
      "Australia/Lord_Howe, over its half-hour change in October",
      "Australia/Lord_Howe",
      "2040-09-30T07:30:00Z",
      ["2040-09-30T07:30", "2040-10-07T07:00", "2040-10-14T07:00", "2040-10-21T07:00"]
    ]
  ])("repeats weekly at the same local time in %s", async (_, zone, starts_at, utc) => {
    const local = await newOrg(app, zone)
    const o = await local.klass({ duration_minutes: 60 })
    const data = await local.sessions.make({
      offering_id: o.id,
      starts_at,
      ends_at: new Date(Date.parse(starts_at) + 90 * 60_000).toISOString(),
      repeat_weeks: 3
    })
    expect(data.map((s) => s.starts_at.slice(0, 16))).toEqual(utc)
    expect(new Set(data.map((s) => wall(s.starts_at, zone).time)).size).toBe(1)
    // Each repeat lasts as long as the first.
    expect(data.map((s) => Date.parse(s.ends_at) - Date.parse(s.starts_at))).toEqual(
      [1, 2, 3, 4].map(() => 90 * 60_000)
    )
  })

  it("repeat_weeks is how many more weeks: the first time and up to 52 weekly repeats", async () => {
    const o = await org.klass()
    const one = await org.sessions.make({ offering_id: o.id, starts_at: "2039-01-10T17:00:00Z", repeat_weeks: 1 })
    expect(one.map((s) => s.starts_at.slice(0, 10))).toEqual(["2039-01-10", "2039-01-17"])
    const data = await org.sessions.make({ offering_id: o.id, starts_at: "2040-01-10T17:00:00Z", repeat_weeks: 52 })
    expect(data).toHaveLength(53)
    expect(wall(data[52].starts_at, org.timezone)).toEqual({ date: "2041-01-08", time: "18:00" })
    expect(await org.sessions.make({ offering_id: o.id, starts_at: "2042-01-10T17:00:00Z" })).toHaveLength(1)
  })

  it("emits session.created for each time it makes, and none for an entry's times", async () => {
    const o = await org.klass()
    const data = await org.sessions.make({ offering_id: o.id, starts_at: "2040-01-10T17:00:00Z", repeat_weeks: 3 })
    ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2040-02-01",
        start_time: "10:00",
        end_time: "11:00",
        repeat: "daily",
        ends_on: "2040-02-03"
      }),
      201
    )
    const events = (await org.events("session.created")).filter((e) => e.data.offering_id === o.id)
    expect(events.map((e) => e.data)).toEqual(data)
  })

  it.each([
    ["an end before the start", { ends_at: "2040-01-10T16:00:00Z" }, 400, "invalid_ends_at", "class"],
    ["an end at the start", { ends_at: "2040-01-10T17:00:00Z" }, 400, "invalid_ends_at", "class"],
    ["repeat_weeks 0", { repeat_weeks: 0 }, 400, "invalid_repeat_weeks", "class"],
    ["repeat_weeks 53", { repeat_weeks: 53 }, 400, "invalid_repeat_weeks", "class"],
    ["capacity 0", { capacity: 0 }, 400, "invalid_capacity", "class"],
    ["a teacher from off the team", { teacher: NOBODY }, 400, "not_a_member", "class"],
    ["capacity on an appointment", { capacity: 2 }, 400, "capacity_not_supported", "appointment"],
    ["a rental", {}, 409, "not_on_calendar", "rental"],
    ["an appointment on weekly hours", {}, 409, "schedule_is_hours", "hours"]
  ])("refuses %s and makes nothing", async (_, body, status, code, kind) => {
    const o =
      kind === "hours"
        ? await org.onHours({}, [{ weekday: 2, start_time: "09:00", end_time: "17:00" }])
        : await org.offering({ kind })
    expectError(
      await org.sessions.create({ offering_id: o.id, starts_at: "2040-01-10T17:00:00Z", ...body }),
      status,
      code
    )
    expect(await sessionsOf(org, o.id)).toEqual([])
  })
})

describe("sessions.list", () => {
  it("filters by offering, by from and to (times that overlap them) and by status", async () => {
    const org = await newOrg(app)
    const o = await org.klass()
    const other = await org.klass()
    const [a] = await org.sessions.make({
      offering_id: o.id,
      starts_at: "2040-02-01T10:00:00Z",
      ends_at: "2040-02-01T12:00:00Z"
    })
    const [b] = await org.sessions.make({
      offering_id: o.id,
      starts_at: "2040-02-02T10:00:00Z",
      ends_at: "2040-02-02T12:00:00Z"
    })
    const [c] = await org.sessions.make({
      offering_id: o.id,
      starts_at: "2040-02-03T10:00:00Z",
      ends_at: "2040-02-03T12:00:00Z"
    })
    await org.sessions.make({ offering_id: other.id, starts_at: "2040-02-02T10:00:00Z" })
    ok(await org.sessions.cancel(c.id))
    const ids = async (query: Record<string, string>) =>
      (await org.sessions.list({ offering_id: o.id, ...query })).map((s) => s.id)
    expect(await ids({})).toEqual([a.id, b.id, c.id])
    expect(await ids({ from: "2040-02-01T11:00:00Z" })).toEqual([a.id, b.id, c.id])
    expect(await ids({ from: "2040-02-01T12:00:00Z" })).toEqual([b.id, c.id])
    expect(await ids({ to: "2040-02-02T10:00:00Z" })).toEqual([a.id])
    expect(await ids({ to: "2040-02-02T10:00:01Z" })).toEqual([a.id, b.id])
    expect(await ids({ from: "2040-02-01T12:00:00Z", to: "2040-02-03T10:00:00Z" })).toEqual([b.id])
    expect(await ids({ status: "scheduled" })).toEqual([a.id, b.id])
    expect(await ids({ status: "cancelled" })).toEqual([c.id])
    expect(
      (await org.sessions.list({ from: "2040-02-02T00:00:00Z", to: "2040-02-03T00:00:00Z" }))
        .map((s) => s.offering_id)
        .sort()
    ).toEqual([o.id, other.id].sort())
  })

  it("pages with limit and after: next_after carries on soonest first, null after the last", async () => {
    const o = await org.klass()
    const made = await org.sessions.make({ offering_id: o.id, starts_at: "2043-01-10T17:00:00Z", repeat_weeks: 4 })
    const pages: Array<{ data: Json[]; next_after: string | null }> = []
    let after: string | undefined
    do {
      const query = `offering_id=${o.id}&limit=2${after ? `&after=${after}` : ""}`
      const page = ok(await org.call("GET", `/sessions?${query}`)) as { data: Json[]; next_after: string | null }
      pages.push(page)
      after = page.next_after ?? undefined
    } while (after !== undefined && pages.length < 5)
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1])
    expect(pages.flatMap((p) => p.data.map((s) => s.id))).toEqual(made.map((s) => s.id))
    expect(pages.map((p) => p.next_after)).toEqual([made[1].id, made[3].id, null])
    expectError(await org.call("GET", `/sessions?after=${NOBODY}`), 400, "invalid_after")
    expectError(await org.call("GET", "/sessions?limit=2001"), 400, "invalid_limit")
    const other = await newOrg(app)
    expectError(await other.call("GET", `/sessions?after=${made[0].id}`), 400, "invalid_after")
  })

  it("shows only the org's own times", async () => {
    const other = await newOrg(app)
    const o = await other.klass()
    await other.sessions.make({ offering_id: o.id, starts_at: "2040-03-01T10:00:00Z" })
    expect((await org.sessions.list({})).filter((s) => s.offering_id === o.id)).toEqual([])
    expect(await other.sessions.list({})).toHaveLength(1)
  })

  it("counts a class's booked seats: confirmed bookings and live holds, not lapsed holds or cancelled bookings", async () => {
    const o = await org.klass({ capacity: 20 })
    const [s] = await org.sessions.make({ offering_id: o.id, starts_at: "2040-01-10T17:00:00Z" })
    const at = { offering_id: o.id, session_id: s.id, starts_at: s.starts_at, ends_at: s.ends_at }
    await seedBookings(app, org.id, [
      { ...at, quantity: 2 },
      { ...at, quantity: 1, status: "held", expires_at: "2040-01-02T12:15:00Z" },
      { ...at, quantity: 5, status: "held", expires_at: "2040-01-02T11:45:00Z" },
      { ...at, quantity: 7, status: "held", expires_at: "2040-01-02T12:15:00Z", keeps_place: false },
      { ...at, quantity: 4, status: "cancelled" }
    ])
    expect((await sessionsOf(org, o.id))[0].booked).toBe(3)
  })

  it("counts an appointment's bookings at the time, one each whatever the party", async () => {
    const o = await org.offering({ kind: "appointment", capacity: 3, max_per_booking: 4 })
    const [s] = await org.sessions.make({ offering_id: o.id, starts_at: "2040-01-10T09:00:00Z" })
    await bookSession(app, org.id, s, { quantity: 3 })
    await bookSession(app, org.id, s, { quantity: 1 })
    expect((await sessionsOf(org, o.id))[0].booked).toBe(2)
  })

  it("counts a course booking in every time of its entry from the one it was booked from", async () => {
    const course = await org.klass({ course: true, capacity: 10 })
    const entry = ok(
      await org.series.create({
        offering_id: course.id,
        starts_on: "2040-01-10",
        start_time: "18:00",
        end_time: "19:00",
        repeat: "weekly",
        ends_on: "2040-01-31"
      }),
      201
    )
    const sessions = await sessionsOf(org, course.id)
    await seedBookings(app, org.id, [
      {
        offering_id: course.id,
        series_id: entry.id,
        session_id: sessions[1].id,
        starts_at: sessions[1].starts_at,
        ends_at: sessions[3].ends_at,
        quantity: 2
      }
    ])
    await bookSession(app, org.id, sessions[2], { quantity: 1 })
    expect((await sessionsOf(org, course.id)).map((s) => s.booked)).toEqual([0, 2, 3, 2])
  })
})

describe("sessions.update", () => {
  const single = async (body: Json = {}) => {
    const o = await org.klass()
    const [s] = await org.sessions.make({ offering_id: o.id, starts_at: "2040-01-10T17:00:00Z", ...body })
    return { o, s }
  }

  it("moves a time nobody booked", async () => {
    const { o, s } = await single()
    const moved = ok(
      await org.sessions.update(s.id, { starts_at: "2040-01-11T08:00:00Z", ends_at: "2040-01-11T09:30:00Z" })
    )
    expect(moved).toEqual({ ...s, starts_at: "2040-01-11T08:00:00.000Z", ends_at: "2040-01-11T09:30:00.000Z" })
    expect(await sessionsOf(org, o.id)).toEqual([{ ...moved, booked: 0 }])
    expect((await org.slots(o.id)).map((x) => x.starts_at)).toEqual(["2040-01-11T08:00:00.000Z"])
  })

  it("moves an entry's time on its own, keeping its entry and date", async () => {
    const o = await org.klass()
    const entry = ok(
      await org.series.create({ offering_id: o.id, starts_on: "2040-01-10", start_time: "18:00", end_time: "19:00" }),
      201
    )
    const [s] = await sessionsOf(org, o.id)
    const moved = ok(
      await org.sessions.update(s.id, { starts_at: "2040-01-10T18:00:00Z", ends_at: "2040-01-10T19:00:00Z" })
    )
    expect(moved).toMatchObject({ series_id: entry.id, occurs_on: "2040-01-10", starts_at: "2040-01-10T18:00:00.000Z" })
  })

  it("refuses to move a booked time with 409 session_booked, and lets a lapsed hold's time move", async () => {
    const { s } = await single()
    await bookSession(app, org.id, s)
    expectError(
      await org.sessions.update(s.id, { starts_at: "2040-01-11T08:00:00Z", ends_at: "2040-01-11T09:00:00Z" }),
      409,
      "session_booked"
    )
    const { s: lapsed } = await single()
    await bookSession(app, org.id, lapsed, { status: "held", expires_at: "2040-01-02T11:00:00Z" })
    ok(await org.sessions.update(lapsed.id, { starts_at: "2040-01-11T08:00:00Z", ends_at: "2040-01-11T09:00:00Z" }))
  })

  it("changes the teacher of a booked time, and clears it with null", async () => {
    const bo = await org.member("bo.u@example.com", "Bo")
    const { o, s } = await single()
    await bookSession(app, org.id, s)
    expect(ok(await org.sessions.update(s.id, { teacher: bo })).teacher).toEqual({ user_id: bo, name: "Bo" })
    expect((await sessionsOf(org, o.id))[0]).toMatchObject({
      teacher: { user_id: bo, name: "Bo" },
      booked: 1,
      starts_at: s.starts_at
    })
    expect(ok(await org.sessions.update(s.id, { teacher: null })).teacher).toBeNull()
  })

  it.each([
    ["starts_at without ends_at", { starts_at: "2040-01-11T08:00:00Z" }, 400, "invalid_times"],
    ["ends_at without starts_at", { ends_at: "2040-01-11T08:00:00Z" }, 400, "invalid_times"],
    [
      "an end before the start",
      { starts_at: "2040-01-11T08:00:00Z", ends_at: "2040-01-11T07:00:00Z" },
      400,
      "invalid_ends_at"
    ],
    ["a teacher from off the team", { teacher: NOBODY }, 400, "not_a_member"],
    ["capacity (not a field it takes)", { capacity: 3 }, 400, "unknown_field"]
  ])("refuses %s and changes nothing", async (_, body, status, code) => {
    const { o, s } = await single()
    expectError(await org.sessions.update(s.id, body), status, code)
    expect(await sessionsOf(org, o.id)).toEqual([{ ...s, booked: 0 }])
  })

  it("refuses to move a cancelled time with 409 session_cancelled", async () => {
    const { s } = await single()
    ok(await org.sessions.cancel(s.id))
    expectError(
      await org.sessions.update(s.id, { starts_at: "2040-01-11T08:00:00Z", ends_at: "2040-01-11T09:00:00Z" }),
      409,
      "session_cancelled"
    )
  })
})

describe("sessions.cancel", () => {
  it("cancels a time (guests refund by default), emits session.cancelled and stops offering it", async () => {
    const o = await org.klass()
    const [s, keep] = await org.sessions.make({ offering_id: o.id, starts_at: "2040-01-10T17:00:00Z", repeat_weeks: 1 })
    const cancelled = ok(await org.sessions.cancel(s.id))
    expect(cancelled).toEqual({ ...s, status: "cancelled" })
    expect((await org.slots(o.id, { to: "2040-01-31" })).map((x) => x.session_id)).toEqual([keep.id])
    const events = (await org.events("session.cancelled")).filter((e) => e.data.offering_id === o.id)
    expect(events.map((e) => e.data)).toEqual([cancelled])
  })

  it.each([
    ["guests choose with a note of 200 characters", { guests: "choose", note: "n".repeat(200) }],
    ["guests refund with a note", { guests: "refund", note: "Teacher is ill; sorry!" }],
    ["an empty body", {}]
  ])("takes %s", async (_, body) => {
    const o = await org.klass()
    const [s] = await org.sessions.make({ offering_id: o.id, starts_at: "2040-01-10T17:00:00Z" })
    expect(ok(await org.sessions.cancel(s.id, body)).status).toBe("cancelled")
  })

  it.each([
    ["a note of 201 characters", { note: "n".repeat(201) }, "invalid_note"],
    ["guests later", { guests: "later" }, "invalid_guests"],
    ["a note that is not a string", { note: 5 }, "invalid_note"],
    ["an unknown field", { reason: "ill" }, "unknown_field"]
  ])("refuses %s with 400 and leaves the time scheduled", async (_, body, code) => {
    const o = await org.klass()
    const [s] = await org.sessions.make({ offering_id: o.id, starts_at: "2040-01-10T17:00:00Z" })
    expectError(await org.sessions.cancel(s.id, body), 400, code)
    expect((await sessionsOf(org, o.id))[0].status).toBe("scheduled")
  })

  it("is idempotent on a cancelled time: 200 and no second session.cancelled", async () => {
    const o = await org.klass()
    const [s] = await org.sessions.make({ offering_id: o.id, starts_at: "2040-01-10T17:00:00Z" })
    const first = ok(await org.sessions.cancel(s.id, { guests: "choose", note: "first" }))
    expect(ok(await org.sessions.cancel(s.id))).toEqual(first)
    expect(ok(await org.sessions.cancel(s.id, { guests: "choose", note: "again" }))).toEqual(first)
    expect((await org.events("session.cancelled")).filter((e) => e.data.id === s.id)).toHaveLength(1)
  })

  it("cancels one time of an entry, which then lists as cancelled", async () => {
    const o = await org.klass()
    ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2040-01-10",
        start_time: "18:00",
        end_time: "19:00",
        repeat: "daily",
        ends_on: "2040-01-12"
      }),
      201
    )
    const [, mid] = await sessionsOf(org, o.id)
    ok(await org.sessions.cancel(mid.id))
    expect((await sessionsOf(org, o.id)).map((s) => s.status)).toEqual(["scheduled", "cancelled", "scheduled"])
    expect((await org.slots(o.id)).map((s) => s.session_id)).not.toContain(mid.id)
  })
})
