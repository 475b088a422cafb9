import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { advanceTo, newOrg, type Org, ok, sessionsOf, startPinned, type TestApp, wall } from "./helpers.ts"

// The engine clock only moves forward, so each test has its own app.
let app: TestApp
let org: Org
beforeEach(async () => {
  app = await startPinned()
  org = await newOrg(app, "Europe/Amsterdam")
})
afterEach(() => app.close())

const DAY = 86400

const entryOf = async (offeringId: string) => ok(await org.series.list(offeringId)).data[0]
const lastDate = async (offeringId: string) => (await sessionsOf(org, offeringId)).at(-1)!.occurs_on as string

describe("the repeat extension job", () => {
  it("moves made_until forward as the clock moves and makes the new times", async () => {
    const weekly = await org.klass()
    const daily = await org.klass()
    const bounded = await org.klass()
    const once = await org.klass()
    const gone = await org.klass()
    ok(
      await org.series.create({
        offering_id: weekly.id,
        starts_on: "2040-01-03",
        start_time: "18:00",
        end_time: "19:00",
        repeat: "weekly"
      }),
      201
    )
    ok(
      await org.series.create({
        offering_id: daily.id,
        starts_on: "2040-01-03",
        start_time: "07:00",
        end_time: "08:00",
        repeat: "daily"
      }),
      201
    )
    ok(
      await org.series.create({
        offering_id: bounded.id,
        starts_on: "2040-01-03",
        start_time: "18:00",
        end_time: "19:00",
        repeat: "weekly",
        ends_on: "2041-03-01"
      }),
      201
    )
    ok(
      await org.series.create({
        offering_id: once.id,
        starts_on: "2040-01-03",
        start_time: "18:00",
        end_time: "19:00"
      }),
      201
    )
    const removed = ok(
      await org.series.create({
        offering_id: gone.id,
        starts_on: "2040-01-03",
        start_time: "18:00",
        end_time: "19:00",
        repeat: "weekly"
      }),
      201
    )
    ok(await org.series.remove(removed.id))
    const goneBefore = (await sessionsOf(org, gone.id)).length

    expect((await entryOf(weekly.id)).made_until).toBe("2041-01-01")
    expect(await lastDate(weekly.id)).toBe("2041-01-01")
    const weeklyBefore = (await sessionsOf(org, weekly.id)).length

    await app.advance(30 * DAY)
    expect((await entryOf(weekly.id)).made_until).toBe("2041-01-31")
    expect((await entryOf(daily.id)).made_until).toBe("2041-01-31")
    expect((await entryOf(bounded.id)).made_until).toBe("2041-01-31")
    expect((await entryOf(once.id)).made_until).toBe("2040-01-03")
    expect(await lastDate(weekly.id)).toBe("2041-01-29")
    expect(await lastDate(daily.id)).toBe("2041-01-31")
    const weeklyAfter = await sessionsOf(org, weekly.id)
    expect(weeklyAfter.length).toBe(weeklyBefore + 4)
    // The new times are at the entry's local time and one per date.
    expect(weeklyAfter.slice(-4).map((s) => wall(s.starts_at, org.timezone))).toEqual(
      ["2041-01-08", "2041-01-15", "2041-01-22", "2041-01-29"].map((date) => ({ date, time: "18:00" }))
    )
    expect(new Set(weeklyAfter.map((s) => s.occurs_on)).size).toBe(weeklyAfter.length)

    await app.advance(400 * DAY)
    // 2040-01-02 12:00Z + 430 days: 7 March 2041 local; a year ahead is 7 March 2042.
    expect((await entryOf(weekly.id)).made_until).toBe("2042-03-07")
    expect(await lastDate(weekly.id)).toBe("2042-03-04")
    expect((await entryOf(bounded.id)).made_until).toBe("2041-03-01")
    expect(await lastDate(bounded.id)).toBe("2041-02-26")
    expect(await sessionsOf(org, once.id)).toHaveLength(1)
    expect(await sessionsOf(org, gone.id)).toHaveLength(goneBefore)
  })

  it("moves a yearly entry on 29 February to 28 February in years without one", async () => {
    const leap = await org.klass()
    const march = await org.klass()
    ok(
      await org.series.create({
        offering_id: leap.id,
        starts_on: "2040-02-29",
        start_time: "10:00",
        end_time: "11:00",
        repeat: "yearly"
      }),
      201
    )
    ok(
      await org.series.create({
        offering_id: march.id,
        starts_on: "2040-03-15",
        start_time: "10:00",
        end_time: "11:00",
        repeat: "yearly"
      }),
      201
    )
    expect((await sessionsOf(org, leap.id)).map((s) => s.occurs_on)).toEqual(["2040-02-29"])
    await advanceTo(app, new Date("2043-06-01T00:00:00Z"))
    const sessions = await sessionsOf(org, leap.id)
    expect(sessions.map((s) => s.occurs_on)).toEqual([
      "2040-02-29",
      "2041-02-28",
      "2042-02-28",
      "2043-02-28",
      "2044-02-29"
    ])
    expect(sessions.map((s) => wall(s.starts_at, org.timezone).date)).toEqual(sessions.map((s) => s.occurs_on))
    expect((await sessionsOf(org, march.id)).map((s) => s.occurs_on)).toEqual([
      "2040-03-15",
      "2041-03-15",
      "2042-03-15",
      "2043-03-15",
      "2044-03-15"
    ])
  })
})
