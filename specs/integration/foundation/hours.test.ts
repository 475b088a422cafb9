import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { allEvents, expectError, type Json, offerings } from "./fixtures.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

const DEFAULT_HOURS = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
  weekday,
  start_time: "09:00:00",
  end_time: "17:00:00"
}))

/** An org with a rental (weekly hours from the start) and the offerings client. */
const rental = async () => {
  const org = await app.newOrg()
  const api = offerings(app, org.key)
  const offering = await api.create({ name: "Kayak", kind: "rental" })
  return { org, api, offering }
}

const entry = (weekday: number, start_time: string, end_time: string) => ({ weekday, start_time, end_time })

describe("weekly hours defaults", () => {
  it.each([
    ["a rental", { kind: "rental" }],
    ["an appointment on its calendar", { kind: "appointment" }],
    ["an appointment on hours", { kind: "appointment", schedule: "hours" }]
  ])("%s is open 09:00:00 to 17:00:00 every day until hours are set", async (_, body) => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const created = await api.create({ name: "H", ...body })
    const hours = await api.getHours(created.id)
    expect(hours.status).toBe(200)
    expect(hours.body).toEqual({ data: DEFAULT_HOURS })
  })

  it("a class has no weekly hours: get_hours and set_hours answer 409 not_hours_based", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const created = await api.create({ name: "Yoga", kind: "class" })
    expectError(await api.getHours(created.id), 409, "not_hours_based")
    expectError(await api.setHours(created.id, { hours: [entry(1, "09:00", "10:00")] }), 409, "not_hours_based")
  })
})

