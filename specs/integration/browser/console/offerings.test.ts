import { describe, expect, it } from "vitest"
import { cspViolations, expectAccessible, screenshots } from "../../../support/browser.ts"
import { clockNow, consoleSuite } from "./helpers.ts"

const suite = consoleSuite()
const { owner } = suite

describe("editing an offering", () => {
  it("saves only what changed: the map point (lat, lon, place_id) stays when the name changes", async () => {
    const { org, page } = await owner("map@example.com")
    const made = (
      await org.call("POST", "/offerings", {
        kind: "class",
        name: "Harbour swim",
        location: "Pier 4, Harbour St",
        lat: 52.37,
        lon: 4.89,
        place_id: "ChIJVXealLU_xkcRja_At0z9AGY"
      })
    ).body
    expect([made.lat, made.lon, made.place_id]).toEqual([52.37, 4.89, "ChIJVXealLU_xkcRja_At0z9AGY"])
    await page.goto(`${suite.app.url}/dashboard/offerings/${made.id}`)
    await page.getByLabel("Name").fill("Harbour swim at dawn")
    await expectAccessible(page)
    await page.getByRole("button", { name: "Save changes" }).click()
    await page.getByText("Saved.").waitFor()
    const after = (await org.call("GET", `/offerings/${made.id}`)).body
    expect([after.name, after.location, after.lat, after.lon, after.place_id]).toEqual([
      "Harbour swim at dawn",
      "Pier 4, Harbour St",
      52.37,
      4.89,
      "ChIJVXealLU_xkcRja_At0z9AGY"
    ])
    // Changing the location itself is a new place: the API clears the old point, as the spec says.
    await page.getByLabel("Location (optional)").fill("Beach pavilion")
    await page.getByRole("button", { name: "Save changes" }).click()
    await expect.poll(async () => (await org.call("GET", `/offerings/${made.id}`)).body.location).toBe("Beach pavilion")
  })
})

describe("the waiver", () => {
  it("is written in Settings with a preview of its signing page; then an offering can ask guests to sign it", async () => {
    const { org, page } = await owner("waiver@example.com")
    const made = (await org.call("POST", "/offerings", { kind: "class", name: "Climbing" })).body
    // Without a waiver, the offering says where to write one, in words.
    await page.goto(`${suite.app.url}/dashboard/offerings/${made.id}`)
    await page.getByLabel("Guests sign the waiver").check()
    await page.getByRole("button", { name: "Save changes" }).click()
    await page.getByText("Guests cannot sign a waiver yet: write its text in Settings first").waitFor()
    await page.getByRole("link", { name: "Settings" }).first().click()
    await page.getByRole("heading", { name: "Waiver" }).waitFor()
    await page.getByLabel("Waiver text").fill("I climb at my own risk.\nI follow the instructor.")
    const preview = page.getByRole("region", { name: "Preview of the signing page" })
    await preview.getByText("Waiver, version 1").waitFor()
    await preview.getByText(/I climb at my own risk\.\s+I follow the instructor\./).waitFor()
    await expectAccessible(page)
    await screenshots(page, "console-waiver")
    await page.getByRole("button", { name: "Save waiver" }).click()
    await page.getByText("Saved as version 1.").waitFor()
    expect((await org.call("GET", "/waiver")).body).toEqual({
      text: "I climb at my own risk.\nI follow the instructor.",
      version: 1
    })
    await page.goto(`${suite.app.url}/dashboard/offerings/${made.id}`)
    await page.getByLabel("Guests sign the waiver").check()
    await page.getByRole("button", { name: "Save changes" }).click()
    await page.getByText("Saved.").waitFor()
    expect((await org.call("GET", `/offerings/${made.id}`)).body.waiver_required).toBe(true)
  })
})

