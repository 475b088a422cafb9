import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  expectError,
  newOrg,
  type Org,
  ok,
  sessionsOf,
  startPinned,
  type TestApp,
  TODAY,
  wallString
} from "./helpers.ts"

let app: TestApp
let org: Org
beforeAll(async () => {
  app = await startPinned()
  org = await newOrg(app, "Europe/Amsterdam")
})
afterAll(() => app.close())

const AMS = "Europe/Amsterdam"

describe("series.create", () => {
  it("makes one time for an entry that does not repeat, with the documented defaults", async () => {
    const yoga = await org.klass({ capacity: 8 })
    const res = await org.series.create({
      offering_id: yoga.id,
      starts_on: "2040-01-10",
      start_time: "18:00",
      end_time: "19:30:00"
    })
    const entry = ok(res, 201)
    expect(entry).toMatchObject({
      org_id: org.id,
      offering_id: yoga.id,
      starts_on: "2040-01-10",
      start_time: "18:00:00",
      end_time: "19:30:00",
      span_days: 0,
      repeat: "none",
      capacity: null,
      ends_on: null,
      made_until: "2040-01-10",
      teacher: null
    })
    expect(Date.parse(entry.created_at)).not.toBeNaN()
    const sessions = await sessionsOf(org, yoga.id)
    expect(sessions).toHaveLength(1)
    expect(sessions[0]).toMatchObject({
      series_id: entry.id,
      occurs_on: "2040-01-10",
      starts_at: "2040-01-10T17:00:00.000Z",
      ends_at: "2040-01-10T18:30:00.000Z",
      status: "scheduled",
      capacity: null,
      booked: 0
    })
  })

  it.each([
    ["both left out", {}, "2040-01-10 00:00", "2040-01-11 00:00"],
    ["both null", { start_time: null, end_time: null }, "2040-01-10 00:00", "2040-01-11 00:00"],
    ["both left out, over three days", { span_days: 2 }, "2040-01-10 00:00", "2040-01-13 00:00"]
  ])(
    "an all-day entry (%s) runs from local midnight to the midnight after its last day",
    async (_, times, start, end) => {
      const retreat = await org.klass()
      const entry = ok(await org.series.create({ offering_id: retreat.id, starts_on: "2040-01-10", ...times }), 201)
      expect(entry).toMatchObject({ start_time: null, end_time: null })
      const [session] = await sessionsOf(org, retreat.id)
      expect([wallString(session.starts_at, AMS), wallString(session.ends_at, AMS)]).toEqual([start, end])
    }
  )

  it.each([
    [
      "an end before the start over one day runs overnight",
      { start_time: "22:00", end_time: "02:00", span_days: 1 },
      "2040-01-10 22:00",
      "2040-01-11 02:00"
    ],
    [
      "an end after the start over two days",
      { start_time: "09:00", end_time: "17:00", span_days: 2 },
      "2040-01-10 09:00",
      "2040-01-12 17:00"
    ],
    ["24:00 ends at midnight", { start_time: "20:00", end_time: "24:00" }, "2040-01-10 20:00", "2040-01-11 00:00"],
    [
      "HH:MM:SS with seconds 00",
      { start_time: "07:15:00", end_time: "08:45:00" },
      "2040-01-10 07:15",
      "2040-01-10 08:45"
    ]
  ])("times: %s", async (_, times, start, end) => {
    const o = await org.klass()
    ok(await org.series.create({ offering_id: o.id, starts_on: "2040-01-10", ...times }), 201)
    const [session] = await sessionsOf(org, o.id)
    expect([wallString(session.starts_at, AMS), wallString(session.ends_at, AMS)]).toEqual([start, end])
  })

  it.each([
    ["start_time without end_time", { start_time: "18:00" }, "invalid_times"],
    ["end_time without start_time", { end_time: "19:00" }, "invalid_times"],
    ["start_time with end_time null", { start_time: "18:00", end_time: null }, "invalid_times"],
    ["an end equal to the start on one day", { start_time: "18:00", end_time: "18:00" }, "invalid_times"],
    ["an end before the start on one day", { start_time: "18:00", end_time: "17:00", span_days: 0 }, "invalid_times"],
    ["a start at 24:00", { start_time: "24:00", end_time: "24:00", span_days: 1 }, "invalid_start_time"],
    ["seconds other than 00", { start_time: "18:00:30", end_time: "19:00" }, "invalid_start_time"],
    ["an end time with seconds", { start_time: "18:00", end_time: "19:00:01" }, "invalid_end_time"],
    ["span_days 31", { span_days: 31 }, "invalid_span_days"],
    ["span_days -1", { span_days: -1 }, "invalid_span_days"],
    ["ends_on before starts_on", { repeat: "daily", ends_on: "2040-01-09" }, "invalid_ends_on"]
  ])("refuses %s with 400 %s and makes nothing", async (_, body, code) => {
    const o = await org.klass()
    expectError(await org.series.create({ offering_id: o.id, starts_on: "2040-01-10", ...body }), 400, code)
    expect(ok(await org.series.list(o.id)).data).toEqual([])
    expect(await sessionsOf(org, o.id)).toEqual([])
  })

  it.each([0, 1, 30])("accepts span_days %i", async (span) => {
    const o = await org.klass()
    const entry = ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2040-01-10",
        start_time: "10:00",
        end_time: "11:00",
        span_days: span
      }),
      201
    )
    expect(entry.span_days).toBe(span)
    const [session] = await sessionsOf(org, o.id)
    expect(wallString(session.ends_at, AMS)).toBe(`2040-${span === 30 ? "02-09" : `01-${10 + span}`} 11:00`)
  })

  it("gives a class's entry its own capacity, which its times and slots carry", async () => {
    const o = await org.klass({ capacity: 12 })
    const entry = ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2040-01-04",
        start_time: "18:00",
        end_time: "19:00",
        capacity: 5
      }),
      201
    )
    expect(entry.capacity).toBe(5)
    const [session] = await sessionsOf(org, o.id)
    expect(session.capacity).toBe(5)
    expect(await org.slots(o.id)).toMatchObject([{ capacity: 5, remaining: 5, session_id: session.id }])
  })

  it("refuses capacity on an appointment's entry with 400 capacity_not_supported, and takes null", async () => {
    const o = await org.offering({ kind: "appointment" })
    expectError(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2040-01-10",
        start_time: "10:00",
        end_time: "10:30",
        capacity: 3
      }),
      400,
      "capacity_not_supported"
    )
    ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2040-01-10",
        start_time: "10:00",
        end_time: "10:30",
        capacity: null
      }),
      201
    )
  })

  it("refuses a rental (409 not_on_calendar) and an appointment on weekly hours (409 schedule_is_hours)", async () => {
    const kayak = await org.offering({ kind: "rental" })
    expectError(await org.series.create({ offering_id: kayak.id, starts_on: "2040-01-10" }), 409, "not_on_calendar")
    const cut = await org.onHours({ duration_minutes: 30 }, [{ weekday: 1, start_time: "09:00", end_time: "12:00" }])
    expectError(
      await org.series.create({ offering_id: cut.id, starts_on: "2040-01-10", start_time: "10:00", end_time: "10:30" }),
      409,
      "schedule_is_hours"
    )
    expect(ok(await org.series.list(cut.id)).data).toEqual([])
  })

  it("takes an appointment on its calendar", async () => {
    const o = await org.offering({ kind: "appointment", duration_minutes: 45 })
    ok(
      await org.series.create({ offering_id: o.id, starts_on: "2040-01-10", start_time: "10:00", end_time: "10:45" }),
      201
    )
    expect(await sessionsOf(org, o.id)).toHaveLength(1)
  })
})

