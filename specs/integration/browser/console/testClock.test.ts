import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { expectAccessible, screenshots } from "../../../support/browser.ts"
import { lastLink } from "../../auth/helpers.ts"
import { clockNow, consoleApp, consoleSuite, orgWith, signIn } from "./helpers.ts"

const suite = consoleSuite()
const { newPage } = suite

const developers = async (page: Page, base: string) => {
  await page.goto(`${base}/dashboard/developers`)
  await page.getByRole("heading", { name: "API keys" }).waitFor()
  // The screen's loads have answered once the events list and the keys are there.
  await page.waitForLoadState("networkidle")
}

describe("the test clock in the Developers screen", () => {
  it("shows the engine's time with CLOCK=test and moves it forward by the chosen amount through /api/v1/clock", async () => {
    const org = await orgWith(suite.app, { "tick@example.com": "owner", "tock@example.com": "staff" })
    const page = await newPage()
    const calls: Array<string> = []
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.includes("/clock")) calls.push(`${r.method()} ${new URL(r.url()).pathname}`)
    })
    await signIn(suite.app, page, "tick@example.com")
    await developers(page, suite.app.url)
    const section = page.getByRole("region", { name: "Test clock" })
    await section.waitFor()
    const before = await clockNow(suite.app)
    expect(await section.locator("time").getAttribute("datetime")).toBe(before.toISOString())

    await section.getByLabel("Amount").fill("3")
    await section.getByLabel("Unit").selectOption("hours")
    await section.getByRole("button", { name: "Advance" }).click()
    await section.getByText(/^Moved forward 3 hours: it is now /).waitFor()
    const after = await clockNow(suite.app)
    expect(after.getTime() - before.getTime()).toBe(3 * 3600_000)
    await expect.poll(() => section.locator("time").getAttribute("datetime")).toBe(after.toISOString())

    // Past what the engine takes (400 days): refused with why, and the clock stays.
    await section.getByLabel("Amount").fill("401")
    await section.getByLabel("Unit").selectOption("days")
    await section.getByRole("button", { name: "Advance" }).click()
    await section.getByRole("alert").getByText("at most 400 days").waitFor()
    expect((await clockNow(suite.app)).getTime()).toBe(after.getTime())
    // The console used the public API, nothing private.
    expect(calls).toContain("POST /api/v1/clock")
    expect(calls.every((c) => c.endsWith(" /api/v1/clock"))).toBe(true)
    await expectAccessible(page)
    await screenshots(page, "console-test-clock")

    // The same operation with an owner's key; a staff member's key is refused.
    const byKey = await org.call("GET", "/clock")
    expect(byKey.body).toEqual({ now: after.toISOString(), test: true })
    const staffId = (await org.call("GET", "/team")).body.data.find(
      (m: { email: string }) => m.email === "tock@example.com"
    ).user_id
    const staffKey = (await org.call("POST", "/api_keys", { user_id: staffId })).body.key as string
    const refused = await suite.app.call(staffKey, "POST", "/api/v1/clock", { advance_seconds: 60 })
    expect([refused.status, refused.body.error.code]).toEqual([403, "forbidden"])
    const tooFar = await org.call("POST", "/clock", { advance_seconds: 401 * 86400 })
    expect([tooFar.status, tooFar.body.error.code]).toEqual([400, "invalid_advance_seconds"])
    expect((await clockNow(suite.app)).getTime()).toBe(after.getTime())
  })

  it("is not shown on the system clock, where the API refuses to move it", async () => {
    const system = await consoleApp("127.0.0.1", "system")
    try {
      const org = await system.newOrg({ timezone: "Europe/Amsterdam", plan: "scale" })
      expect(
        (await system.admin("POST", `/orgs/${org.id}/members`, { email: "real@example.com", role: "owner" })).status
      ).toBe(201)
      const got = await system.call(org.key, "GET", "/api/v1/clock")
      expect(got.status).toBe(200)
      expect(got.body.test).toBe(false)
      const moved = await system.call(org.key, "POST", "/api/v1/clock", { advance_seconds: 60 })
      expect([moved.status, moved.body.error.code]).toEqual([400, "clock_not_test"])

      const page = await newPage()
      await page.goto(`${system.url}/dashboard`)
      await page.getByLabel("Email").fill("real@example.com")
      await page.getByRole("button", { name: "Email me a sign-in link" }).click()
      await page.getByRole("heading", { name: "Check your mail" }).waitFor()
      await page.goto(`${system.url}${await lastLink(system, "real@example.com")}`)
      await page.getByRole("button", { name: "Sign out", exact: true }).waitFor()
      const clockAsked = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/v1/clock")
      await developers(page, system.url)
      expect((await clockAsked).status()).toBe(200)
      await page.getByRole("heading", { name: "Latest events" }).waitFor()
      expect(await page.getByRole("heading", { name: "Test clock" }).count()).toBe(0)
      expect(await page.getByRole("button", { name: "Advance" }).count()).toBe(0)
    } finally {
      await system.close()
    }
  })
})
