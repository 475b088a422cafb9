import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { offsetOf } from "../../property/time/intl.ts"
import { addDaysTo, newOrg, ok, sessionsOf, startPinned, type TestApp, wall } from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startPinned()
})
afterAll(() => app.close())

const HOUR = 3_600_000
const WEEK = 7 * 24 * HOUR

type Change = { zone: string; kind: "spring" | "fall"; date: string; gap: number; at: string; repeated?: string }

/**
 * The 2040 changes, all on a Sunday at 02:00 local. `gap` is the minutes the clock jumps; `at` is the
 * instant of the change; `repeated` is a local time that happens twice when the clocks go back.
 */
const CHANGES: ReadonlyArray<Change> = [
  { zone: "Europe/Amsterdam", kind: "spring", date: "2040-03-25", gap: 60, at: "2040-03-25T01:00:00.000Z" },
  {
    zone: "Europe/Amsterdam",
    kind: "fall",
    date: "2040-10-28",
    gap: 60,
    at: "2040-10-28T01:00:00.000Z",
    repeated: "02:30"
  },
  { zone: "America/New_York", kind: "spring", date: "2040-03-11", gap: 60, at: "2040-03-11T07:00:00.000Z" },
  {
    zone: "America/New_York",
    kind: "fall",
    date: "2040-11-04",
    gap: 60,
    at: "2040-11-04T06:00:00.000Z",
    repeated: "01:30"
  },
  { zone: "Australia/Lord_Howe", kind: "spring", date: "2040-10-07", gap: 30, at: "2040-10-06T15:30:00.000Z" },
  {
    zone: "Australia/Lord_Howe",
    kind: "fall",
    date: "2040-04-01",
    gap: 30,
    at: "2040-03-31T15:00:00.000Z",
    repeated: "01:45"
  }
]
const SPRING = CHANGES.filter((c) => c.kind === "spring")
const FALL = CHANGES.filter((c) => c.kind === "fall")
const name = (c: Change) => `${c.zone} on ${c.date}`

describe("the test's own table", () => {
  it.each(CHANGES.map((c) => [name(c), c] as const))(
    "%s changes the offset by the gap at the instant given (read from Intl)",
    (_, c) => {
      const at = Date.parse(c.at)
      const shift = offsetOf(new Date(at), c.zone) - offsetOf(new Date(at - 1000), c.zone)
      expect(shift).toBe(c.kind === "spring" ? c.gap : -c.gap)
    }
  )
})

describe("weekly hours across a change", () => {
  it.each(CHANGES.map((c) => [name(c), c] as const))("%s: slots keep their local wall time", async (_, c) => {
    const org = await newOrg(app, c.zone)
    const o = await org.onHours({ duration_minutes: 60, min_notice_minutes: 0, max_advance_days: 730 }, [
      { weekday: 0, start_time: "09:00", end_time: "11:00" }
    ])
    const slots = await org.slots(o.id, { from: addDaysTo(c.date, -7), to: addDaysTo(c.date, 7) })
    expect(slots.map((s) => wall(s.starts_at, c.zone))).toEqual(
      [-7, 0, 7].flatMap((d) => ["09:00", "10:00"].map((time) => ({ date: addDaysTo(c.date, d), time })))
    )
    // Across the change, 09:00 local moves in UTC by the gap: earlier in spring, later in the fall.
    const nine = slots.filter((_, i) => i % 2 === 0).map((s) => Date.parse(s.starts_at))
    const shift = (c.kind === "spring" ? -c.gap : c.gap) * 60_000
    expect([nine[1] - nine[0], nine[2] - nine[1]]).toEqual([WEEK + shift, WEEK])
  })

  it.each(SPRING.map((c) => [name(c), c] as const))(
    "%s: hours from a time that does not exist open when the clock jumps",
    async (_, c) => {
      const org = await newOrg(app, c.zone)
      const o = await org.onHours({ duration_minutes: 30, min_notice_minutes: 0, max_advance_days: 730 }, [
        { weekday: 0, start_time: "02:00", end_time: "04:00" }
      ])
      const before = await org.slots(o.id, { from: addDaysTo(c.date, -7), to: addDaysTo(c.date, -7) })
      const on = await org.slots(o.id, { from: c.date, to: c.date })
      expect(before.map((s) => wall(s.starts_at, c.zone).time)).toEqual(["02:00", "02:30", "03:00", "03:30"])
      expect(on[0].starts_at).toBe(c.at)
      expect(on.map((s) => wall(s.starts_at, c.zone).time)).toEqual(
        c.gap === 60 ? ["03:00", "03:30"] : ["02:30", "03:00", "03:30"]
      )
    }
  )
})

