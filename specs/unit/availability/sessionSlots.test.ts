import { describe, expect, it } from "vitest"
import { type Rules, sessionSlots } from "../../../engine/availability/index.ts"

const rules: Rules = {
  now: new Date("2026-03-27T12:00:00Z"),
  zone: "Europe/Amsterdam",
  from: "2026-03-28",
  to: "2026-03-29",
  min_notice_minutes: 0,
  max_advance_days: 30,
  active: true
}
const session = (
  id: string,
  start: string,
  extra: Partial<{ capacity: number; booked: number; status: string }> = {}
) => ({
  id,
  starts_at: new Date(start),
  ends_at: new Date(new Date(start).getTime() + 3_600_000),
  capacity: 10,
  booked: 0,
  status: "scheduled",
  ...extra
})

describe("sessionSlots", () => {
  it("offers scheduled sessions with room, in order, within the local window", () => {
    const slots = sessionSlots(rules, [
      session("late", "2026-03-29T21:59:00Z"),
      session("before", "2026-03-27T22:59:00Z"),
      session("first", "2026-03-27T23:00:00Z", { booked: 4 }),
      session("after", "2026-03-29T22:00:00Z"),
      session("full", "2026-03-28T10:00:00Z", { booked: 10 }),
      session("off", "2026-03-28T11:00:00Z", { status: "cancelled" })
    ])
    expect(slots.map((s) => s.session_id)).toEqual(["first", "late"])
    expect(slots[0]).toEqual({
      starts_at: "2026-03-27T23:00:00.000Z",
      ends_at: "2026-03-28T00:00:00.000Z",
      capacity: 10,
      remaining: 6,
      session_id: "first"
    })
  })

  it("honours notice, advance and active", () => {
    const sessions = [session("a", "2026-03-28T09:00:00Z"), session("b", "2026-03-29T09:00:00Z")]
    const now = new Date("2026-03-28T08:00:00Z")
    expect(sessionSlots({ ...rules, now, min_notice_minutes: 60 }, sessions).map((s) => s.session_id)).toEqual([
      "a",
      "b"
    ])
    expect(sessionSlots({ ...rules, now, min_notice_minutes: 61 }, sessions).map((s) => s.session_id)).toEqual(["b"])
    const advance = { ...rules, max_advance_days: 1 }
    expect(
      sessionSlots({ ...advance, now: new Date("2026-03-28T09:00:00Z") }, sessions).map((s) => s.session_id)
    ).toEqual(["a", "b"])
    expect(
      sessionSlots({ ...advance, now: new Date("2026-03-28T08:59:59Z") }, sessions).map((s) => s.session_id)
    ).toEqual(["a"])
    expect(sessionSlots({ ...rules, active: false }, sessions)).toEqual([])
  })
})
