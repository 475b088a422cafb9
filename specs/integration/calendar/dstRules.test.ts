import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { addDaysTo, type Json, newOrg, ok, sessionsOf, startPinned, type TestApp, wall } from "./helpers.ts"

// The rules of docs/behaviour.md "Time" for series, sessions.create repeat_weeks and weekly hours, on both changes of
// three zones in 2040 (the engine clock is pinned at 2 January 2040). Each zone's `gap` is a time inside its
// spring-forward gap and `twice` one inside its repeated hour when the clocks go back; `moved` is `gap` moved forward.
let app: TestApp
beforeAll(async () => {
  app = await startPinned()
})
afterAll(() => app.close())

const HOUR = 3_600_000
type Zone = {
  zone: string
  spring: string
  fall: string
  gap: [string, string]
  moved: string
  twice: [string, string]
  jump: number
}
const ZONES: ReadonlyArray<Zone> = [
  {
    zone: "Europe/Amsterdam",
    spring: "2040-03-25",
    fall: "2040-10-28",
    gap: ["02:15", "02:45"],
    moved: "03:15",
    twice: ["02:15", "02:45"],
    jump: 60
  },
  {
    zone: "America/New_York",
    spring: "2040-03-11",
    fall: "2040-11-04",
    gap: ["02:15", "02:45"],
    moved: "03:15",
    twice: ["01:15", "01:45"],
    jump: 60
  },
  {
    zone: "Australia/Lord_Howe",
    spring: "2040-10-07",
    fall: "2040-04-01",
    gap: ["02:05", "02:25"],
    moved: "02:35",
    twice: ["01:35", "01:55"],
    jump: 30
  }
]
const each = (what: string) => ZONES.map((z) => [`${z.zone}: ${what}`, z] as const)
const times = (sessions: ReadonlyArray<Json>, zone: string) =>
  sessions.map((s) => `${wall(s.starts_at, zone).date} ${wall(s.starts_at, zone).time}-${wall(s.ends_at, zone).time}`)
const lengths = (sessions: ReadonlyArray<Json>) =>
  sessions.map((s) => (Date.parse(s.ends_at) - Date.parse(s.starts_at)) / 60_000)