describe("teachers", () => {
  it("names a teacher by their name, or by their email's local part until they set one", async () => {
    const ana = await org.member("ana.lopez@example.com", "Ana López")
    const bo = await org.member("bo.berg@example.com")
    const o = await org.klass()
    const a = ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2040-01-10",
        start_time: "10:00",
        end_time: "11:00",
        teacher: ana
      }),
      201
    )
    const b = ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2040-01-11",
        start_time: "10:00",
        end_time: "11:00",
        teacher: bo
      }),
      201
    )
    expect(a.teacher).toEqual({ user_id: ana, name: "Ana López" })
    expect(b.teacher).toEqual({ user_id: bo, name: "bo.berg" })
    const sessions = await sessionsOf(org, o.id)
    expect(sessions.map((s) => s.teacher)).toEqual([
      { user_id: ana, name: "Ana López" },
      { user_id: bo, name: "bo.berg" }
    ])
  })

  it("refuses a teacher who is not on the org's team with 400 not_a_member", async () => {
    const other = await newOrg(app)
    const stranger = await other.member("stranger@example.com", "Stranger")
    const o = await org.klass()
    for (const teacher of [stranger, "5a0d7c4e-1b7e-4c9a-9a43-5b8f0a3c2d11"]) {
      expectError(
        await org.series.create({
          offering_id: o.id,
          starts_on: "2040-01-10",
          start_time: "10:00",
          end_time: "11:00",
          teacher
        }),
        400,
        "not_a_member"
      )
    }
    expect(ok(await org.series.list(o.id)).data).toEqual([])
  })
})