describe("the offering form", () => {
  it("sets every field an owner may set; a new appointment starts paused; a 30% deposit shows as 30", async () => {
    const { org, page } = await owner("fields@example.com")
    await page.goto(`${suite.app.url}/dashboard/offerings/new`)
    await page.getByLabel("Appointment: one guest at a time").check()
    // The form's limits are the API's.
    expect(await page.getByLabel("Name").getAttribute("maxlength")).toBe("120")
    expect(await page.getByLabel("Length (minutes)").getAttribute("min")).toBe("5")
    expect(await page.getByLabel("How many at once").getAttribute("min")).toBe("1")
    for (let i = 0; i < 6; i++) await page.getByRole("button", { name: "Add a question" }).click()
    expect(await page.getByRole("button", { name: "Add a question" }).count()).toBe(0)
    await page.getByText("6 questions at most.").waitFor()
    expect(await page.getByLabel("Question 1", { exact: true }).getAttribute("maxlength")).toBe("80")
    for (let i = 6; i >= 1; i--) await page.getByRole("button", { name: `Remove question ${i}` }).click()
    await page.getByLabel("Name").fill("Massage")
    await page.getByLabel("Description (optional)").fill("Sixty minutes, oils included.")
    await page.getByLabel("Latitude (optional)").fill("52.37")
    await page.getByLabel("Longitude (optional)").fill("4.89")
    await page.getByLabel("Price (EUR)").fill("60.00")
    await page.getByLabel("Each extra guest (EUR, optional)").fill("40.00")
    await page.getByLabel("Deposit paid online").selectOption("percent")
    await page.getByLabel("Deposit (percent)").fill("30")
    await page.getByLabel("Minutes between start times (optional)").fill("30")
    await page.getByText("It is created paused, so no one books it before you have set its times").waitFor()
    await expectAccessible(page)
    await screenshots(page, "console-offering-form")
    await page.getByRole("button", { name: "Create offering" }).click()
    await page.getByText("Created, paused: set its weekly hours below, then open it for booking.").waitFor()
    const id = new URL(page.url()).pathname.split("/").at(-1)
    const made = (await org.call("GET", `/offerings/${id}`)).body
    expect(made).toMatchObject({
      kind: "appointment",
      active: false,
      description: "Sixty minutes, oils included.",
      lat: 52.37,
      lon: 4.89,
      price_cents: 6000,
      guest_price_cents: 4000,
      deposit_percent: 30,
      deposit_cents: null,
      slot_interval_minutes: 30
    })
    // Opened again, the 30% deposit is there, not an empty field.
    await page.goto(`${suite.app.url}/dashboard/offerings/${id}`)
    expect(await page.getByLabel("Deposit (percent)").inputValue()).toBe("30")
    await page.getByLabel("Deposit paid online").selectOption("amount")
    await page.getByLabel("Deposit (EUR)").fill("15.00")
    await page.getByRole("button", { name: "Save changes" }).click()
    await page.getByText("Saved.").waitFor()
    const after = (await org.call("GET", `/offerings/${id}`)).body
    expect([after.deposit_cents, after.deposit_percent, after.lat]).toEqual([1500, null, 52.37])
  })
})

describe("errors beside their fields", () => {
  it("says the API's refusal in words beside the field (day 2 for hours[1]); an earlier green message goes", async () => {
    const { org, page } = await owner("errors@example.com")
    const made = (
      await org.call("POST", "/offerings", {
        kind: "appointment",
        name: "Facial",
        duration_minutes: 60,
        schedule: "hours"
      })
    ).body
    await page.goto(`${suite.app.url}/dashboard/offerings/${made.id}`)
    await page.getByLabel("Name").fill("Facial deluxe")
    await page.getByRole("button", { name: "Save changes" }).click()
    await page.getByText("Saved.").waitFor()
    await page.getByLabel("Latitude (optional)").fill("95")
    await page.getByLabel("Longitude (optional)").fill("4.89")
    await page.getByRole("button", { name: "Save changes" }).click()
    const latitude = page.locator("label", { hasText: "Latitude (optional)" })
    await latitude.getByText("Type a number from -90 to 90.").waitFor()
    expect(await page.getByText("Saved.").count()).toBe(0)
    expect(await page.getByText(/lat: Expected/).count()).toBe(0)
    await expectAccessible(page)
    // Weekly hours: the API's hours[1] is the screen's day 2.
    await org.call("PUT", `/offerings/${made.id}/hours`, {
      hours: [{ weekday: 1, start_time: "09:00", end_time: "17:00" }]
    })
    await page.reload()
    await page.getByLabel("Opens, day 1").waitFor()
    await page.getByRole("button", { name: "Save hours" }).click()
    await page.getByText("Hours saved.").waitFor()
    await page.getByRole("button", { name: "Add hours" }).click()
    await page.getByLabel("Opens, day 2").fill("18:00")
    await page.getByLabel("Closes, day 2").fill("10:00")
    await page.getByRole("button", { name: "Save hours" }).click()
    await page.getByText("Day 2: The closing time must be after the opening time.").waitFor()
    expect(await page.getByText("Hours saved.").count()).toBe(0)
    expect(await page.getByText(/hours\[1\]/).count()).toBe(0)
    await screenshots(page, "console-field-errors")
  })
})

