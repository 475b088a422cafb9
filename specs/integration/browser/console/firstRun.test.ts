import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../../support/app.ts"
import { cspViolations, expectAccessible, launch, screenshots } from "../../../support/browser.ts"
import { clockNow, consoleApp, orgWith, signIn } from "./helpers.ts"

let app: TestApp
let browser: Browser
let page: Page
let csp: string[]

beforeAll(async () => {
  app = await consoleApp()
  browser = await launch()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "en-GB" })
  csp = cspViolations(page)
})
afterAll(async () => {
  await browser?.close()
  await app?.close()
})

/** The engine's date tomorrow in Amsterdam, as a date input takes it. */
const tomorrow = async () => {
  const now = await clockNow(app)
  return new Date(now.getTime() + 86_400_000).toLocaleDateString("en-CA", { timeZone: "Europe/Amsterdam" })
}

describe("a new owner, from an empty org to a first booking", () => {
  it("signs in by a mailed link, creates a class with weekly times, and books a first guest", async () => {
    const org = await orgWith(app, { "owner@studio.example": "owner" })
    // The sign-in screen.
    await page.goto(`${app.url}/dashboard`)
    await page.getByRole("heading", { name: "Sign in to the console" }).waitFor()
    await expectAccessible(page)
    await screenshots(page, "console-sign-in")
    await signIn(app, page, "owner@studio.example")
    // An empty org's first screen walks the owner to a first offering and a first booking.
    await page.getByRole("heading", { name: /Two steps to your first booking/ }).waitFor()
    await expectAccessible(page)
    await screenshots(page, "console-first-steps")
    await page.getByRole("link", { name: "Create your first offering" }).click()
    await page.getByRole("heading", { name: "New offering" }).waitFor()
    await page.getByLabel("Name").fill("Evening yoga")
    await page.getByLabel("Places per time").fill("8")
    await expectAccessible(page)
    await page.getByRole("button", { name: "Create offering" }).click()
    await page.getByText("Created. Now give it times below.").waitFor()
    // Weekly times from tomorrow, 18:00 in the org's zone.
    await page.getByLabel("First day").fill(await tomorrow())
    await page.getByLabel("Starts at").fill("18:00")
    await page.getByLabel("Repeats").selectOption("weekly")
    await page.getByRole("button", { name: "Add repeating times" }).click()
    await page.getByText(/^Every week from/).waitFor()
    await expect.poll(() => page.locator("ul.times li").count()).toBe(4)
    await expectAccessible(page)
    await screenshots(page, "console-offering")
    const offerings = (await org.call("GET", "/offerings")).body.data
    expect(
      offerings.map((o: { name: string; kind: string; capacity: number }) => [o.name, o.kind, o.capacity])
    ).toEqual([["Evening yoga", "class", 8]])
    const times = (await org.call("GET", `/sessions?offering_id=${offerings[0].id}`)).body.data
    // 18:00 in Amsterdam in winter is 17:00 UTC.
    expect(times[0].starts_at).toMatch(/T17:00:00(\.000)?Z$/)
    // The first booking, for a guest on the phone.
    await page.getByRole("link", { name: "Today" }).click()
    await page.getByRole("link", { name: "Book for a guest" }).click()
    await page.getByLabel("Offering").selectOption({ label: "Evening yoga" })
    const time = page.getByLabel("Time")
    await time.locator("option").nth(1).waitFor({ state: "attached" })
    await time.selectOption({ index: 1 })
    await page.getByLabel("Guest's name").fill("Ada Lovelace")
    await page.getByLabel("Guest's email").fill("ada@example.com")
    await expectAccessible(page)
    await page.getByRole("button", { name: "Book", exact: true }).click()
    await page.getByRole("heading", { name: /Ada Lovelace/ }).waitFor()
    await page.getByText("confirmed", { exact: true }).waitFor()
    await expectAccessible(page)
    await screenshots(page, "console-booking")
    const bookings = (await org.call("GET", "/bookings")).body.data
    expect(bookings.map((b: { status: string; session_id: string }) => [b.status, b.session_id])).toEqual([
      ["confirmed", times[0].id]
    ])
    // The week shows the time with its place taken.
    await page.getByRole("link", { name: "Week" }).click()
    await page.getByText("1 taken, 7 left").waitFor()
    await expectAccessible(page)
    await screenshots(page, "console-week")
    expect(csp).toEqual([])
  })
})