describe("made_until and ends_on", () => {
  it.each([
    ["none", null, "2040-01-10", "2040-01-10", 1],
    ["weekly", null, "2041-01-01", "2041-01-01", 52],
    ["daily", null, "2041-01-01", "2041-01-01", 358],
    ["weekly", "2040-03-01", "2040-03-01", "2040-02-28", 8],
    ["weekly", "2042-01-01", "2041-01-01", "2041-01-01", 52]
  ])(
    "repeat %s with ends_on %s is made until %s (about a year ahead), last time %s",
    async (repeat, ends_on, made_until, last, count) => {
      const o = await org.klass()
      const entry = ok(
        await org.series.create({
          offering_id: o.id,
          starts_on: "2040-01-10",
          start_time: "10:00",
          end_time: "11:00",
          repeat,
          ends_on
        }),
        201
      )
      expect(entry.made_until).toBe(made_until)
      const sessions = await sessionsOf(org, o.id)
      expect({ count: sessions.length, first: sessions[0].occurs_on, last: sessions.at(-1)!.occurs_on }).toEqual({
        count,
        first: "2040-01-10",
        last
      })
    }
  )

  it("includes ends_on itself", async () => {
    const o = await org.klass()
    ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2040-01-10",
        start_time: "10:00",
        end_time: "11:00",
        repeat: "weekly",
        ends_on: "2040-01-31"
      }),
      201
    )
    expect((await sessionsOf(org, o.id)).map((s) => s.occurs_on)).toEqual([
      "2040-01-10",
      "2040-01-17",
      "2040-01-24",
      "2040-01-31"
    ])
  })

  it("makes an entry that started in the past from today on", async () => {
    const o = await org.klass()
    const entry = ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2039-12-05",
        start_time: "18:00",
        end_time: "19:00",
        repeat: "weekly",
        ends_on: "2040-01-20"
      }),
      201
    )
    expect(entry.starts_on).toBe("2039-12-05")
    expect((await sessionsOf(org, o.id)).map((s) => s.occurs_on)).toEqual(["2040-01-02", "2040-01-09", "2040-01-16"])
    expect(TODAY).toBe("2040-01-02")
  })
})

