import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bookSession, type Json, newOrg, type Org, ok, sessionsOf, startPinned, type TestApp, wall } from "./helpers.ts"

type Setup = { o: Json; entry: Json; sessions: ReadonlyArray<Json> }

let app: TestApp
let org: Org
let ana: string
let course: Setup
const setups: Array<Setup> = []

/** Weekly on Mondays 14:00-15:00 from today (2 January 2040, 13:00 local) to 30 January. */
const entryFromToday = async (): Promise<Setup> => {
  const o = await org.klass()
  const entry = ok(
    await org.series.create({
      offering_id: o.id,
      starts_on: "2040-01-02",
      start_time: "14:00",
      end_time: "15:00",
      repeat: "weekly",
      ends_on: "2040-01-30"
    }),
    201
  )
  return { o, entry, sessions: await sessionsOf(org, o.id) }
}

// One entry per test, made today; then two days pass, so each entry's first time is in the past.
beforeAll(async () => {
  app = await startPinned()
  org = await newOrg(app, "Europe/Amsterdam")
  ana = await org.member("ana@example.com", "Ana")
  for (let i = 0; i < 4; i++) setups.push(await entryFromToday())
  await bookSession(app, org.id, setups[2].sessions[0]) // the deleted entry's past time was booked
  const o = await org.klass({ course: true, capacity: 6 })
  const entry = ok(
    await org.series.create({
      offering_id: o.id,
      starts_on: "2040-01-02",
      start_time: "14:00",
      end_time: "15:00",
      repeat: "weekly",
      ends_on: "2040-01-30"
    }),
    201
  )
  course = { o, entry, sessions: await sessionsOf(org, o.id) }
  await bookSession(app, org.id, course.sessions[0], { quantity: 6 }) // its first time is full, and will be past
  await app.advance(2 * 86400)
})
afterAll(() => app.close())

const entryWithAPastTime = async (i: number) => {
  const setup = setups[i]
  expect(setup.sessions.map((s) => s.occurs_on)).toEqual([
    "2040-01-02",
    "2040-01-09",
    "2040-01-16",
    "2040-01-23",
    "2040-01-30"
  ])
  return setup
}

describe("times that have passed", () => {
  it("stay as they were when their entry's times change", async () => {
    const { o, entry, sessions } = await entryWithAPastTime(0)
    ok(await org.series.update(entry.id, { start_time: "16:00", end_time: "17:00" }))
    const after = await sessionsOf(org, o.id)
    expect(after[0]).toEqual({ ...sessions[0] })
    expect(after.map((s) => `${s.occurs_on} ${wall(s.starts_at, org.timezone).time}`)).toEqual([
      "2040-01-02 14:00",
      "2040-01-09 16:00",
      "2040-01-16 16:00",
      "2040-01-23 16:00",
      "2040-01-30 16:00"
    ])
  })

  it("keep their teacher when the entry gets a new one", async () => {
    const { o, entry } = await entryWithAPastTime(1)
    ok(await org.series.update(entry.id, { teacher: ana }))
    expect((await sessionsOf(org, o.id)).map((s) => s.teacher?.name ?? null)).toEqual([
      null,
      "Ana",
      "Ana",
      "Ana",
      "Ana"
    ])
  })

  it("stay on record when their entry is deleted, and a booking on one needs no cancel_bookings", async () => {
    const { o, entry, sessions } = await entryWithAPastTime(2)
    expect(ok(await org.series.remove(entry.id))).toEqual({ cancelled: 0 })
    expect(await sessionsOf(org, o.id)).toEqual([{ ...sessions[0], booked: 1 }])
  })

  it("are not offered as slots", async () => {
    const { o, sessions } = await entryWithAPastTime(3)
    const slots = await org.slots(o.id, { from: "2040-01-01", to: "2040-01-31" })
    expect(slots.map((s) => s.session_id)).toEqual(sessions.slice(1).map((s) => s.id))
  })

  it("leave a course's slot, which counts only the times to come and the seats left in them", async () => {
    const [slot] = await org.slots(course.o.id)
    expect(slot).toEqual({
      starts_at: course.sessions[1].starts_at,
      ends_at: course.sessions[4].ends_at,
      capacity: 6,
      remaining: 6,
      series_id: course.entry.id,
      sessions: 4,
      repeat: "weekly"
    })
  })
})
