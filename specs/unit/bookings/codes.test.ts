import { describe, expect, it } from "vitest"
import { newHandle, newReference } from "../../../engine/store/codes.ts"

describe("booking codes", () => {
  it("handles are 24 base64url characters (18 random bytes), none repeated across pool refills", () => {
    const seen = new Set<string>()
    for (let i = 0; i < 2000; i++) {
      const h = newHandle()
      expect(h).toMatch(/^[A-Za-z0-9_-]{24}$/)
      seen.add(h)
    }
    expect(seen.size).toBe(2000)
  })

  it("references are 8 characters without look-alikes", () => {
    for (let i = 0; i < 200; i++) expect(newReference()).toMatch(/^[ABCDEFGHJKMNPQRSTVWXYZ2-9]{8}$/)
  })
})
