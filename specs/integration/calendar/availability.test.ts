import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  bookSession,
  clockNow,
  expectError,
  type Json,
  newOrg,
  type Org,
  ok,
  type Seat,
  seedBookings,
  sessionsOf,
  startPinned,
  type TestApp,
  wall
} from "./helpers.ts"

// Now is Monday 2 January 2040, 13:00 in Amsterdam.
let app: TestApp
let org: Org
beforeAll(async () => {
  app = await startPinned()
  org = await newOrg(app, "Europe/Amsterdam")
})
afterAll(() => app.close())

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6]
const hours = (start: string, end: string, days = EVERY_DAY) =>
  days.map((weekday) => ({ weekday, start_time: start, end_time: end }))
/** Slots as "date HH:MM/remaining" in Amsterdam. */
const brief = (slots: ReadonlyArray<Json>) =>
  slots.map((s) => `${wall(s.starts_at, org.timezone).date} ${wall(s.starts_at, org.timezone).time}/${s.remaining}`)
const times = (slots: ReadonlyArray<Json>) => slots.map((s) => wall(s.starts_at, org.timezone).time)
const localInstant = (date: string, time: string) => {
  // Amsterdam is UTC+1 in January.
  const [h, m] = time.split(":").map(Number)
  return new Date(
    Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)), h - 1, m)
  ).toISOString()
}

/** A class with a daily 18:00-19:00 entry through January 2040. */
const dailyClass = async (offering: Json = {}) => {
  const o = await org.klass({ capacity: 10, ...offering })
  ok(
    await org.series.create({
      offering_id: o.id,
      starts_on: "2040-01-02",
      start_time: "18:00",
      end_time: "19:00",
      repeat: "daily",
      ends_on: "2040-01-31"
    }),
    201
  )
  return { o, sessions: await sessionsOf(org, o.id) }
}

describe("the window", () => {
  it("defaults to the next 14 days, today included, in the org's time zone", async () => {
    const { o, sessions } = await dailyClass()
    const res = ok(await org.availability(o.id))
    expect(res.timezone).toBe("Europe/Amsterdam")
    expect(res.data.map((s: Json) => s.session_id)).toEqual(sessions.slice(0, 14).map((s) => s.id))
    expect(wall(res.data[13].starts_at, org.timezone).date).toBe("2040-01-15")
  })

  it.each([
    ["from and to, both included", { from: "2040-01-20", to: "2040-01-22" }, "2040-01-20", 3],
    ["from alone: 14 days from it", { from: "2040-01-10" }, "2040-01-10", 14],
    ["from alone, past the entry's end", { from: "2040-01-25" }, "2040-01-25", 7],
    ["to alone: from today", { to: "2040-01-05" }, "2040-01-02", 4],
    ["one day", { from: "2040-01-09", to: "2040-01-09" }, "2040-01-09", 1],
    ["the longest window, 92 days", { from: "2040-01-02", to: "2040-04-02" }, "2040-01-02", 30],
    ["a window wholly in the past", { from: "2039-12-01", to: "2039-12-31" }, undefined, 0]
  ])("%s", async (_, query, first, count) => {
    const { o } = await dailyClass()
    const slots = await org.slots(o.id, query)
    expect(slots).toHaveLength(count)
    if (first !== undefined) expect(wall(slots[0].starts_at, org.timezone).date).toBe(first)
  })

  it.each([
    ["to before from", { from: "2040-01-10", to: "2040-01-09" }, "invalid_to"],
    ["to before today with no from", { to: "2040-01-01" }, "invalid_to"],
    ["93 days", { from: "2040-01-02", to: "2040-04-03" }, "invalid_to"],
    ["a from that is no date", { from: "2040-02-30" }, "invalid_from"],
    ["a from with a time", { from: "2040-01-02T00:00:00Z" }, "invalid_from"],
    ["a to that is no date", { to: "tomorrow" }, "invalid_to"]
  ])("refuses %s with 400", async (_, query, code) => {
    const { o } = await dailyClass()
    expectError(await org.availability(o.id, query), 400, code)
  })
})

