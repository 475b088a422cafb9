import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SIGN_IN_PER_ADDRESS } from "../../../transports/auth/shared.ts"
import { startApp, type TestApp } from "../../support/app.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp({ publicUrl: "https://book.example.com" })
})
afterAll(() => app.close())

describe("redeeming sign-in links counts against the sign-in limit per address", () => {
  it(`40 random link tokens (opened and pressed) from one address: 429 after ${SIGN_IN_PER_ADDRESS}`, async () => {
    const statuses: Array<number> = []
    for (let i = 0; i < 40; i++) {
      const path = `/auth/v1/links/${randomBytes(24).toString("base64url")}`
      const res =
        i % 2 === 0
          ? await app.call(null, "GET", path)
          : await app.call(null, "POST", path, undefined, { origin: "https://book.example.com" })
      statuses.push(res.status)
    }
    expect(statuses.slice(0, SIGN_IN_PER_ADDRESS).every((s) => s !== 429)).toBe(true)
    expect(statuses.slice(SIGN_IN_PER_ADDRESS)).toEqual(Array(40 - SIGN_IN_PER_ADDRESS).fill(429))
    // Asking for a link from that address is refused too: one budget for every sign-in attempt.
    const ask = await app.call(
      null,
      "POST",
      "/auth/v1/links",
      { email: "a@example.com" },
      { origin: "https://book.example.com" }
    )
    expect(ask.status).toBe(429)
  })
})
