import { describe, expect, it } from "vitest"
import { isOffered } from "../../../engine/availability/slot.ts"
import { chooseByOf } from "../../../engine/services/bookings/cascade.ts"
import { wallOf } from "../../property/time/intl.ts"

// Other local times the engine turns into instants: choose_by (the end of the 7th local day) and an availability
// window's edges (local midnights), on days whose midnight moves or does not exist.
describe("choose_by: the end of the 7th day in the org's zone", () => {
  it("is the local midnight after day 7, across a change of the clocks within the week", () => {
    const at = chooseByOf(new Date("2040-03-20T12:00:00Z"), "Europe/Amsterdam")
    expect(at.toISOString()).toBe("2040-03-27T22:00:00.000Z")
    expect(wallOf(at, "Europe/Amsterdam")).toMatchObject({ date: "2040-03-28", time: "00:00:00" })
  })

  it("where that midnight does not exist (America/Santiago, 2 Sep 2040), the moment the clock jumps to 01:00", () => {
    const at = chooseByOf(new Date("2040-08-25T16:00:00Z"), "America/Santiago")
    expect(wallOf(at, "America/Santiago")).toMatchObject({ date: "2040-09-02", time: "01:00:00" })
    expect(wallOf(new Date(at.getTime() - 1000), "America/Santiago")).toMatchObject({
      date: "2040-09-01",
      time: "23:59:59"
    })
  })
})

describe("an availability window runs from local midnight to local midnight", () => {
  const rules = {
    now: new Date("2040-01-01T00:00:00Z"),
    zone: "America/Santiago",
    from: "2040-09-02",
    to: "2040-09-02",
    min_notice_minutes: 0,
    max_advance_days: 730,
    active: true
  }
  it("on a day whose midnight is skipped it opens at 01:00 and offers nothing of the day before", () => {
    const offered = isOffered(rules)
    expect(offered(new Date("2040-09-02T04:00:00Z"))).toBe(true) // 01:00 -03
    expect(offered(new Date("2040-09-02T03:59:59Z"))).toBe(false) // 23:59:59 -04 on 1 Sep
    expect(offered(new Date("2040-09-03T02:59:59Z"))).toBe(true)
    expect(offered(new Date("2040-09-03T03:00:00Z"))).toBe(false)
  })
})