describe("classes", () => {
  it("offer each scheduled time with its session_id, seats and seats left", async () => {
    const { o, sessions } = await dailyClass({ capacity: 8 })
    await bookSession(app, org.id, sessions[1], { quantity: 3 })
    await bookSession(app, org.id, sessions[2], { quantity: 8 })
    const slots = await org.slots(o.id, { to: "2040-01-05" })
    expect(slots).toEqual([
      {
        starts_at: sessions[0].starts_at,
        ends_at: sessions[0].ends_at,
        capacity: 8,
        remaining: 8,
        session_id: sessions[0].id
      },
      {
        starts_at: sessions[1].starts_at,
        ends_at: sessions[1].ends_at,
        capacity: 8,
        remaining: 5,
        session_id: sessions[1].id
      },
      // sessions[2] is full
      {
        starts_at: sessions[3].starts_at,
        ends_at: sessions[3].ends_at,
        capacity: 8,
        remaining: 8,
        session_id: sessions[3].id
      }
    ])
  })

  it.each<[string, Partial<Seat>, number]>([
    ["a confirmed booking", { status: "confirmed", quantity: 2 }, 8],
    ["a hold that keeps its place", { status: "held", quantity: 2, expires_at: "2040-01-02T12:10:00Z" }, 8],
    ["a lapsed hold", { status: "held", quantity: 2, expires_at: "2040-01-02T11:59:00Z" }, 10],
    [
      "a hold that no longer keeps its place",
      { status: "held", quantity: 2, expires_at: "2040-01-02T12:10:00Z", keeps_place: false },
      10
    ],
    ["a cancelled booking", { status: "cancelled", quantity: 2 }, 10]
  ])("count %s in remaining", async (_, seat, remaining) => {
    const { o, sessions } = await dailyClass()
    await bookSession(app, org.id, sessions[0], seat)
    expect((await org.slots(o.id, { to: "2040-01-02" }))[0].remaining).toBe(remaining)
  })

  it("offer nothing for a cancelled time", async () => {
    const { o, sessions } = await dailyClass()
    ok(await org.sessions.cancel(sessions[1].id))
    expect((await org.slots(o.id, { to: "2040-01-04" })).map((s) => s.session_id)).toEqual([
      sessions[0].id,
      sessions[2].id
    ])
  })

  it("close booking min_notice_minutes before a time starts (a start exactly that far off is still open)", async () => {
    const o = await org.klass({ min_notice_minutes: 60 })
    const now = (await clockNow(app)).getTime()
    const starts = [59, 60, 61].map((m) => new Date(now + m * 60_000).toISOString())
    for (const starts_at of starts) await org.sessions.make({ offering_id: o.id, starts_at })
    expect((await org.slots(o.id)).map((s) => s.starts_at)).toEqual(starts.slice(1))
  })

  it("offer nothing further ahead than max_advance_days", async () => {
    const { o } = await dailyClass({ max_advance_days: 3 })
    // Now + 3 days is 5 January 13:00; the 18:00 time that day is too far.
    expect(brief(await org.slots(o.id))).toEqual(["2040-01-02 18:00/10", "2040-01-03 18:00/10", "2040-01-04 18:00/10"])
  })
})

describe("appointments on their calendar", () => {
  it("offer the calendar's times; each booking takes one parallel place", async () => {
    const o = await org.offering({
      kind: "appointment",
      capacity: 2,
      max_per_booking: 3,
      min_notice_minutes: 0,
      buffer_minutes: 60
    })
    ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: "2040-01-03",
        start_time: "10:00",
        end_time: "10:30",
        repeat: "daily",
        ends_on: "2040-01-05"
      }),
      201
    )
    const sessions = await sessionsOf(org, o.id)
    await bookSession(app, org.id, sessions[0], { quantity: 3 })
    await bookSession(app, org.id, sessions[1])
    await bookSession(app, org.id, sessions[1])
    const slots = await org.slots(o.id)
    // A calendar's times keep no buffer, and the full time is not offered.
    expect(slots.map((s) => [s.session_id, s.capacity, s.remaining])).toEqual([
      [sessions[0].id, 2, 1],
      [sessions[2].id, 2, 2]
    ])
  })
})