describe("offerings.set_hours", () => {
  it("replaces a rental's hours, normalized to HH:MM:SS and sorted", async () => {
    const { api, offering } = await rental()
    const res = await api.setHours(offering.id, {
      hours: [
        entry(6, "10:00", "24:00"),
        entry(1, "13:30:00", "17:00"),
        entry(1, "00:00", "12:00:00"),
        entry(0, "08:15", "08:20")
      ]
    })
    expect(res.status).toBe(200)
    const expected = [
      entry(0, "08:15:00", "08:20:00"),
      entry(1, "00:00:00", "12:00:00"),
      entry(1, "13:30:00", "17:00:00"),
      entry(6, "10:00:00", "24:00:00")
    ]
    expect(res.body).toEqual({ data: expected })
    expect((await api.getHours(offering.id)).body).toEqual({ data: expected })
  })

  it("replaces the previous hours entirely", async () => {
    const { api, offering } = await rental()
    await api.setHours(offering.id, { hours: [entry(1, "09:00", "12:00"), entry(2, "09:00", "12:00")] })
    await api.setHours(offering.id, { hours: [entry(3, "14:00", "15:00")] })
    expect((await api.getHours(offering.id)).body).toEqual({ data: [entry(3, "14:00:00", "15:00:00")] })
  })

  it("accepts an empty list: closed every day", async () => {
    const { api, offering } = await rental()
    expect((await api.setHours(offering.id, { hours: [] })).body).toEqual({ data: [] })
    expect((await api.getHours(offering.id)).body).toEqual({ data: [] })
  })

  it("accepts 50 entries and refuses 51 with 400 invalid_hours", async () => {
    const { api, offering } = await rental()
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        entry(
          i % 7,
          `${String(Math.floor(i / 7)).padStart(2, "0")}:00`,
          `${String(Math.floor(i / 7)).padStart(2, "0")}:30`
        )
      )
    const fifty = await api.setHours(offering.id, { hours: many(50) })
    expect(fifty.status).toBe(200)
    expect(fifty.body.data).toHaveLength(50)
    expectError(await api.setHours(offering.id, { hours: many(51) }), 400, "invalid_hours")
    expect((await api.getHours(offering.id)).body.data).toHaveLength(50)
  })

  it.each([
    ["weekday 0 and 6", [entry(0, "09:00", "10:00"), entry(6, "09:00", "10:00")]],
    ["HH:MM", [entry(2, "07:05", "19:55")]],
    ["HH:MM:SS with seconds 00", [entry(2, "07:05:00", "19:55:00")]],
    ["24:00 as an end", [entry(2, "23:00", "24:00")]],
    ["00:00 as a start", [entry(2, "00:00", "00:01")]],
    ["a whole day", [entry(2, "00:00", "24:00")]]
  ])("accepts %s", async (_, hours) => {
    const { api, offering } = await rental()
    const res = await api.setHours(offering.id, { hours })
    expect(res.status).toBe(200)
    for (const h of res.body.data as Array<Json>) {
      expect(h.start_time).toMatch(/^\d{2}:\d{2}:00$/)
      expect(h.end_time).toMatch(/^\d{2}:\d{2}:00$/)
    }
  })

  it.each([
    ["weekday -1", [entry(-1, "09:00", "10:00")]],
    ["weekday 7", [entry(7, "09:00", "10:00")]],
    ["weekday 1.5", [entry(1.5, "09:00", "10:00")]],
    ['weekday "1"', [{ weekday: "1", start_time: "09:00", end_time: "10:00" }]],
    ["seconds other than 00", [entry(1, "09:00:30", "10:00")]],
    ["a one-digit hour", [entry(1, "9:00", "10:00")]],
    ["no colon", [entry(1, "0900", "1000")]],
    ["hour 25", [entry(1, "09:00", "25:00")]],
    ["minute 60", [entry(1, "09:60", "10:00")]],
    ["24:01", [entry(1, "09:00", "24:01")]],
    ["24:30", [entry(1, "09:00", "24:30")]],
    ["an empty time", [entry(1, "", "10:00")]],
    ["a number as time", [{ weekday: 1, start_time: 900, end_time: "10:00" }]],
    ["a missing end_time", [{ weekday: 1, start_time: "09:00" }]],
    ["a missing weekday", [{ start_time: "09:00", end_time: "10:00" }]],
    ["end equal to start", [entry(1, "09:00", "09:00:00")]],
    ["end before start", [entry(1, "17:00", "09:00")]],
    ["start at 24:00", [entry(1, "24:00", "24:00")]],
    ["a bad second entry", [entry(1, "09:00", "10:00"), entry(2, "12:00", "11:00")]],
    ["an entry that is not an object", ["09:00-10:00"]],
    ["hours that is not a list", { 1: "09:00" }],
    ["hours null", null]
  ])("refuses %s with 400 invalid_hours and keeps the hours", async (_, hours) => {
    const { api, offering } = await rental()
    await api.setHours(offering.id, { hours: [entry(4, "10:00", "11:00")] })
    expectError(await api.setHours(offering.id, { hours }), 400, "invalid_hours")
    expect((await api.getHours(offering.id)).body).toEqual({ data: [entry(4, "10:00:00", "11:00:00")] })
  })

  it("refuses a body without hours with 400 invalid_hours", async () => {
    const { api, offering } = await rental()
    expectError(await api.setHours(offering.id, {}), 400, "invalid_hours")
  })

  it.each([
    ["a field in an entry", { hours: [{ ...entry(1, "09:00", "10:00"), timezone: "UTC" }] }],
    ["a field beside hours", { hours: [], replace: true }]
  ])("refuses %s with 400 unknown_field", async (_, body) => {
    const { api, offering } = await rental()
    expectError(await api.setHours(offering.id, body), 400, "unknown_field")
    expect((await api.getHours(offering.id)).body).toEqual({ data: DEFAULT_HOURS })
  })

  it("refuses malformed JSON with 400 invalid_json", async () => {
    const { org, offering } = await rental()
    expectError(
      await app.call(org.key, "PUT", `/api/v1/offerings/${offering.id}/hours`, '{"hours": ['),
      400,
      "invalid_json"
    )
  })

  it("writes offering.hours_updated with the offering and its new hours", async () => {
    const { org, api, offering } = await rental()
    const res = await api.setHours(offering.id, { hours: [entry(5, "09:00", "12:00")] })
    const events = await allEvents(app, org.key, "offering.hours_updated")
    expect(events).toHaveLength(1)
    expect(events[0].data).toEqual({ ...(await api.get(offering.id)).body, hours: res.body.data })
  })
})

describe("appointments and their schedule", () => {
  it("refuses set_hours on a calendar appointment (409 schedule_is_calendar), then works after schedule=hours", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const created = await api.create({ name: "Consult", kind: "appointment" })
    expectError(await api.setHours(created.id, { hours: [entry(1, "09:00", "12:00")] }), 409, "schedule_is_calendar")
    expect((await api.getHours(created.id)).body).toEqual({ data: DEFAULT_HOURS })
    expect((await api.patch(created.id, { schedule: "hours" })).status).toBe(200)
    const res = await api.setHours(created.id, { hours: [entry(1, "09:00", "12:00")] })
    expect(res.status).toBe(200)
    expect((await api.getHours(created.id)).body).toEqual({ data: [entry(1, "09:00:00", "12:00:00")] })
  })

  it("keeps the hours while an appointment goes back to its calendar and returns", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const created = await api.create({ name: "Consult", kind: "appointment", schedule: "hours" })
    await api.setHours(created.id, { hours: [entry(2, "10:00", "11:00")] })
    await api.patch(created.id, { schedule: "calendar" })
    expectError(await api.setHours(created.id, { hours: [] }), 409, "schedule_is_calendar")
    await api.patch(created.id, { schedule: "hours" })
    expect((await api.getHours(created.id)).body).toEqual({ data: [entry(2, "10:00:00", "11:00:00")] })
  })
})