describe("courses", () => {
  it("refuses a course's repeating entry without ends_on with 409 invalid_entry", async () => {
    const course = await org.klass({ course: true })
    expectError(
      await org.series.create({
        offering_id: course.id,
        starts_on: "2040-01-10",
        start_time: "18:00",
        end_time: "19:00",
        repeat: "weekly"
      }),
      409,
      "invalid_entry"
    )
    expectError(
      await org.series.create({ offering_id: course.id, starts_on: "2040-01-10", repeat: "daily", ends_on: null }),
      409,
      "invalid_entry"
    )
    expect(await sessionsOf(org, course.id)).toEqual([])
  })

  it("refuses to make a course of a class with an open-ended repeating entry (409 invalid_entry naming why)", async () => {
    const klass = await org.klass()
    const entry = ok(
      await org.series.create({
        offering_id: klass.id,
        starts_on: "2040-01-10",
        start_time: "18:00",
        end_time: "19:00",
        repeat: "weekly"
      }),
      201
    )
    const refused = await org.call("PATCH", `/offerings/${klass.id}`, { course: true })
    expectError(refused, 409, "invalid_entry")
    expect(refused.body.error.message).toContain("ends_on")
    expect(ok(await org.call("GET", `/offerings/${klass.id}`)).course).toBe(false)
    // Given an end, the entry no longer stands in the way.
    ok(await org.series.update(entry.id, { ends_on: "2040-02-28" }))
    expect(ok(await org.call("PATCH", `/offerings/${klass.id}`, { course: true })).course).toBe(true)
  })

  it("takes a course's repeating entry with ends_on, and one that does not repeat", async () => {
    const course = await org.klass({ course: true })
    ok(
      await org.series.create({
        offering_id: course.id,
        starts_on: "2040-01-10",
        start_time: "18:00",
        end_time: "19:00",
        repeat: "weekly",
        ends_on: "2040-02-07"
      }),
      201
    )
    ok(
      await org.series.create({
        offering_id: course.id,
        starts_on: "2040-03-01",
        start_time: "18:00",
        end_time: "19:00"
      }),
      201
    )
    expect(await sessionsOf(org, course.id)).toHaveLength(6)
  })
})

describe("series.list", () => {
  it("lists one offering's entries by first date", async () => {
    const o = await org.klass()
    const other = await org.klass()
    const late = ok(
      await org.series.create({ offering_id: o.id, starts_on: "2040-02-01", start_time: "10:00", end_time: "11:00" }),
      201
    )
    const early = ok(
      await org.series.create({ offering_id: o.id, starts_on: "2040-01-05", repeat: "weekly", ends_on: "2040-01-26" }),
      201
    )
    ok(await org.series.create({ offering_id: other.id, starts_on: "2040-01-05" }), 201)
    const listed = ok(await org.series.list(o.id)).data
    expect(listed).toEqual([early, late])
  })
})

describe("offering.calendar_updated", () => {
  it("is emitted on every add, change and removal, with the offering's calendar after it in data.entries", async () => {
    const o = await org.klass()
    const a = ok(
      await org.series.create({ offering_id: o.id, starts_on: "2040-01-10", start_time: "10:00", end_time: "11:00" }),
      201
    )
    const b = ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2040-01-12",
        start_time: "10:00",
        end_time: "11:00",
        repeat: "weekly",
        ends_on: "2040-02-01"
      }),
      201
    )
    const a2 = ok(await org.series.update(a.id, { start_time: "12:00", end_time: "13:00" }))
    ok(await org.series.remove(b.id))
    const events = (await org.events("offering.calendar_updated")).filter((e) => e.data.offering_id === o.id)
    expect(events.map((e) => e.data.entries.map((x: any) => [x.id, x.start_time]))).toEqual([
      [[a.id, "10:00:00"]],
      [
        [a.id, "10:00:00"],
        [b.id, "10:00:00"]
      ],
      [
        [a.id, "12:00:00"],
        [b.id, "10:00:00"]
      ],
      [[a.id, "12:00:00"]]
    ])
    expect(events[2].data.entries[0]).toEqual(a2)
  })

  it("is not emitted for a refused change", async () => {
    const o = await org.klass()
    expectError(
      await org.series.create({ offering_id: o.id, starts_on: "2040-01-10", start_time: "10:00" }),
      400,
      "invalid_times"
    )
    expect((await org.events("offering.calendar_updated")).filter((e) => e.data.offering_id === o.id)).toEqual([])
  })
})