describe("appointments on weekly hours", () => {
  it.each([
    ["back to back when slot_interval_minutes is null", 60, null, ["09:00", "10:00", "11:00"]],
    ["every 15 minutes", 60, 15, ["09:00", "09:15", "09:30", "09:45", "10:00", "10:15", "10:30", "10:45", "11:00"]],
    ["every 90 minutes", 60, 90, ["09:00", "10:30"]],
    ["every 45 minutes for a 30-minute appointment", 30, 45, ["09:00", "09:45", "10:30", "11:15"]]
  ])("step %s", async (_, duration_minutes, slot_interval_minutes, expected) => {
    const o = await org.onHours({ duration_minutes, slot_interval_minutes }, [
      { weekday: 2, start_time: "09:00", end_time: "12:00" }
    ])
    const slots = await org.slots(o.id, { from: "2040-01-03", to: "2040-01-03" })
    expect(times(slots)).toEqual(expected)
    expect(slots[0]).toEqual({
      starts_at: "2040-01-03T08:00:00.000Z",
      ends_at: new Date(Date.parse("2040-01-03T08:00:00Z") + duration_minutes * 60_000).toISOString(),
      capacity: 1,
      remaining: 1
    })
  })

  it("offer only the days with hours", async () => {
    const o = await org.onHours({ duration_minutes: 60 }, [
      { weekday: 2, start_time: "09:00", end_time: "10:00" },
      { weekday: 4, start_time: "15:00", end_time: "16:00" }
    ])
    expect(brief(await org.slots(o.id))).toEqual([
      "2040-01-03 09:00/1",
      "2040-01-05 15:00/1",
      "2040-01-10 09:00/1",
      "2040-01-12 15:00/1"
    ])
  })

  it.each([
    ["no buffer", 0, 1, ["09:00/1", "10:00/1", "11:00/1", "13:00/1", "14:00/1"]],
    ["a 30-minute buffer before and after", 30, 1, ["09:00/1", "10:00/1", "14:00/1"]],
    ["a 60-minute buffer before and after", 60, 1, ["09:00/1", "10:00/1", "14:00/1"]],
    ["a 90-minute buffer before and after", 90, 1, ["09:00/1"]],
    [
      "a 30-minute buffer with two in parallel",
      30,
      2,
      ["09:00/2", "10:00/2", "11:00/1", "12:00/1", "13:00/1", "14:00/2"]
    ]
  ])("keep the buffer free around bookings: %s", async (_, buffer_minutes, capacity, expected) => {
    const o = await org.onHours({ duration_minutes: 60, buffer_minutes, capacity, min_notice_minutes: 0 }, [
      { weekday: 2, start_time: "09:00", end_time: "15:00" }
    ])
    await seedBookings(app, org.id, [
      {
        offering_id: o.id,
        starts_at: localInstant("2040-01-03", "12:00"),
        ends_at: localInstant("2040-01-03", "13:00")
      }
    ])
    const slots = await org.slots(o.id, { from: "2040-01-03", to: "2040-01-03" })
    expect(slots.map((s) => `${wall(s.starts_at, org.timezone).time}/${s.remaining}`)).toEqual(expected)
  })

  it("count a booking a buffer away on the day before", async () => {
    const o = await org.onHours({ duration_minutes: 60, buffer_minutes: 120, min_notice_minutes: 0 }, [
      { weekday: 1, start_time: "22:00", end_time: "23:00" },
      { weekday: 2, start_time: "00:00", end_time: "03:00" }
    ])
    await seedBookings(app, org.id, [
      {
        offering_id: o.id,
        starts_at: localInstant("2040-01-02", "22:00"),
        ends_at: localInstant("2040-01-02", "23:00")
      }
    ])
    expect(times(await org.slots(o.id, { from: "2040-01-03", to: "2040-01-03" }))).toEqual(["01:00", "02:00"])
  })

  it.each<[string, Partial<Seat>, boolean]>([
    ["a confirmed booking", { status: "confirmed" }, true],
    ["a hold that keeps its place", { status: "held", expires_at: "2040-01-02T12:05:00Z" }, true],
    ["a lapsed hold", { status: "held", expires_at: "2040-01-02T11:55:00Z" }, false],
    ["a cancelled booking", { status: "cancelled" }, false]
  ])("are taken by %s: %s", async (_, seat, taken) => {
    const o = await org.onHours({ duration_minutes: 60 }, [{ weekday: 2, start_time: "09:00", end_time: "11:00" }])
    await seedBookings(app, org.id, [
      {
        offering_id: o.id,
        starts_at: localInstant("2040-01-03", "09:00"),
        ends_at: localInstant("2040-01-03", "10:00"),
        ...seat
      }
    ])
    expect(times(await org.slots(o.id, { from: "2040-01-03", to: "2040-01-03" }))).toEqual(
      taken ? ["10:00"] : ["09:00", "10:00"]
    )
  })

  it("ignore another offering's bookings", async () => {
    const o = await org.onHours({ duration_minutes: 60 }, [{ weekday: 2, start_time: "09:00", end_time: "11:00" }])
    const other = await org.onHours({ duration_minutes: 60 }, [{ weekday: 2, start_time: "09:00", end_time: "11:00" }])
    await seedBookings(app, org.id, [
      {
        offering_id: other.id,
        starts_at: localInstant("2040-01-03", "09:00"),
        ends_at: localInstant("2040-01-03", "10:00")
      }
    ])
    expect(times(await org.slots(o.id, { from: "2040-01-03", to: "2040-01-03" }))).toEqual(["09:00", "10:00"])
  })

  it("close min_notice_minutes before a start, stepping from the opening", async () => {
    const o = await org.onHours({ duration_minutes: 60, min_notice_minutes: 90 }, [
      { weekday: 1, start_time: "09:00", end_time: "17:00" }
    ])
    // Now 13:00 + 90 minutes = 14:30: the next start on the hour grid is 15:00.
    expect(times(await org.slots(o.id, { to: "2040-01-02" }))).toEqual(["15:00", "16:00"])
  })

  it("offer nothing further ahead than max_advance_days", async () => {
    const o = await org.onHours(
      { duration_minutes: 60, min_notice_minutes: 0, max_advance_days: 1 },
      hours("09:00", "17:00")
    )
    // Now is just past 2 January 13:00, so the latest start is 3 January 13:00 and 13:00 today has begun.
    const slots = brief(await org.slots(o.id))
    expect([slots[0], ...slots.slice(-2)]).toEqual(["2040-01-02 14:00/1", "2040-01-03 12:00/1", "2040-01-03 13:00/1"])
  })

  it("use 9:00 to 17:00 every day until hours are set", async () => {
    const o = await org.offering({ kind: "appointment", duration_minutes: 120 })
    ok(await org.call("PATCH", `/offerings/${o.id}`, { schedule: "hours" }))
    expect(times(await org.slots(o.id, { from: "2040-01-06", to: "2040-01-06" }))).toEqual([
      "09:00",
      "11:00",
      "13:00",
      "15:00"
    ])
  })
})