describe("settings", () => {
  it("offers the zone, currency and language as pickers of valid values", async () => {
    const { org, page } = await owner("pickers@example.com")
    await page.goto(`${suite.app.url}/dashboard/settings`)
    const language = page.getByLabel("Language of guest mail")
    expect(await language.evaluate((e) => e.tagName)).toBe("SELECT")
    expect(await language.locator("option").allTextContents()).toContain("Nederlands (Dutch)")
    expect(await page.getByLabel("Time zone").locator("option", { hasText: "America/New York" }).count()).toBe(1)
    await page.getByLabel("Time zone").selectOption("America/New_York")
    await page.getByLabel("Currency").selectOption("GBP")
    await language.selectOption("nl")
    await page.getByRole("button", { name: "Save settings" }).click()
    await page.getByText("Settings saved.").waitFor()
    const after = (await org.call("GET", "/org")).body
    expect([after.timezone, after.currency, after.locale]).toEqual(["America/New_York", "GBP", "nl"])
    await expectAccessible(page)
  })

  it("shows the embed code with the org's one widget key and previews the widget; visits make no more keys", async () => {
    const { org, page } = await owner("embed@example.com")
    const made = (await org.call("POST", "/offerings", { kind: "class", name: "Harbour yoga", capacity: 8 })).body
    const startsAt = new Date((await clockNow(suite.app)).getTime() + 48 * 3600_000).toISOString()
    expect((await org.call("POST", "/sessions", { offering_id: made.id, starts_at: startsAt })).status).toBe(201)
    const csp = cspViolations(page)
    const madeKeys: Array<string> = []
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname === "/api/v1/api_keys") madeKeys.push(r.url())
    })
    const embed = page.getByRole("region", { name: "Put the widget on your site" })
    /** The key in the embed code, once the preview shows the widget with that key and the org's offering. */
    const shown = async () => {
      const code = await embed.locator("code").textContent()
      const key = /data-key="(pk_live_[A-Za-z0-9_-]+)"/.exec(code ?? "")?.[1]
      expect(key).toBeDefined()
      const widget = embed.locator("booking-widget")
      expect(await widget.getAttribute("data-key")).toBe(key)
      await widget.getByRole("button", { name: /Harbour yoga/ }).waitFor()
      return key
    }
    await page.goto(`${suite.app.url}/dashboard/settings`)
    await embed.locator("booking-widget").waitFor({ state: "attached" })
    const first = await shown()
    await expectAccessible(page)
    await screenshots(page, "console-embed")
    await page.reload()
    await embed.locator("booking-widget").waitFor({ state: "attached" })
    expect(await shown()).toBe(first)
    await page.getByRole("link", { name: "Today" }).first().click()
    await page.getByRole("heading", { name: "Put the widget on your site" }).waitFor({ state: "detached" })
    await page.getByRole("link", { name: "Settings" }).first().click()
    await embed.locator("booking-widget").waitFor({ state: "attached" })
    expect(await shown()).toBe(first)
    const publishable = (
      (await org.call("GET", "/api_keys")).body.data as Array<{ kind: string; prefix: string }>
    ).filter((k) => k.kind === "publishable")
    expect(publishable.map((k) => k.prefix)).toEqual([first!.slice(0, 12)])
    expect(madeKeys).toEqual([])
    expect(csp).toEqual([])
  })
})
