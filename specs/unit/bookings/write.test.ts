import { describe, expect, it } from "vitest"
import { WRITE } from "../../../engine/store/bookings.ts"
import { namedStatement } from "../../../engine/store/named.ts"

describe("a statement with named parameters", () => {
  it("numbers the names in the order the text first uses them, and a name used twice once", () => {
    const s = namedStatement<{ org: string; id: string; at: Date }>(
      "t",
      (p) => `select ${p.id}::uuid, ${p.org}::uuid where ${p.id}::uuid is not null and ${p.at}::timestamptz < now()`
    )
    expect(s.statement.text).toBe("select $1::uuid, $2::uuid where $1::uuid is not null and $3::timestamptz < now()")
    const at = new Date(0)
    expect(s.values({ at, org: "o", id: "i" })).toEqual(["i", "o", at])
  })

  it("refuses a placeholder taken and left out of its text", () => {
    expect(() =>
      namedStatement<{ a: string; b: string }>("t", (p) => {
        const unused = p.b
        return `select ${p.a}::text${unused === "" ? "" : ""}`
      })
    ).toThrow("t: b named but not in its text")
  })

  it("gives the booking's WRITE, in each way of meeting the guest, every parameter it numbers", () => {
    for (const write of Object.values(WRITE)) {
      const used = new Set([...write.statement.text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))
      expect([...used].sort((a, b) => a - b)).toEqual(Array.from({ length: used.size }, (_, i) => i + 1))
    }
    // Meeting a known guest reads neither their address nor what the read found of them.
    expect(WRITE.keep.statement.text).not.toMatch(/insert into customers|update customers/)
  })
})