const plus = (time: string, minutes: number) => {
  const m = Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) + minutes
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`
}

describe("a series whose time is in the spring-forward gap", () => {
  it.each(each("a one-off 60-minute time moves forward by the gap and keeps its hour"))("%s", async (_, z) => {
    const org = await newOrg(app, z.zone)
    const o = await org.klass()
    ok(
      await org.series.create({
        offering_id: o.id,
        starts_on: z.spring,
        start_time: z.gap[0],
        end_time: plus(z.gap[0], 60)
      }),
      201
    )
    const sessions = await sessionsOf(org, o.id)
    expect(times(sessions, z.zone)).toEqual([`${z.spring} ${z.moved}-${plus(z.moved, 60)}`])
    expect(lengths(sessions)).toEqual([60])
  })

  it.each(each("weekly and daily series that include the day are created, every time as long as its local times"))(
    "%s",
    async (_, z) => {
      const org = await newOrg(app, z.zone)
      const o = await org.klass()
      const time = { start_time: z.gap[0], end_time: plus(z.gap[0], 60) }
      ok(
        await org.series.create({
          offering_id: o.id,
          starts_on: addDaysTo(z.spring, -14),
          repeat: "weekly",
          ends_on: addDaysTo(z.spring, 14),
          ...time
        }),
        201
      )
      ok(
        await org.series.create({
          offering_id: o.id,
          starts_on: addDaysTo(z.spring, -1),
          repeat: "daily",
          ends_on: addDaysTo(z.spring, 1),
          ...time
        }),
        201
      )
      const sessions = await sessionsOf(org, o.id)
      expect(sessions.length).toBe(8)
      expect(lengths(sessions)).toEqual(sessions.map(() => 60))
      const onTheDay = sessions.filter((s) => s.occurs_on === z.spring)
      expect(times(onTheDay, z.zone)).toEqual([
        `${z.spring} ${z.moved}-${plus(z.moved, 60)}`,
        `${z.spring} ${z.moved}-${plus(z.moved, 60)}`
      ])
      for (const s of sessions.filter((s) => s.occurs_on !== z.spring))
        expect(wall(s.starts_at, z.zone)).toEqual({ date: s.occurs_on, time: z.gap[0] })
    }
  )
})

describe("a series whose time is in the repeated hour when the clocks go back", () => {
  it.each(each("a 60-minute time takes the earlier instant and lasts one hour, not one plus the change"))(
    "%s",
    async (_, z) => {
      const org = await newOrg(app, z.zone)
      const o = await org.klass()
      ok(
        await org.series.create({
          offering_id: o.id,
          starts_on: addDaysTo(z.fall, -7),
          start_time: z.twice[0],
          end_time: plus(z.twice[0], 60),
          repeat: "weekly",
          ends_on: addDaysTo(z.fall, 7)
        }),
        201
      )
      const sessions = await sessionsOf(org, o.id)
      expect(lengths(sessions)).toEqual([60, 60, 60])
      const [, onTheDay] = sessions
      expect(wall(onTheDay.starts_at, z.zone)).toEqual({ date: z.fall, time: z.twice[0] })
      // The earlier instant: the same reading comes again `jump` minutes later.
      expect(wall(new Date(Date.parse(onTheDay.starts_at) + z.jump * 60_000).toISOString(), z.zone)).toEqual({
        date: z.fall,
        time: z.twice[0]
      })
    }
  )
})

describe("sessions.create repeat_weeks across both changes", () => {
  it.each(
    each(
      "53 weekly times (the first and 52 more) from a Sunday at a time in the gap: every one an hour, at that local time but on the spring day"
    )
  )("%s", async (_, z) => {
    const org = await newOrg(app, z.zone)
    const o = await org.klass({ duration_minutes: 60 })
    const first = "2040-01-08"
    const made = await org.sessions.make({
      offering_id: o.id,
      starts_at: await localInstant(z.zone, first, z.gap[0]),
      repeat_weeks: 52
    })
    expect(made.length).toBe(53)
    expect(lengths(made)).toEqual(made.map(() => 60))
    const readings = made.map((s) => wall(s.starts_at, z.zone))
    expect(readings).toEqual(
      made.map((_, i) => {
        const day = addDaysTo(first, 7 * i)
        return { date: day, time: day === z.spring ? z.moved : z.gap[0] }
      })
    )
    expect(readings.map((r) => r.date)).toEqual(expect.arrayContaining([z.spring, z.fall]))
  })
})

describe("weekly hours on the change days", () => {
  it.each(each("hours inside the gap offer nothing on the spring day, and the usual slots a week before"))(
    "%s",
    async (_, z) => {
      const org = await newOrg(app, z.zone)
      const o = await org.onHours({ duration_minutes: 5, min_notice_minutes: 0, max_advance_days: 730 }, [
        { weekday: 0, start_time: z.gap[0], end_time: z.gap[1] }
      ])
      expect(await org.slots(o.id, { from: z.spring, to: z.spring })).toEqual([])
      const before = await org.slots(o.id, { from: addDaysTo(z.spring, -7), to: addDaysTo(z.spring, -7) })
      expect(before.map((s) => wall(s.starts_at, z.zone).time)[0]).toBe(z.gap[0])
      expect(before.length).toBeGreaterThan(0)
    }
  )

  it.each(each("hours inside the repeated hour are open once, the first time the clock reads them"))(
    "%s",
    async (_, z) => {
      const org = await newOrg(app, z.zone)
      const o = await org.onHours({ duration_minutes: 5, min_notice_minutes: 0, max_advance_days: 730 }, [
        { weekday: 0, start_time: z.twice[0], end_time: z.twice[1] }
      ])
      const slots = await org.slots(o.id, { from: z.fall, to: z.fall })
      const minutes = (Number(z.twice[1].slice(3)) - Number(z.twice[0].slice(3))) / 5
      expect(slots.length).toBe(minutes)
      expect(wall(slots[0].starts_at, z.zone).time).toBe(z.twice[0])
      expect(Date.parse(slots[slots.length - 1].ends_at) - Date.parse(slots[0].starts_at)).toBe(minutes * 5 * 60_000)
    }
  )
})

/** The instant at which the clock in `zone` reads `date` `time` (found with Intl, not engine/time). */
async function localInstant(zone: string, date: string, time: string) {
  for (
    let t = Date.parse(`${date}T${time}:00Z`) - 15 * HOUR;
    t <= Date.parse(`${date}T${time}:00Z`) + 15 * HOUR;
    t += 60_000
  ) {
    const w = wall(new Date(t).toISOString(), zone)
    if (w.date === date && w.time === time) return new Date(t).toISOString()
  }
  throw new Error(`${date} ${time} does not exist in ${zone}`)
}
