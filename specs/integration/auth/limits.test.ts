import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SIGN_IN_PER_ADDRESS, SIGN_IN_PER_EMAIL } from "../../../transports/auth/shared.ts"
import { startApp, type TestApp } from "../../support/app.ts"
import { browser, mailsTo, teamOrg } from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp({ publicUrl: "https://book.example.com" })
})
afterAll(() => app.close())

const ORIGIN = { origin: "https://book.example.com" }

describe("sign-in limits and https cookies", () => {
  it("with an https PUBLIC_URL the cookies are __Host- and Secure", async () => {
    const org = await teamOrg(app, "https")
    const b = browser(app, "https://book.example.com")
    const asked = await b.request("POST", "/auth/v1/links", { email: org.owner })
    expect(asked.cookies[0]).toMatch(
      /^__Host-signin=[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Lax; Secure; Max-Age=900$/
    )
    const link = /https:\/\/book\.example\.com(\/auth\/v1\/links\/\S+)/.exec(
      (await mailsTo(app, org.owner))[0].body
    )![1]
    const followed = await b.request("GET", link)
    expect(followed.status).toBe(303)
    expect(followed.cookies[0]).toMatch(
      /^__Host-session=[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Lax; Secure; Max-Age=1209600$/
    )
    // Over https the unprefixed name means nothing.
    const plain = browser(app, "https://book.example.com")
    plain.jar.set("session", b.jar.get("__Host-session")!)
    expect((await plain.session()).status).toBe(401)
    expect((await b.session()).status).toBe(200)
  })

  it(`links per email: the ${SIGN_IN_PER_EMAIL + 1}th in the window is 429, and no mail goes out for it`, async () => {
    const org = await teamOrg(app, "email")
    for (let i = 0; i < SIGN_IN_PER_EMAIL; i++)
      expect((await app.call(null, "POST", "/auth/v1/links", { email: org.staff }, ORIGIN)).status).toBe(202)
    const refused = await app.call(null, "POST", "/auth/v1/links", { email: org.staff }, ORIGIN)
    expect([refused.status, refused.body.error.code]).toEqual([429, "rate_limited"])
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(await mailsTo(app, org.staff)).toHaveLength(SIGN_IN_PER_EMAIL)
    // An unknown email is limited the same way (the limit says nothing of accounts).
    for (let i = 0; i < SIGN_IN_PER_EMAIL; i++)
      await app.call(null, "POST", "/auth/v1/links", { email: "ghost@example.com" }, ORIGIN)
    expect((await app.call(null, "POST", "/auth/v1/links", { email: "ghost@example.com" }, ORIGIN)).status).toBe(429)
  })

  it("attempts per client address: past the limit every email is refused from that address", async () => {
    const statuses: Array<number> = []
    for (let i = 0; i <= SIGN_IN_PER_ADDRESS && statuses.at(-1) !== 429; i++)
      statuses.push((await app.call(null, "POST", "/auth/v1/links", { email: `p${i}@example.com` }, ORIGIN)).status)
    // The tests above made 14 attempts from this address already (13 asked for links, 1 followed one).
    expect(statuses).toEqual([...Array(SIGN_IN_PER_ADDRESS - 14).fill(202), 429])
    const spoofed = { ...ORIGIN, "x-forwarded-for": "203.0.113.9" }
    expect((await app.call(null, "POST", "/auth/v1/links", { email: "x@example.com" }, spoofed)).status).toBe(429)
  })
})