describe("calendar entries across a change", () => {
  it.each(CHANGES.map((c) => [name(c), c] as const))("%s: a weekly entry keeps 18:00 local", async (_, c) => {
    const org = await newOrg(app, c.zone)
    const o = await org.klass()
    ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: addDaysTo(c.date, -7),
        start_time: "18:00",
        end_time: "19:00",
        repeat: "weekly",
        ends_on: addDaysTo(c.date, 7)
      }),
      201
    )
    const sessions = await sessionsOf(org, o.id)
    expect(
      sessions.map((s) => [
        s.occurs_on,
        wall(s.starts_at, c.zone).time,
        Date.parse(s.ends_at) - Date.parse(s.starts_at)
      ])
    ).toEqual([-7, 0, 7].map((d) => [addDaysTo(c.date, d), "18:00", HOUR]))
    const starts = sessions.map((s) => Date.parse(s.starts_at))
    expect(starts[1] - starts[0]).toBe(WEEK + (c.kind === "spring" ? -c.gap : c.gap) * 60_000)
  })

  it.each(SPRING.map((c) => [name(c), c] as const))(
    "%s: a time that does not exist moves forward by the gap and keeps its length",
    async (_, c) => {
      const org = await newOrg(app, c.zone)
      const o = await org.klass()
      ok(
        await org.series.create({
          offering_id: o.id,
          starts_on: addDaysTo(c.date, -1),
          start_time: "02:15",
          end_time: "05:00",
          repeat: "daily",
          ends_on: addDaysTo(c.date, 1)
        }),
        201
      )
      const sessions = await sessionsOf(org, o.id)
      const moved = c.gap === 60 ? "03:15-06:00" : "02:45-05:30"
      expect(
        sessions.map((s) => `${s.occurs_on} ${wall(s.starts_at, c.zone).time}-${wall(s.ends_at, c.zone).time}`)
      ).toEqual([`${addDaysTo(c.date, -1)} 02:15-05:00`, `${c.date} ${moved}`, `${addDaysTo(c.date, 1)} 02:15-05:00`])
      expect(Date.parse(sessions[1].starts_at)).toBe(Date.parse(c.at) + 15 * 60_000)
      expect(sessions.map((s) => Date.parse(s.ends_at) - Date.parse(s.starts_at))).toEqual(
        [165, 165, 165].map((m) => m * 60_000)
      )
    }
  )

  it.each(FALL.map((c) => [name(c), c] as const))(
    "%s: a time that happens twice takes the earlier instant",
    async (_, c) => {
      const org = await newOrg(app, c.zone)
      const o = await org.klass()
      ok(
        await org.series.create({ offering_id: o.id, starts_on: c.date, start_time: c.repeated!, end_time: "05:00" }),
        201
      )
      const [s] = await sessionsOf(org, o.id)
      expect(wall(s.starts_at, c.zone)).toEqual({ date: c.date, time: c.repeated })
      // The earlier one is before the change; the later one would be the gap after.
      expect(Date.parse(s.starts_at)).toBeLessThan(Date.parse(c.at))
      expect(wall(new Date(Date.parse(s.starts_at) + c.gap * 60_000).toISOString(), c.zone).time).toBe(c.repeated)
    }
  )

  it.each(CHANGES.map((c) => [name(c), c] as const))(
    "%s: an all-day time runs midnight to midnight, as long as the day is",
    async (_, c) => {
      const org = await newOrg(app, c.zone)
      const o = await org.klass()
      ok(await org.series.create({ offering_id: o.id, starts_on: c.date }), 201)
      const [s] = await sessionsOf(org, o.id)
      expect([wall(s.starts_at, c.zone), wall(s.ends_at, c.zone)]).toEqual([
        { date: c.date, time: "00:00" },
        { date: addDaysTo(c.date, 1), time: "00:00" }
      ])
      expect(Date.parse(s.ends_at) - Date.parse(s.starts_at)).toBe(
        24 * HOUR + (c.kind === "spring" ? -c.gap : c.gap) * 60_000
      )
    }
  )
})

describe("class slots across a change", () => {
  it.each(CHANGES.map((c) => [name(c), c] as const))("%s: the window runs local midnight to midnight", async (_, c) => {
    const org = await newOrg(app, c.zone)
    const o = await org.klass({ max_advance_days: 730 })
    // Times just inside and just outside the change day, by local wall clock.
    ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: addDaysTo(c.date, -1),
        start_time: "23:30",
        end_time: "23:45",
        repeat: "daily",
        ends_on: c.date
      }),
      201
    )
    ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: c.date,
        start_time: "00:00",
        end_time: "00:15",
        repeat: "daily",
        ends_on: addDaysTo(c.date, 1)
      }),
      201
    )
    const slots = await org.slots(o.id, { from: c.date, to: c.date })
    expect(slots.map((s) => `${wall(s.starts_at, c.zone).date} ${wall(s.starts_at, c.zone).time}`)).toEqual([
      `${c.date} 00:00`,
      `${c.date} 23:30`
    ])
  })
})