describe("rentals", () => {
  it("offer periods of duration_minutes; remaining is the stock less the most out at once", async () => {
    const o = await org.offering({ kind: "rental", capacity: 3, duration_minutes: 120, max_per_booking: 3 })
    ok(await org.call("PUT", `/offerings/${o.id}/hours`, { hours: hours("09:00", "17:00") }))
    await seedBookings(app, org.id, [
      {
        offering_id: o.id,
        starts_at: localInstant("2040-01-03", "10:00"),
        ends_at: localInstant("2040-01-03", "12:00"),
        quantity: 2
      },
      {
        offering_id: o.id,
        starts_at: localInstant("2040-01-03", "11:00"),
        ends_at: localInstant("2040-01-03", "13:00"),
        quantity: 1
      },
      {
        offering_id: o.id,
        starts_at: localInstant("2040-01-03", "13:00"),
        ends_at: localInstant("2040-01-03", "14:00"),
        quantity: 1,
        status: "held",
        expires_at: "2040-01-02T11:00:00Z"
      }
    ])
    const slots = await org.slots(o.id, { from: "2040-01-03", to: "2040-01-03" })
    expect(
      slots.map(
        (s) =>
          `${wall(s.starts_at, org.timezone).time}-${wall(s.ends_at, org.timezone).time}/${s.capacity}/${s.remaining}`
      )
    ).toEqual(["09:00-11:00/3/1", "13:00-15:00/3/3", "15:00-17:00/3/3"])
  })

  it("keep the buffer free around what is out", async () => {
    const o = await org.offering({ kind: "rental", capacity: 3, duration_minutes: 120, buffer_minutes: 60 })
    ok(await org.call("PUT", `/offerings/${o.id}/hours`, { hours: hours("09:00", "17:00") }))
    await seedBookings(app, org.id, [
      {
        offering_id: o.id,
        starts_at: localInstant("2040-01-03", "13:00"),
        ends_at: localInstant("2040-01-03", "15:00"),
        quantity: 1
      }
    ])
    const slots = await org.slots(o.id, { from: "2040-01-03", to: "2040-01-03" })
    expect(slots.map((s) => `${wall(s.starts_at, org.timezone).time}/${s.remaining}`)).toEqual([
      "09:00/3",
      "11:00/2",
      "13:00/2",
      "15:00/2"
    ])
  })

  it("count a rental out over several days in each period it covers", async () => {
    const o = await org.offering({ kind: "rental", capacity: 2 })
    await seedBookings(app, org.id, [
      {
        offering_id: o.id,
        starts_at: localInstant("2040-01-03", "09:00"),
        ends_at: localInstant("2040-01-06", "09:00"),
        quantity: 1
      }
    ])
    expect(brief(await org.slots(o.id, { from: "2040-01-02", to: "2040-01-07" }))).toEqual([
      "2040-01-03 09:00/1",
      "2040-01-04 09:00/1",
      "2040-01-05 09:00/1",
      "2040-01-06 09:00/2",
      "2040-01-07 09:00/2"
    ])
  })
})

