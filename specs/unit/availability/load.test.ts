import { describe, expect, it } from "vitest"
import { ascendingOrder, peakLoads } from "../../../engine/availability/load.ts"

describe("ascendingOrder", () => {
  it("orders large integer keys stably", () => {
    const keys = new Float64Array([5e12, 3, 3, 0, 2 ** 40 + 1, 2 ** 40, 7])
    expect(Array.from(ascendingOrder(keys))).toEqual([3, 1, 2, 6, 5, 4, 0])
    expect(Array.from(ascendingOrder(new Float64Array([])))).toEqual([])
  })
})

describe("peakLoads", () => {
  const b = (start: number, end: number, quantity: number) => ({
    starts_at: new Date(start),
    ends_at: new Date(end),
    quantity
  })
  it("takes the highest level within each time, edges half-open, padded by the buffer", () => {
    const busy = [b(10, 20, 1), b(20, 30, 2), b(15, 25, 4)]
    expect(peakLoads(busy, 0, [0, 5, 10, 20, 25, 30], 5)).toEqual([0, 0, 1, 6, 2, 0])
    expect(peakLoads(busy, 1, [0, 4, 30, 31], 1)).toEqual([0, 0, 2, 0])
    expect(peakLoads(busy, 1, [4, 5], 5)).toEqual([0, 1])
  })
})
