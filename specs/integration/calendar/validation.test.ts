import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError, type Json, newOrg, type Org, ok, sessionsOf, startPinned, type TestApp } from "./helpers.ts"

let app: TestApp
let org: Org
let klass: Json
let entry: Json
let session: Json
beforeAll(async () => {
  app = await startPinned()
  org = await newOrg(app)
  klass = await org.klass()
  entry = ok(
    await org.series.create({
      offering_id: klass.id,
      starts_on: "2040-01-10",
      start_time: "18:00",
      end_time: "19:00",
      repeat: "weekly",
      ends_on: "2040-01-31"
    }),
    201
  )
  ;[session] = await org.sessions.make({ offering_id: klass.id, starts_at: "2040-02-10T17:00:00Z" })
})
afterAll(() => app.close())

const UUID = "5a0d7c4e-1b7e-4c9a-9a43-5b8f0a3c2d11"
const long = (n: number) => "x".repeat(n)

/** What the org's calendar holds; bad input must leave it as it was. */
const snapshot = async () => ({
  entries: ok(await org.series.list(klass.id)).data,
  sessions: await sessionsOf(org, klass.id)
})

describe("bad input is a 400 naming the field, and changes nothing", () => {
  const entryBody = () => ({ offering_id: klass.id, starts_on: "2040-01-10" })
  const sessionBody = () => ({ offering_id: klass.id, starts_at: "2040-01-10T17:00:00Z" })

  const CASES: ReadonlyArray<[string, () => [string, string, unknown?], string]> = [
    // series.create
    ["series.create without starts_on", () => ["POST", "/series", { offering_id: klass.id }], "invalid_starts_on"],
    [
      "series.create with 30 February",
      () => ["POST", "/series", { ...entryBody(), starts_on: "2040-02-30" }],
      "invalid_starts_on"
    ],
    [
      "series.create with a starts_on with a time",
      () => ["POST", "/series", { ...entryBody(), starts_on: "2040-01-10T10:00:00Z" }],
      "invalid_starts_on"
    ],
    [
      "series.create without offering_id",
      () => ["POST", "/series", { starts_on: "2040-01-10" }],
      "invalid_offering_id"
    ],
    [
      "series.create with an offering_id that is no uuid",
      () => ["POST", "/series", { ...entryBody(), offering_id: "yoga" }],
      "invalid_offering_id"
    ],
    [
      "series.create with start_time 7pm",
      () => ["POST", "/series", { ...entryBody(), start_time: "7pm", end_time: "20:00" }],
      "invalid_start_time"
    ],
    [
      "series.create with start_time 25:00",
      () => ["POST", "/series", { ...entryBody(), start_time: "25:00", end_time: "20:00" }],
      "invalid_start_time"
    ],
    [
      "series.create with end_time 18:60",
      () => ["POST", "/series", { ...entryBody(), start_time: "18:00", end_time: "18:60" }],
      "invalid_end_time"
    ],
    [
      "series.create with a numeric end_time",
      () => ["POST", "/series", { ...entryBody(), start_time: "18:00", end_time: 1900 }],
      "invalid_end_time"
    ],
    [
      "series.create with span_days 1.5",
      () => ["POST", "/series", { ...entryBody(), span_days: 1.5 }],
      "invalid_span_days"
    ],
    [
      "series.create with span_days as text",
      () => ["POST", "/series", { ...entryBody(), span_days: "1" }],
      "invalid_span_days"
    ],
    [
      "series.create with repeat hourly",
      () => ["POST", "/series", { ...entryBody(), repeat: "hourly" }],
      "invalid_repeat"
    ],
    ["series.create with capacity 0", () => ["POST", "/series", { ...entryBody(), capacity: 0 }], "invalid_capacity"],
    [
      "series.create with capacity 10001",
      () => ["POST", "/series", { ...entryBody(), capacity: 10001 }],
      "invalid_capacity"
    ],
    [
      "series.create with a teacher that is no uuid",
      () => ["POST", "/series", { ...entryBody(), teacher: "ana" }],
      "invalid_teacher"
    ],
    [
      "series.create with ends_on 2040-13-01",
      () => ["POST", "/series", { ...entryBody(), ends_on: "2040-13-01" }],
      "invalid_ends_on"
    ],
    ["series.create with an unknown field", () => ["POST", "/series", { ...entryBody(), weekday: 2 }], "unknown_field"],
    ["series.create with a body that is not JSON", () => ["POST", "/series", "{not json"], "invalid_json"],
    // series.update
    [
      "series.update with offering_id",
      () => ["PATCH", `/series/${entry.id}`, { offering_id: klass.id }],
      "unknown_field"
    ],
    [
      "series.update with starts_on null",
      () => ["PATCH", `/series/${entry.id}`, { starts_on: null }],
      "invalid_starts_on"
    ],
    ["series.update with repeat null", () => ["PATCH", `/series/${entry.id}`, { repeat: null }], "invalid_repeat"],
    ["series.update with span_days 31", () => ["PATCH", `/series/${entry.id}`, { span_days: 31 }], "invalid_span_days"],
    [
      "series.update with start_time 18:00:30",
      () => ["PATCH", `/series/${entry.id}`, { start_time: "18:00:30" }],
      "invalid_start_time"
    ],
    ["series.update of an id that is no uuid", () => ["PATCH", "/series/123", { span_days: 1 }], "invalid_id"],
    // series.delete and series.list
    [
      "series.delete with cancel_bookings yes",
      () => ["DELETE", `/series/${entry.id}?cancel_bookings=yes`],
      "invalid_cancel_bookings"
    ],
    ["series.list without offering_id", () => ["GET", "/series"], "invalid_offering_id"],
    ["series.list with an offering_id that is no uuid", () => ["GET", "/series?offering_id=1"], "invalid_offering_id"],
    // sessions.create
    ["sessions.create without starts_at", () => ["POST", "/sessions", { offering_id: klass.id }], "invalid_starts_at"],
    [
      "sessions.create with starts_at tomorrow",
      () => ["POST", "/sessions", { ...sessionBody(), starts_at: "tomorrow" }],
      "invalid_starts_at"
    ],
    [
      "sessions.create with ends_at 2040-01-10T25:00:00Z",
      () => ["POST", "/sessions", { ...sessionBody(), ends_at: "2040-01-10T25:00:00Z" }],
      "invalid_ends_at"
    ],
    [
      "sessions.create with repeat_weeks 0",
      () => ["POST", "/sessions", { ...sessionBody(), repeat_weeks: 0 }],
      "invalid_repeat_weeks"
    ],
    [
      "sessions.create with repeat_weeks 53",
      () => ["POST", "/sessions", { ...sessionBody(), repeat_weeks: 53 }],
      "invalid_repeat_weeks"
    ],
    [
      "sessions.create with repeat_weeks 2.5",
      () => ["POST", "/sessions", { ...sessionBody(), repeat_weeks: 2.5 }],
      "invalid_repeat_weeks"
    ],
    [
      "sessions.create with capacity -1",
      () => ["POST", "/sessions", { ...sessionBody(), capacity: -1 }],
      "invalid_capacity"
    ],
    [
      "sessions.create with a teacher that is no uuid",
      () => ["POST", "/sessions", { ...sessionBody(), teacher: "bo" }],
      "invalid_teacher"
    ],
    [
      "sessions.create with series_id",
      () => ["POST", "/sessions", { ...sessionBody(), series_id: entry.id }],
      "unknown_field"
    ],
    // sessions.update and sessions.cancel
    [
      "sessions.update with starts_at soon",
      () => ["PATCH", `/sessions/${session.id}`, { starts_at: "soon", ends_at: "2040-02-10T19:00:00Z" }],
      "invalid_starts_at"
    ],
    [
      "sessions.update with status",
      () => ["PATCH", `/sessions/${session.id}`, { status: "cancelled" }],
      "unknown_field"
    ],
    [
      "sessions.cancel with a note of 201 characters",
      () => ["POST", `/sessions/${session.id}/cancel`, { note: long(201) }],
      "invalid_note"
    ],
    [
      "sessions.cancel with guests keep",
      () => ["POST", `/sessions/${session.id}/cancel`, { guests: "keep" }],
      "invalid_guests"
    ],
    ["sessions.cancel of an id that is no uuid", () => ["POST", "/sessions/abc/cancel", {}], "invalid_id"],
    // sessions.list
    ["sessions.list with from yesterday", () => ["GET", "/sessions?from=yesterday"], "invalid_from"],
    ["sessions.list with to 2040-13-01T00:00:00Z", () => ["GET", "/sessions?to=2040-13-01T00:00:00Z"], "invalid_to"],
    ["sessions.list with status removed", () => ["GET", "/sessions?status=removed"], "invalid_status"],
    [
      "sessions.list with an offering_id that is no uuid",
      () => ["GET", "/sessions?offering_id=yoga"],
      "invalid_offering_id"
    ],
    // availability.get
    [
      "availability.get with from 2040-1-5",
      () => ["GET", `/offerings/${klass.id}/availability?from=2040-1-5`],
      "invalid_from"
    ],
    [
      "availability.get with to 2040-01-32",
      () => ["GET", `/offerings/${klass.id}/availability?to=2040-01-32`],
      "invalid_to"
    ],
    ["availability.get of an id that is no uuid", () => ["GET", "/offerings/yoga/availability"], "invalid_id"]
  ]

  it.each(CASES)("%s", async (_, request, code) => {
    const before = await snapshot()
    const [method, path, body] = request()
    expectError(await org.call(method, path, body), 400, code)
    expect(await snapshot()).toEqual(before)
  })
})