describe("courses", () => {
  it("offer one slot per entry that ends, from its first time to the last's end, with the seats left in its fullest time", async () => {
    const course = await org.klass({ course: true, capacity: 10 })
    const weekly = ok(
      await org.series.create({
        offering_id: course.id,
        starts_on: "2040-01-03",
        start_time: "18:00",
        end_time: "19:30",
        repeat: "weekly",
        ends_on: "2040-01-24"
      }),
      201
    )
    const once = ok(
      await org.series.create({
        offering_id: course.id,
        starts_on: "2040-01-06",
        start_time: "10:00",
        end_time: "16:00",
        span_days: 1
      }),
      201
    )
    const sessions = (await sessionsOf(org, course.id)).filter((s) => s.series_id === weekly.id)
    await seedBookings(app, org.id, [
      {
        offering_id: course.id,
        series_id: weekly.id,
        session_id: sessions[0].id,
        starts_at: sessions[0].starts_at,
        ends_at: sessions[3].ends_at,
        quantity: 2
      }
    ])
    await bookSession(app, org.id, sessions[2], { quantity: 3 })
    const slots = await org.slots(course.id)
    expect(slots).toEqual([
      {
        starts_at: sessions[0].starts_at,
        ends_at: sessions[3].ends_at,
        capacity: 10,
        remaining: 5,
        series_id: weekly.id,
        sessions: 4,
        repeat: "weekly"
      },
      {
        starts_at: localInstant("2040-01-06", "10:00"),
        ends_at: localInstant("2040-01-07", "16:00"),
        capacity: 10,
        remaining: 10,
        series_id: once.id,
        sessions: 1,
        repeat: "none"
      }
    ])
  })

  it("leave out a cancelled time, an entry whose first time is outside the window, and a full one", async () => {
    const course = await org.klass({ course: true, capacity: 4 })
    const a = ok(
      await org.series.create({
        offering_id: course.id,
        starts_on: "2040-01-03",
        start_time: "18:00",
        end_time: "19:00",
        repeat: "daily",
        ends_on: "2040-01-06"
      }),
      201
    )
    const later = ok(
      await org.series.create({
        offering_id: course.id,
        starts_on: "2040-02-01",
        start_time: "18:00",
        end_time: "19:00",
        repeat: "daily",
        ends_on: "2040-02-03"
      }),
      201
    )
    const full = ok(
      await org.series.create({
        offering_id: course.id,
        starts_on: "2040-01-04",
        start_time: "08:00",
        end_time: "09:00",
        repeat: "daily",
        ends_on: "2040-01-05"
      }),
      201
    )
    const all = await sessionsOf(org, course.id)
    const ofA = all.filter((s) => s.series_id === a.id)
    ok(await org.sessions.cancel(ofA[0].id))
    await bookSession(app, org.id, all.filter((s) => s.series_id === full.id)[1], { quantity: 4 })
    const slots = await org.slots(course.id)
    expect(slots.map((s) => [s.series_id, s.sessions, s.starts_at])).toEqual([[a.id, 3, ofA[1].starts_at]])
    expect((await org.slots(course.id, { from: "2040-02-01", to: "2040-02-01" })).map((s) => s.series_id)).toEqual([
      later.id
    ])
  })
})

describe("paused offerings", () => {
  it.each([
    ["a class", async () => (await dailyClass()).o],
    [
      "an appointment on weekly hours",
      () => org.onHours({ duration_minutes: 60, min_notice_minutes: 0 }, hours("09:00", "17:00"))
    ],
    ["a rental", () => org.offering({ kind: "rental" })],
    [
      "a course",
      async () => {
        const o = await org.klass({ course: true })
        ok(
          await org.series.create({
            offering_id: o.id,
            starts_on: "2040-01-03",
            start_time: "18:00",
            end_time: "19:00"
          }),
          201
        )
        return o
      }
    ]
  ])("offer nothing: %s", async (_, make) => {
    const o = await make()
    expect((await org.slots(o.id)).length).toBeGreaterThan(0)
    ok(await org.call("PATCH", `/offerings/${o.id}`, { active: false }))
    expect(ok(await org.availability(o.id))).toEqual({ timezone: "Europe/Amsterdam", data: [] })
    ok(await org.call("PATCH", `/offerings/${o.id}`, { active: true }))
    expect((await org.slots(o.id)).length).toBeGreaterThan(0)
  })
})
