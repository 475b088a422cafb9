import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type BookingInput, startBooking, startBookingByMachine } from "../../../engine/machines/booking.ts"

// startBooking evaluates the machine once per value of `hold` and makes each booking's context itself; whatever the
// inputs and whatever came before, it must give exactly what the machine gives.

const iso = fc
  .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString())
const input: fc.Arbitrary<BookingInput> = fc.record({
  at: iso,
  hold: fc.boolean(),
  starts_at: iso,
  ends_at: iso,
  session_id: fc.option(fc.uuid(), { nil: null }),
  series_id: fc.option(fc.uuid(), { nil: null }),
  is_reseller: fc.boolean(),
  expires_at: fc.option(iso, { nil: null }),
  paid: fc.option(fc.boolean(), { nil: undefined }),
  paid_by_hand: fc.option(fc.boolean(), { nil: undefined })
})

describe("startBooking", () => {
  it("equals the machine's own evaluation for any sequence of inputs", () => {
    fc.assert(
      fc.property(fc.array(input, { minLength: 1, maxLength: 8 }), (inputs) => {
        for (const i of inputs) expect(startBooking(i)).toEqual(startBookingByMachine(i))
      }),
      { numRuns: 300 }
    )
  })

  it("gives each booking its own context, never a previous booking's", () => {
    const a = startBooking({
      at: "2030-01-01T00:00:00.000Z",
      hold: true,
      starts_at: "2030-02-01T10:00:00.000Z",
      ends_at: "2030-02-01T11:00:00.000Z",
      session_id: "s1",
      series_id: null,
      is_reseller: false,
      expires_at: "2030-01-01T00:15:00.000Z"
    })
    const b = startBooking({
      at: "2031-01-01T00:00:00.000Z",
      hold: true,
      starts_at: "2031-02-01T10:00:00.000Z",
      ends_at: "2031-02-01T11:00:00.000Z",
      session_id: null,
      series_id: "c1",
      is_reseller: true,
      expires_at: "2031-01-01T00:10:00.000Z"
    })
    expect(a.state).toEqual({ held: "keeping" })
    expect(a.emits).toEqual(["booking.held"])
    expect(b.context).toMatchObject({
      starts_at: "2031-02-01T10:00:00.000Z",
      session_id: null,
      series_id: "c1",
      is_reseller: true,
      expires_at: "2031-01-01T00:10:00.000Z",
      confirmed_at: null
    })
    expect(a.context).toMatchObject({
      starts_at: "2030-02-01T10:00:00.000Z",
      session_id: "s1",
      series_id: null,
      is_reseller: false
    })
    const c = startBooking({
      at: "2032-01-01T00:00:00.000Z",
      hold: false,
      starts_at: "2032-02-01T10:00:00.000Z",
      ends_at: "2032-02-01T11:00:00.000Z",
      session_id: "s3",
      series_id: null,
      is_reseller: false,
      expires_at: null
    })
    expect(c.state).toEqual({ confirmed: "plain" })
    expect(c.emits).toEqual(["booking.confirmed"])
    expect(c.context.confirmed_at).toBe("2032-01-01T00:00:00.000Z")
  })
})