describe("an enum's error names every allowed value", () => {
  it("series.create with repeat fortnightly lists all six repeats; an optional enum the same", async () => {
    const res = await org.call("POST", "/series", {
      offering_id: klass.id,
      starts_on: "2040-01-10",
      repeat: "fortnightly"
    })
    expectError(res, 400, "invalid_repeat")
    for (const value of ["none", "daily", "weekly", "monthly", "yearly", "weekdays"])
      expect(res.body.error.message).toContain(`"${value}"`)
    expect(res.body.error.message).toContain('actual "fortnightly"')
    expect(res.body.error.message).not.toContain("undefined")
  })
})

describe("an id in upper case is the same id", () => {
  it("for calendar entries, sessions and teachers", async () => {
    const ana = await org.member("ana.upper@example.com", "Ana")
    const o = await org.klass()
    const e = ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2040-03-01",
        start_time: "10:00",
        end_time: "11:00",
        teacher: ana.toUpperCase()
      }),
      201
    )
    expect(e).toMatchObject({ offering_id: o.id, teacher: { user_id: ana, name: "Ana" } })
    expect(ok(await org.series.update(e.id.toUpperCase(), { end_time: "11:30" })).end_time).toBe("11:30:00")
    const [s] = await org.sessions.list({ offering_id: o.id })
    expect(ok(await org.sessions.update(s.id.toUpperCase(), { teacher: null })).teacher).toBeNull()
    expect(ok(await org.sessions.update(s.id, { teacher: ana.toUpperCase() })).teacher).toEqual({
      user_id: ana,
      name: "Ana"
    })
    expect(ok(await org.sessions.cancel(s.id.toUpperCase())).status).toBe("cancelled")
    expect(ok(await org.series.remove(e.id.toUpperCase()))).toEqual({ cancelled: 0 })
  })
})

