import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  bookSession,
  expectError,
  type Json,
  newOrg,
  type Org,
  ok,
  type Seat,
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

const TUESDAYS = [
  "2040-01-03",
  "2040-01-10",
  "2040-01-17",
  "2040-01-24",
  "2040-01-31",
  "2040-02-07",
  "2040-02-14",
  "2040-02-21",
  "2040-02-28"
]

/** A class with a weekly entry on Tuesdays 18:00-19:00 from 3 January to 28 February 2040. */
const weeklyClass = async (body: Json = {}, offering: Json = {}) => {
  const o = await org.klass(offering)
  const entry = ok(
    await org.series.create({
      offering_id: o.id,
      starts_on: "2040-01-03",
      start_time: "18:00",
      end_time: "19:00",
      repeat: "weekly",
      ends_on: "2040-02-28",
      ...body
    }),
    201
  )
  return { o, entry, sessions: await sessionsOf(org, o.id) }
}

const on = (sessions: ReadonlyArray<Json>, date: string) => sessions.find((s) => s.occurs_on === date)!
const localTimes = (sessions: ReadonlyArray<Json>) =>
  sessions.map((s) => `${s.occurs_on} ${wall(s.starts_at, org.timezone).time}-${wall(s.ends_at, org.timezone).time}`)

describe("series.update", () => {
  it("remakes the future times nobody booked at the new times; a booked time keeps its time", async () => {
    const { o, entry, sessions } = await weeklyClass()
    const booked = on(sessions, "2040-01-17")
    await bookSession(app, org.id, booked, { quantity: 2 })
    const updated = ok(await org.series.update(entry.id, { start_time: "19:00", end_time: "20:30" }))
    expect(updated).toMatchObject({ id: entry.id, start_time: "19:00:00", end_time: "20:30:00", repeat: "weekly" })
    const after = await sessionsOf(org, o.id)
    expect(localTimes(after)).toEqual(
      TUESDAYS.map((d) => (d === "2040-01-17" ? `${d} 18:00-19:00` : `${d} 19:00-20:30`))
    )
    expect(on(after, "2040-01-17")).toMatchObject({ id: booked.id, booked: 2, starts_at: booked.starts_at })
    const oldIds = new Set(sessions.map((s) => s.id))
    expect(after.filter((s) => s.occurs_on !== "2040-01-17").every((s) => !oldIds.has(s.id))).toBe(true)
  })

  it.each<[string, boolean, Partial<Seat>]>([
    ["a confirmed booking", true, { status: "confirmed" }],
    ["a hold that still keeps its place", true, { status: "held", expires_at: "2040-01-02T13:00:00Z" }],
    ["a lapsed hold", false, { status: "held", expires_at: "2040-01-02T11:00:00Z" }],
    [
      "a hold that no longer keeps its place",
      false,
      { status: "held", expires_at: "2040-01-02T13:00:00Z", keeps_place: false }
    ],
    ["a cancelled booking", false, { status: "cancelled" }]
  ])("a time with %s keeps its time: %s", async (_, kept, seat) => {
    const { o, entry, sessions } = await weeklyClass()
    const time = on(sessions, "2040-01-24")
    await bookSession(app, org.id, time, seat)
    ok(await org.series.update(entry.id, { start_time: "07:00", end_time: "08:00" }))
    const after = on(await sessionsOf(org, o.id), "2040-01-24")
    expect({ same: after.id === time.id, time: wall(after.starts_at, org.timezone).time }).toEqual(
      kept ? { same: true, time: "18:00" } : { same: false, time: "07:00" }
    )
  })

  it("moves the dates with starts_on and repeat, keeping a booked time where it is", async () => {
    const { o, entry, sessions } = await weeklyClass()
    await bookSession(app, org.id, on(sessions, "2040-01-10"))
    ok(await org.series.update(entry.id, { starts_on: "2040-01-04", repeat: "daily", ends_on: "2040-01-08" }))
    expect((await sessionsOf(org, o.id)).map((s) => s.occurs_on)).toEqual([
      "2040-01-04",
      "2040-01-05",
      "2040-01-06",
      "2040-01-07",
      "2040-01-08",
      "2040-01-10"
    ])
  })

  it("removes the times past a new, earlier ends_on and lowers made_until", async () => {
    const { o, entry } = await weeklyClass()
    const updated = ok(await org.series.update(entry.id, { ends_on: "2040-01-20" }))
    expect(updated).toMatchObject({ ends_on: "2040-01-20", made_until: "2040-01-20" })
    expect((await sessionsOf(org, o.id)).map((s) => s.occurs_on)).toEqual(["2040-01-03", "2040-01-10", "2040-01-17"])
  })

  it("gives every time to come a new teacher, booked ones too, without remaking them", async () => {
    const ana = await org.member("ana@example.com", "Ana")
    const { o, entry, sessions } = await weeklyClass()
    await bookSession(app, org.id, on(sessions, "2040-01-10"))
    const updated = ok(await org.series.update(entry.id, { teacher: ana }))
    expect(updated.teacher).toEqual({ user_id: ana, name: "Ana" })
    const after = await sessionsOf(org, o.id)
    expect(after.map((s) => s.id)).toEqual(sessions.map((s) => s.id))
    expect(after.every((s) => s.teacher?.user_id === ana)).toBe(true)
    ok(await org.series.update(entry.id, { teacher: null }))
    expect((await sessionsOf(org, o.id)).every((s) => s.teacher === null)).toBe(true)
  })

  it("keeps a time's own teacher when a change leaves the entry's teacher alone", async () => {
    const ana = await org.member("ana.k@example.com", "Ana K")
    const bo = await org.member("bo.k@example.com", "Bo K")
    const { o, entry, sessions } = await weeklyClass({ teacher: ana })
    ok(await org.sessions.update(on(sessions, "2040-01-10").id, { teacher: bo }))
    ok(await org.series.update(entry.id, { capacity: 6 }))
    const after = await sessionsOf(org, o.id)
    expect(on(after, "2040-01-10").teacher).toEqual({ user_id: bo, name: "Bo K" })
    expect(on(after, "2040-01-17").teacher).toEqual({ user_id: ana, name: "Ana K" })
    expect(after.every((s) => s.capacity === 6)).toBe(true)
  })

  it("changes the seats of every time to come with capacity", async () => {
    const { o, entry } = await weeklyClass({}, { capacity: 12 })
    expect(ok(await org.series.update(entry.id, { capacity: 4 })).capacity).toBe(4)
    expect((await sessionsOf(org, o.id)).map((s) => s.capacity)).toEqual(TUESDAYS.map(() => 4))
    expect((await org.slots(o.id))[0]).toMatchObject({ capacity: 4, remaining: 4 })
  })

  type Setup = { all_day?: boolean; appointment?: boolean; course?: boolean }
  it.each<[string, Setup, Json, number, string]>([
    ["start_time alone on an all-day entry", { all_day: true }, { start_time: "10:00" }, 400, "invalid_times"],
    ["an end before the start on one day", {}, { end_time: "17:00" }, 400, "invalid_times"],
    ["ends_on before starts_on", {}, { ends_on: "2040-01-01" }, 400, "invalid_ends_on"],
    ["span_days 31", {}, { span_days: 31 }, 400, "invalid_span_days"],
    ["capacity on an appointment", { appointment: true }, { capacity: 2 }, 400, "capacity_not_supported"],
    ["a teacher from off the team", {}, { teacher: "5a0d7c4e-1b7e-4c9a-9a43-5b8f0a3c2d11" }, 400, "not_a_member"],
    ["offering_id", {}, { offering_id: "5a0d7c4e-1b7e-4c9a-9a43-5b8f0a3c2d11" }, 400, "unknown_field"],
    ["a course's repeating entry losing its end", { course: true }, { ends_on: null }, 409, "invalid_entry"]
  ])("refuses %s and changes nothing", async (_, setup, patch, status, code) => {
    const o = setup.appointment
      ? await org.offering({ kind: "appointment" })
      : await org.klass({ course: setup.course === true })
    const times = setup.all_day ? {} : { start_time: "18:00", end_time: "19:00" }
    const entry = ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2040-01-03",
        repeat: "weekly",
        ends_on: "2040-01-31",
        ...times
      }),
      201
    )
    const before = await sessionsOf(org, o.id)
    expectError(await org.series.update(entry.id, patch), status, code)
    expect(ok(await org.series.list(o.id)).data).toEqual([entry])
    expect(await sessionsOf(org, o.id)).toEqual(before)
  })
})

