import { describe, expect, it } from "vitest"
import { piecesOf, wallWindow } from "../../../engine/time/zone.ts"

const iso = (xs: Array<{ start: Date; end: Date }>) =>
  xs.map((x) => [x.start.toISOString().slice(0, 16), x.end.toISOString().slice(0, 16)])

// The 2027 changes: Amsterdam 28 Mar (02:00 -> 03:00, at 01:00Z) and 31 Oct (03:00 -> 02:00, at 01:00Z); New York 14 Mar
// (02:00 -> 03:00, at 07:00Z) and 7 Nov (02:00 -> 01:00, at 06:00Z); Lord Howe 3 Oct (02:00 -> 02:30, at 2 Oct 15:30Z)
// and 4 Apr (02:00 -> 01:30, at 3 Apr 15:00Z).
describe("wallWindow: open while the clock reads within the window", () => {
  it.each([
    ["Europe/Amsterdam", "2027-03-28", "02:15:00", "02:45:00", []],
    ["Europe/Amsterdam", "2027-03-28", "02:00:00", "03:00:00", []],
    ["Europe/Amsterdam", "2027-03-28", "01:30:00", "02:30:00", [["2027-03-28T00:30", "2027-03-28T01:00"]]],
    ["Europe/Amsterdam", "2027-03-28", "02:30:00", "04:00:00", [["2027-03-28T01:00", "2027-03-28T02:00"]]],
    [
      "Europe/Amsterdam",
      "2027-03-28",
      "01:00:00",
      "04:00:00",
      [
        ["2027-03-28T00:00", "2027-03-28T01:00"],
        ["2027-03-28T01:00", "2027-03-28T02:00"]
      ]
    ],
    ["America/New_York", "2027-03-14", "02:15:00", "02:45:00", []],
    ["America/New_York", "2027-03-14", "01:30:00", "02:30:00", [["2027-03-14T06:30", "2027-03-14T07:00"]]],
    ["Australia/Lord_Howe", "2027-10-03", "02:05:00", "02:25:00", []],
    ["Australia/Lord_Howe", "2027-10-03", "01:30:00", "02:15:00", [["2027-10-02T15:00", "2027-10-02T15:30"]]]
  ])("%s on %s (spring forward), %s-%s", (zone, date, start, end, expected) => {
    expect(iso(wallWindow(date, start, end, zone))).toEqual(expected)
  })

  it.each([
    ["Europe/Amsterdam", "2027-10-31", "02:15:00", "02:45:00", [["2027-10-31T00:15", "2027-10-31T00:45"]]],
    [
      "Europe/Amsterdam",
      "2027-10-31",
      "01:00:00",
      "04:00:00",
      [
        ["2027-10-30T23:00", "2027-10-31T01:00"],
        ["2027-10-31T01:00", "2027-10-31T03:00"]
      ]
    ],
    [
      "Europe/Amsterdam",
      "2027-10-31",
      "02:30:00",
      "09:00:00",
      [
        ["2027-10-31T00:30", "2027-10-31T01:00"],
        ["2027-10-31T01:30", "2027-10-31T08:00"]
      ]
    ],
    ["Europe/Amsterdam", "2027-10-31", "00:00:00", "02:30:00", [["2027-10-30T22:00", "2027-10-31T00:30"]]],
    ["America/New_York", "2027-11-07", "01:15:00", "01:45:00", [["2027-11-07T05:15", "2027-11-07T05:45"]]],
    [
      "America/New_York",
      "2027-11-07",
      "00:30:00",
      "03:00:00",
      [
        ["2027-11-07T04:30", "2027-11-07T06:00"],
        ["2027-11-07T06:00", "2027-11-07T08:00"]
      ]
    ],
    ["Australia/Lord_Howe", "2027-04-04", "01:40:00", "01:50:00", [["2027-04-03T14:40", "2027-04-03T14:50"]]],
    [
      "Australia/Lord_Howe",
      "2027-04-04",
      "01:45:00",
      "03:00:00",
      [
        ["2027-04-03T14:45", "2027-04-03T15:00"],
        ["2027-04-03T15:15", "2027-04-03T16:30"]
      ]
    ]
  ])("%s on %s (fall back), %s-%s", (zone, date, start, end, expected) => {
    expect(iso(wallWindow(date, start, end, zone))).toEqual(expected)
  })

  it("an ordinary day is one window; 24:00 ends at the next midnight", () => {
    expect(iso(wallWindow("2027-06-01", "09:00:00", "24:00:00", "Europe/Amsterdam"))).toEqual([
      ["2027-06-01T07:00", "2027-06-01T22:00"]
    ])
    expect(wallWindow("2027-06-01", "10:00:00", "10:00:00", "Europe/Amsterdam")).toEqual([])
  })
})

describe("piecesOf", () => {
  it("finds each change to the second, and nothing on an ordinary day", () => {
    expect(piecesOf("2027-06-01", "Europe/Amsterdam").map((p) => p.offset)).toEqual([7_200_000])
    const spring = piecesOf("2027-03-28", "Europe/Amsterdam")
    expect(spring.map((p) => p.offset)).toEqual([3_600_000, 7_200_000])
    expect(new Date(spring[1].from).toISOString()).toBe("2027-03-28T01:00:00.000Z")
    const lordHowe = piecesOf("2027-10-03", "Australia/Lord_Howe")
    expect(lordHowe.map((p) => p.offset / 60_000)).toEqual([630, 660])
    expect(new Date(lordHowe[1].from).toISOString()).toBe("2027-10-02T15:30:00.000Z")
  })

  it("a zone that changes at midnight (America/Santiago, 5 Sep 2027: 24:00 -> 01:00) has its change on that date", () => {
    const pieces = piecesOf("2027-09-05", "America/Santiago")
    expect(pieces.map((p) => p.offset / 3_600_000)).toEqual([-4, -3])
    expect(iso(wallWindow("2027-09-05", "00:00:00", "02:00:00", "America/Santiago"))).toEqual([
      ["2027-09-05T04:00", "2027-09-05T05:00"]
    ])
  })
})
