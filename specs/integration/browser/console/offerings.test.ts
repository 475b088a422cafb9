import { describe, expect, it } from "vitest"
import { expectAccessible, screenshots } from "../../../support/browser.ts"
import { consoleSuite } from "./helpers.ts"

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
