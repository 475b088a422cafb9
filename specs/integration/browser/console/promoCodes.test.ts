import { describe, expect, it } from "vitest"
import { expectAccessible } from "../../../support/browser.ts"
import { consoleSuite } from "./helpers.ts"

// Money's promo codes: a code with a usage limit, a last day and the offerings it applies to, as an owner types it;
// deleting one asks first and only then deletes.

const suite = consoleSuite()
const { owner } = suite

describe("promo codes on Money", () => {
  it("adds a code with a limit, a last day and one offering, shows them, and deletes it after asking", async () => {
    const { org, page } = await owner("promos@example.com")
    const yoga = (await org.call("POST", "/offerings", { kind: "class", name: "Yoga", capacity: 8 })).body
    await org.call("POST", "/offerings", { kind: "class", name: "Pilates", capacity: 8 })
    await page.getByRole("link", { name: "Money" }).click()
    const form = page.getByRole("form", { name: "New promo code" })
    await form.getByLabel("Code").fill("SPRING20")
    await form.getByLabel("How much").fill("20")
    await form.getByLabel("Usage limit (optional)").fill("50")
    await form.getByLabel("Last day (optional)").fill("2027-05-31")
    await form.getByLabel("Yoga").check()
    await form.getByRole("button", { name: "Add code" }).click()
    await page.getByText("Code SPRING20 added.").waitFor()
    await page.getByText(/SPRING20: 20% off · used 0 of 50 · until 2027-05-31 · Yoga/).waitFor()
    const made = (await org.call("GET", "/promo_codes")).body.data
    expect(made).toHaveLength(1)
    expect(made[0]).toMatchObject({ code: "SPRING20", max_uses: 50, ends_on: "2027-05-31", offering_ids: [yoga.id] })
    await expectAccessible(page)

    await page.getByRole("button", { name: "Delete… SPRING20" }).click()
    await page.getByRole("heading", { name: "Delete the code SPRING20?" }).waitFor()
    await page.getByText(/Bookings already made with it keep their discount/).waitFor()
    await expectAccessible(page)
    await page.getByRole("button", { name: "Keep it" }).click()
    expect((await org.call("GET", "/promo_codes")).body.data).toHaveLength(1)
    await page.getByRole("button", { name: "Delete… SPRING20" }).click()
    await page.getByRole("button", { name: "Delete the code" }).click()
    await page.getByText("Code SPRING20 deleted.").waitFor()
    expect((await org.call("GET", "/promo_codes")).body.data).toEqual([])
    await expect.poll(() => page.getByText(/SPRING20: 20% off/).count()).toBe(0)
  })
})
