import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { startPinned } from "./helpers.ts"

// On the pinned clock (Monday 07:00 in New York): on the wall clock, a run on a Monday morning in New York found
// that morning's first slots already past.
let app: TestApp
beforeAll(async () => {
  app = await startPinned()
})
afterAll(() => app.close())

describe("calendar flow", () => {
  it("a weekly class entry makes a year of times, offered as slots", async () => {
    const org = await app.newOrg({ timezone: "Europe/Amsterdam" })
    const { body: yoga } = await app.call(org.key, "POST", "/api/v1/offerings", {
      name: "Yoga",
      kind: "class",
      capacity: 8
    })
    const now = new Date((await app.admin("GET", "/clock")).body.now)
    const startsOn = new Date(now.getTime() + 2 * 86400000).toISOString().slice(0, 10)
    const entry = await app.call(org.key, "POST", "/api/v1/series", {
      offering_id: yoga.id,
      starts_on: startsOn,
      start_time: "18:00",
      end_time: "19:00",
      repeat: "weekly"
    })
    expect(entry.status).toBe(201)
    expect(entry.body).toMatchObject({ start_time: "18:00:00", end_time: "19:00:00", repeat: "weekly", span_days: 0 })
    const sessions = await app.call(org.key, "GET", `/api/v1/sessions?offering_id=${yoga.id}`)
    expect(sessions.body.data.length).toBeGreaterThanOrEqual(52)
    expect(sessions.body.data[0]).toMatchObject({
      booked: 0,
      status: "scheduled",
      series_id: entry.body.id,
      occurs_on: startsOn
    })
    const slots = await app.call(org.key, "GET", `/api/v1/offerings/${yoga.id}/availability`)
    expect(slots.status).toBe(200)
    expect(slots.body.timezone).toBe("Europe/Amsterdam")
    expect(slots.body.data.length).toBe(2)
    expect(slots.body.data[0]).toMatchObject({ capacity: 8, remaining: 8, session_id: sessions.body.data[0].id })
  })

  it("an appointment on weekly hours offers back-to-back slots inside the hours", async () => {
    const org = await app.newOrg({ timezone: "America/New_York" })
    const { body: appt } = await app.call(org.key, "POST", "/api/v1/offerings", {
      name: "Cut",
      kind: "appointment",
      duration_minutes: 60,
      min_notice_minutes: 0
    })
    expect((await app.call(org.key, "PATCH", `/api/v1/offerings/${appt.id}`, { schedule: "hours" })).status).toBe(200)
    const set = await app.call(org.key, "PUT", `/api/v1/offerings/${appt.id}/hours`, {
      hours: [{ weekday: 1, start_time: "09:00", end_time: "12:00" }]
    })
    expect(set.status).toBe(200)
    const slots = await app.call(org.key, "GET", `/api/v1/offerings/${appt.id}/availability`)
    expect(slots.body.data.length).toBe(6)
  })

  it("a rental of a day per period is picked up and returned while open", async () => {
    const org = await app.newOrg()
    const { body: kayak } = await app.call(org.key, "POST", "/api/v1/offerings", {
      name: "Kayak",
      kind: "rental",
      capacity: 3
    })
    const slots = await app.call(org.key, "GET", `/api/v1/offerings/${kayak.id}/availability`)
    expect(slots.body.data.length).toBeGreaterThanOrEqual(13)
    expect(slots.body.data[0]).toMatchObject({ capacity: 3, remaining: 3 })
  })
})
