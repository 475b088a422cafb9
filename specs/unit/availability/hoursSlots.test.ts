import { describe, expect, it } from "vitest"
import { type HoursSlotsInput, hoursSlots } from "../../../engine/availability/index.ts"
import { DEFAULT_HOURS } from "../../../engine/time/hours.ts"

const base: HoursSlotsInput = {
  hours: DEFAULT_HOURS,
  zone: "UTC",
  from: "2026-11-23",
  to: "2026-11-23",
  now: new Date("2026-11-22T12:00:00Z"),
  duration_minutes: 60,
  slot_interval_minutes: null,
  buffer_minutes: 0,
  min_notice_minutes: 0,
  max_advance_days: 30,
  capacity: 1,
  busy: [],
  active: true
}
const busy = (start: string, end: string, quantity = 1) => ({
  starts_at: new Date(`2026-11-23T${start}:00Z`),
  ends_at: new Date(`2026-11-23T${end}:00Z`),
  quantity
})
const startTimes = (input: Partial<HoursSlotsInput>) =>
  hoursSlots({ ...base, ...input }).map((s) => s.starts_at.slice(11, 16))

describe("hoursSlots", () => {
  it("steps back to back through the open hours by default", () => {
    expect(startTimes({})).toEqual(["09:00", "10:00", "11:00", "12:00", "13:00", "14:00", "15:00", "16:00"])
    expect(hoursSlots(base)[0]).toEqual({
      starts_at: "2026-11-23T09:00:00.000Z",
      ends_at: "2026-11-23T10:00:00.000Z",
      capacity: 1,
      remaining: 1
    })
  })

  it("steps by the interval and keeps each slot inside one window", () => {
    const hours = [{ weekday: 1, start_time: "09:00:00", end_time: "11:30:00" }]
    expect(startTimes({ hours, slot_interval_minutes: 45 })).toEqual(["09:00", "09:45", "10:30"])
    expect(startTimes({ hours, slot_interval_minutes: 50 })).toEqual(["09:00", "09:50"])
    expect(startTimes({ hours, duration_minutes: 150 })).toEqual(["09:00"])
    expect(startTimes({ hours, duration_minutes: 155 })).toEqual([])
  })

  it("honours notice and advance", () => {
    const now = new Date("2026-11-23T09:10:00Z")
    expect(startTimes({ now, min_notice_minutes: 60, slot_interval_minutes: 30 })[0]).toBe("10:30")
    expect(startTimes({ now, min_notice_minutes: 50, slot_interval_minutes: 30 })[0]).toBe("10:00")
    const days = hoursSlots({ ...base, now, from: "2026-11-23", to: "2026-11-30", max_advance_days: 1 })
    expect(days[days.length - 1].starts_at).toBe("2026-11-24T09:00:00.000Z")
  })

  it("keeps the buffer free before and after each booking", () => {
    const input = { busy: [busy("11:00", "12:00")], buffer_minutes: 15, slot_interval_minutes: 15 }
    const times = startTimes(input)
    expect(times.slice(0, 4)).toEqual(["09:00", "09:15", "09:30", "09:45"])
    expect(times[4]).toBe("12:15")
  })

  it("counts the peak of parallel bookings, not their sum", () => {
    const slots = hoursSlots({ ...base, capacity: 3, busy: [busy("10:00", "10:30", 2), busy("10:30", "11:00", 2)] })
    expect(slots.find((s) => s.starts_at.startsWith("2026-11-23T10:00"))?.remaining).toBe(1)
    const full = hoursSlots({ ...base, capacity: 3, busy: [busy("10:00", "10:45", 2), busy("10:30", "11:00", 2)] })
    expect(full.find((s) => s.starts_at.startsWith("2026-11-23T10:00"))).toBeUndefined()
  })

  it("takes busy rows in any order and ignores those outside the hours", () => {
    const rows = [busy("15:00", "16:00"), busy("03:00", "04:00", 5), busy("09:00", "10:00"), busy("12:30", "12:45")]
    expect(startTimes({ busy: rows })).toEqual(["10:00", "11:00", "13:00", "14:00", "16:00"])
  })

  it("serves rentals by the period", () => {
    const hours = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_time: "00:00:00", end_time: "24:00:00" }))
    const slots = hoursSlots({
      ...base,
      hours,
      to: "2026-11-25",
      duration_minutes: 1440,
      capacity: 4,
      busy: [busy("10:00", "23:00", 3)]
    })
    expect(slots.map((s) => [s.starts_at.slice(0, 10), s.remaining])).toEqual([
      ["2026-11-23", 1],
      ["2026-11-24", 4],
      ["2026-11-25", 4]
    ])
  })

  it("offers nothing when paused", () => {
    expect(hoursSlots({ ...base, active: false })).toEqual([])
  })
})