describe("tenancy: another org's ids are 404, never data", () => {
  let mine: Org
  beforeAll(async () => {
    mine = await newOrg(app)
  })

  const THEIRS: ReadonlyArray<[string, () => [string, string, unknown?]]> = [
    ["series.list of their offering", () => ["GET", `/series?offering_id=${klass.id}`]],
    ["series.create on their offering", () => ["POST", "/series", { offering_id: klass.id, starts_on: "2040-03-01" }]],
    [
      "series.update of their entry",
      () => ["PATCH", `/series/${entry.id}`, { start_time: "07:00", end_time: "08:00" }]
    ],
    ["series.delete of their entry", () => ["DELETE", `/series/${entry.id}?cancel_bookings=true`]],
    ["sessions.list of their offering", () => ["GET", `/sessions?offering_id=${klass.id}`]],
    [
      "sessions.create on their offering",
      () => ["POST", "/sessions", { offering_id: klass.id, starts_at: "2040-03-01T10:00:00Z" }]
    ],
    [
      "sessions.update of their session",
      () => ["PATCH", `/sessions/${session.id}`, { starts_at: "2040-03-01T10:00:00Z", ends_at: "2040-03-01T11:00:00Z" }]
    ],
    ["sessions.update of their session's teacher", () => ["PATCH", `/sessions/${session.id}`, { teacher: null }]],
    ["sessions.cancel of their session", () => ["POST", `/sessions/${session.id}/cancel`, {}]],
    ["availability.get of their offering", () => ["GET", `/offerings/${klass.id}/availability`]],
    ["series.update of an unknown id", () => ["PATCH", `/series/${UUID}`, { span_days: 1 }]],
    ["sessions.cancel of an unknown id", () => ["POST", `/sessions/${UUID}/cancel`, {}]],
    ["availability.get of an unknown offering", () => ["GET", `/offerings/${UUID}/availability`]]
  ]

  it.each(THEIRS)("%s", async (_, request) => {
    const before = await snapshot()
    const [method, path, body] = request()
    expectError(await mine.call(method, path, body), 404, "not_found")
    expect(await snapshot()).toEqual(before)
  })

  it("sessions.list without a filter shows none of their times", async () => {
    expect(await mine.sessions.list({})).toEqual([])
  })

  it("a call without a key is 401", async () => {
    for (const [method, path, body] of [
      ["GET", `/series?offering_id=${klass.id}`],
      ["POST", "/sessions", {}],
      ["GET", `/offerings/${klass.id}/availability`]
    ] as const) {
      expectError(await app.call(null, method, `/api/v1${path}`, body), 401, "unauthorized")
    }
  })
})