describe("series.delete", () => {
  it("removes the entry and its times to come, and answers { cancelled: 0 } when none was booked", async () => {
    const { o, entry } = await weeklyClass()
    expect(ok(await org.series.remove(entry.id))).toEqual({ cancelled: 0 })
    expect(await sessionsOf(org, o.id)).toEqual([])
    expect(ok(await org.series.list(o.id)).data).toEqual([])
    expectError(await org.series.update(entry.id, { start_time: "10:00", end_time: "11:00" }), 404, "not_found")
    expectError(await org.series.remove(entry.id), 404, "not_found")
  })

  it("with a booked time to come needs cancel_bookings: 409 series_has_bookings and nothing removed", async () => {
    const { o, entry, sessions } = await weeklyClass()
    await bookSession(app, org.id, on(sessions, "2040-02-14"))
    for (const flag of [undefined, false]) {
      expectError(await org.series.remove(entry.id, flag), 409, "series_has_bookings")
    }
    expect(await sessionsOf(org, o.id)).toEqual(
      sessions.map((s) => (s.occurs_on === "2040-02-14" ? { ...s, booked: 1 } : s))
    )
    expect(ok(await org.series.list(o.id)).data).toHaveLength(1)
  })

  it("with cancel_bookings=true removes the entry and all its times to come, booked ones too", async () => {
    const { o, entry, sessions } = await weeklyClass()
    await bookSession(app, org.id, on(sessions, "2040-02-14"))
    await bookSession(app, org.id, on(sessions, "2040-02-21"), { status: "held", expires_at: "2040-01-02T14:00:00Z" })
    const res = ok(await org.series.remove(entry.id, true))
    // How many bookings were cancelled is the bookings issue's to assert: until its service lands the
    // calendar's cancelling hook is a stub that cancels nothing and answers 0.
    expect(Object.keys(res)).toEqual(["cancelled"])
    expect(Number.isInteger(res.cancelled)).toBe(true)
    expect(await sessionsOf(org, o.id)).toEqual([])
    expect(ok(await org.series.list(o.id)).data).toEqual([])
  })

  it("is not held up by a lapsed hold or a cancelled booking", async () => {
    const { o, entry, sessions } = await weeklyClass()
    await bookSession(app, org.id, on(sessions, "2040-02-14"), { status: "held", expires_at: "2040-01-02T11:00:00Z" })
    await bookSession(app, org.id, on(sessions, "2040-02-21"), { status: "cancelled" })
    expect(ok(await org.series.remove(entry.id))).toEqual({ cancelled: 0 })
    expect(await sessionsOf(org, o.id)).toEqual([])
  })

  it("leaves a cancelled time on record", async () => {
    const { o, entry, sessions } = await weeklyClass()
    const cancelled = ok(await org.sessions.cancel(on(sessions, "2040-01-24").id))
    ok(await org.series.remove(entry.id))
    expect(await sessionsOf(org, o.id)).toEqual([{ ...cancelled, booked: 0 }])
  })
})
