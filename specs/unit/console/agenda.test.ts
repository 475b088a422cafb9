import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { agenda } from "../../../console/agenda.ts"
import { checkRefund, refundable, refundCents, refundState, refundTotal } from "../../../console/money.ts"
import type { Booking, Offering, TimeSlot, Waiting } from "../../../console/types.ts"

const offering = (id: string, capacity: number, kind: Offering["kind"] = "class") =>
  ({ id, name: `Offering ${id}`, kind, capacity }) as Offering
const slot = (id: string, offering_id: string, starts_at: string, booked: number, capacity: number | null = null) =>
  ({
    id,
    offering_id,
    starts_at,
    ends_at: starts_at,
    capacity,
    status: "scheduled",
    series_id: null,
    booked
  }) as TimeSlot
const booking = (over: Partial<Booking>) =>
  ({
    id: "b",
    offering_id: "o1",
    session_id: null,
    status: "confirmed",
    quantity: 1,
    starts_at: "2026-11-27T09:00:00Z",
    ends_at: "2026-11-27T10:00:00Z",
    payment_intent_id: null,
    charged_cents: null,
    ...over
  }) as Booking

describe("the agenda", () => {
  it("shows every time across offerings by day in the org's zone, with places taken and left, holds and waitlist", () => {
    const days = agenda(
      "America/New_York",
      [offering("o1", 10), offering("o2", 4), offering("o3", 1, "appointment")],
      [
        slot("s1", "o1", "2026-11-27T23:30:00Z", 3),
        slot("s2", "o2", "2026-11-27T14:00:00Z", 4),
        slot("s3", "o1", "2026-11-28T14:00:00Z", 0, 6)
      ],
      [
        booking({ id: "h1", session_id: "s1", status: "held", quantity: 2 }),
        booking({ id: "c1", session_id: "s1", status: "confirmed" }),
        booking({ id: "a1", offering_id: "o3", starts_at: "2026-11-27T16:00:00Z" }),
        booking({ id: "a2", offering_id: "o3", status: "cancelled", starts_at: "2026-11-27T17:00:00Z" })
      ],
      [
        { id: "w1", session_id: "s2", places: 2, ended_at: null } as Waiting,
        { id: "w2", session_id: "s2", places: 5, ended_at: "2026-11-26T00:00:00Z" } as Waiting
      ]
    )
    // 23:30 UTC on the 27th is 18:30 in New York, the same day; the 28th's time is another day.
    expect(days.map((d) => [d.date, d.items.map((i) => i.key)])).toEqual([
      ["2026-11-27", ["s:s2", "b:a1", "s:s1"]],
      ["2026-11-28", ["s:s3"]]
    ])
    const [s2, , s1] = days[0].items
    expect(s2.session).toEqual({ id: "s2", capacity: 4, taken: 4, left: 0, holds: 0, waiting: 2 })
    expect(s1.session).toEqual({ id: "s1", capacity: 10, taken: 3, left: 7, holds: 2, waiting: 0 })
    // A time's own capacity wins over its offering's.
    expect(days[1].items[0].session?.capacity).toBe(6)
  })

  it("does not count a lapsed hold among the holds: its places went back on sale", () => {
    const now = Date.parse("2026-11-27T10:00:00Z")
    const [d] = agenda(
      "UTC",
      [offering("o1", 6)],
      [slot("s1", "o1", "2026-11-27T18:00:00Z", 1)],
      [
        booking({ id: "h1", session_id: "s1", status: "held", quantity: 2, expires_at: "2026-11-27T09:45:00Z" }),
        booking({ id: "h2", session_id: "s1", status: "held", quantity: 1, expires_at: "2026-11-27T10:10:00Z" })
      ],
      [],
      now
    )
    expect(d.items[0].session).toMatchObject({ taken: 1, left: 5, holds: 1 })
  })

  it("never shows fewer than zero places left, whatever is booked", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 80 }), (capacity, booked) => {
        const [d] = agenda("UTC", [offering("o", capacity)], [slot("s", "o", "2026-01-01T10:00:00Z", booked)], [], [])
        const s = d.items[0].session!
        expect(s.left).toBe(Math.max(0, capacity - booked))
        expect(s.left + Math.min(s.taken, capacity)).toBe(capacity)
      })
    )
  })
})

describe("refunds chosen in the console", () => {
  it("only what was charged online can go back, and never more", () => {
    expect(refundable(booking({ payment_intent_id: null, charged_cents: 2000 }))).toBe(0)
    expect(refundable(booking({ payment_intent_id: "pi", charged_cents: 2000 }))).toBe(2000)
    expect(refundable(booking({ payment_intent_id: "pi", charged_cents: 2000, status: "cancelled" }))).toBe(0)
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 200_000 }), (charged, typed) => {
        const b = booking({ payment_intent_id: "pi", charged_cents: charged })
        const check = checkRefund(typed, b)
        expect(check.ok).toBe(typed <= charged)
      })
    )
    expect(checkRefund(undefined, booking({})).ok).toBe(false)
    expect(
      refundTotal(
        new Map([
          ["a", 500],
          ["b", 1250]
        ])
      )
    ).toBe(1750)
  })
})

describe("a refund's state as the Money screen shows it", () => {
  const cancelled = (over: Partial<Booking>) =>
    booking({
      status: "cancelled",
      payment_intent_id: "pi",
      charged_cents: 2000,
      refund_cents: null,
      refunded_at: null,
      refund_failed_at: null,
      refund_error: null,
      refund_next_at: null,
      ...over
    })
  it("offers a retry only for a refund that failed for good", () => {
    const at = "2026-11-27T09:00:00Z"
    expect(refundState(cancelled({ refund_next_at: at }))).toBe("on_its_way")
    expect(refundState(cancelled({ refunded_at: at }))).toBe("refunded")
    expect(refundState(cancelled({ refunded_at: at, refund_failed_at: at }))).toBe("refunded")
    expect(refundState(cancelled({ refund_failed_at: at, refund_next_at: at, refund_error: "no" }))).toBe("retrying")
    expect(refundState(cancelled({ refund_failed_at: at, refund_error: "no" }))).toBe("failed")
    expect(
      refundState(booking({ refund_cents: null, refunded_at: null, refund_failed_at: null, refund_next_at: null }))
    ).toBe("none")
    expect(refundCents(cancelled({}))).toBe(2000)
    expect(refundCents(cancelled({ refund_cents: 500 }))).toBe(500)
    expect(refundCents(booking({ refund_cents: null }))).toBe(0)
  })
})
