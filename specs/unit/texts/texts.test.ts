import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { toE164 } from "../../../engine/schema/phone.ts"
import { keywordOf } from "../../../engine/services/texts/keywords.ts"
import { segmentsOf } from "../../../engine/store/textRow.ts"

describe("segments", () => {
  it("GSM-7: 160 characters in one, 153 each once split", () => {
    expect(segmentsOf("a".repeat(160))).toEqual({ segments: 1, encoding: "GSM-7" })
    expect(segmentsOf("a".repeat(161))).toEqual({ segments: 2, encoding: "GSM-7" })
    expect(segmentsOf("a".repeat(306))).toEqual({ segments: 2, encoding: "GSM-7" })
    expect(segmentsOf("a".repeat(307))).toEqual({ segments: 3, encoding: "GSM-7" })
    // Characters of the extension table (€ ^ { } [ ] ~ \ |) take two septets.
    expect(segmentsOf("€".repeat(80))).toEqual({ segments: 1, encoding: "GSM-7" })
    expect(segmentsOf("€".repeat(81))).toEqual({ segments: 2, encoding: "GSM-7" })
    expect(segmentsOf("é".repeat(160))).toEqual({ segments: 1, encoding: "GSM-7" })
  })

  it("UCS-2 for anything else: 70 in one, 67 each once split; an emoji takes two", () => {
    expect(segmentsOf("日".repeat(70))).toEqual({ segments: 1, encoding: "UCS-2" })
    expect(segmentsOf("日".repeat(71))).toEqual({ segments: 2, encoding: "UCS-2" })
    expect(segmentsOf("日".repeat(134))).toEqual({ segments: 2, encoding: "UCS-2" })
    expect(segmentsOf("日".repeat(135))).toEqual({ segments: 3, encoding: "UCS-2" })
    expect(segmentsOf("😀".repeat(35))).toEqual({ segments: 1, encoding: "UCS-2" })
    expect(segmentsOf(`${"a".repeat(100)}ł`)).toEqual({ segments: 2, encoding: "UCS-2" })
  })

  it("one more character never saves a segment, and a split text needs every segment it counts", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 400 }), (s) => {
        const { segments, encoding } = segmentsOf(s)
        expect(segmentsOf(`${s}a`).segments).toBeGreaterThanOrEqual(segments)
        // UCS-2 counts UTF-16 units: a split text's units do not fit in one segment fewer.
        if (encoding === "UCS-2" && segments > 1) expect(s.length).toBeGreaterThan(67 * (segments - 1))
      })
    )
  })
})

describe("E.164", () => {
  it("takes numbers as people type them, with the country code", () => {
    expect(toE164("+31 6 1234 5678")).toBe("+31612345678")
    expect(toE164(" 0031 (6) 12-34-56-78 ")).toBe("+31612345678")
    expect(toE164("+1 (415) 555-2671")).toBe("+14155552671")
    expect(toE164("+44 20 7946 0000")).toBe("+442079460000")
  })
  it("refuses what is not a number that exists, and national numbers (no country)", () => {
    for (const s of [
      "06 1234 5678",
      "call me",
      "+31 6 5",
      "+1 555 0100",
      "+999 1234 5678",
      "",
      "+",
      "+31612345678901234"
    ])
      expect(toE164(s)).toBeUndefined()
  })
})

describe("carrier keywords", () => {
  it("STOP and its synonyms, START and its, HELP and INFO: alone, any case, with punctuation", () => {
    for (const w of ["STOP", "stop", " Stop! ", "STOPALL", "unsubscribe", "Cancel", "END", "quit."])
      expect(keywordOf(w)?.kind).toBe("stop")
    for (const w of ["START", "yes", "Unstop"]) expect(keywordOf(w)?.kind).toBe("start")
    for (const w of ["HELP", "info?"]) expect(keywordOf(w)?.kind).toBe("help")
    for (const w of ["please stop texting me", "stopp", "yes please", "I need help"])
      expect(keywordOf(w)).toBeUndefined()
  })
})
