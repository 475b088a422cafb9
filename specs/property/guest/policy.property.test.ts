import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { guestActions, guestHours } from "../../../engine/services/guest/policy.ts"

const HOUR = 3_600_000
const base = Date.parse("2040-01-02T12:00:00Z")
const hours = fc.option(fc.integer({ min: 0, max: 8760 }), { nil: null })
const facts = fc.record({
  status: fc.constantFrom("held" as const, "confirmed" as const, "cancelled" as const),
  keeps_place: fc.boolean(),
  expires_at: fc.option(
    fc.integer({ min: -100, max: 100 }).map((m) => new Date(base + m * 60_000)),
    { nil: null }
  ),
  starts_at: fc.integer({ min: -48, max: 9000 }).map((h) => new Date(base + h * HOUR)),
  choose_by: fc.option(
    fc.integer({ min: -200, max: 200 }).map((h) => new Date(base + h * HOUR)),
    { nil: null }
  ),
  series_id: fc.option(fc.constant("s"), { nil: null }),
  guest_cancel_hours: hours,
  due_online_cents: fc.integer({ min: 0, max: 10_000 }),
  nothing_to_pay: fc.boolean()
})

describe("what a guest may do on their page", () => {
  it("takes the kinder of the booking's rule and the org's now, and neither only when both are unset", () => {
    fc.assert(
      fc.property(hours, hours, (b, o) => {
        const h = guestHours(b, o)
        if (b === null && o === null) expect(h).toBeNull()
        else expect(h).toBe(Math.min(...[b, o].filter((x): x is number => x !== null)))
      })
    )
  })

  it("never lets a cancelled booking change, never lets a course move, and never offers a deadline already past", () => {
    fc.assert(
      fc.property(facts, hours, fc.integer({ min: -10, max: 10 }), (b, org, minutes) => {
        const now = new Date(base + minutes * 60_000)
        const a = guestActions(b, org, now)
        if (b.status === "cancelled")
          expect(a).toMatchObject({ cancel_until: null, move_until: null, pay: false, confirm: false })
        // Only a live hold is the guest's to confirm, and only with nothing to pay.
        if (a.confirm)
          expect(b.status === "held" && b.keeps_place && b.nothing_to_pay && a.cancel_until !== null).toBe(true)
        if (b.series_id !== null) expect(a.move_until).toBeNull()
        for (const until of [a.cancel_until, a.move_until])
          if (until !== null) expect(until.getTime()).toBeGreaterThan(now.getTime())
        if (a.cancel_until === null && a.move_until === null) expect(a.why_not).not.toBeNull()
      })
    )
  })

  it("lets a confirmed booking (not called off) change exactly until the kinder rule's hours before its start", () => {
    fc.assert(
      fc.property(facts, hours, (f, org) => {
        const b = { ...f, status: "confirmed" as const, choose_by: null }
        const now = new Date(base)
        const a = guestActions(b, org, now)
        const h = guestHours(b.guest_cancel_hours, org)
        const deadline = h === null ? null : b.starts_at.getTime() - h * HOUR
        if (deadline === null || deadline <= now.getTime()) expect(a.cancel_until).toBeNull()
        else expect(a.cancel_until?.getTime()).toBe(deadline)
        expect(a.pay).toBe(false)
      })
    )
  })

  it("while choose_by runs, the guest may cancel and (unless a course) move until it, whatever the hours", () => {
    fc.assert(
      fc.property(facts, hours, fc.integer({ min: 1, max: 500 }), (f, org, ahead) => {
        const b = { ...f, status: "confirmed" as const, choose_by: new Date(base + ahead * HOUR) }
        const a = guestActions(b, org, new Date(base))
        expect(a.cancel_until).toEqual(b.choose_by)
        expect(a.move_until).toEqual(b.series_id === null ? b.choose_by : null)
      })
    )
  })
})
