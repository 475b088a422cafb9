import { describe, expect, it } from "vitest"
import { expectAccessible } from "../../../support/browser.ts"
import { consoleSuite } from "./helpers.ts"

const suite = consoleSuite()

describe("a name for yourself", () => {
  it("set in Account, shown at the top and on Team, still there after a reload; an empty name is refused", async () => {
    const { page } = await suite.owner("named@example.com")
    await page.getByRole("link", { name: "named@example.com" }).click()
    await page.getByRole("heading", { name: "Your account" }).waitFor()
    const field = page.getByRole("textbox", { name: /^Your name/ })
    await field.fill("   ")
    await page.getByRole("button", { name: "Save name" }).click()
    await page.getByText("Enter a name of 1 to 80 characters.").waitFor()
    await field.fill("  Ada Lovelace ")
    await page.getByRole("button", { name: "Save name" }).click()
    await page.getByText("Name saved.").waitFor()
    await page.getByRole("link", { name: "Ada Lovelace" }).waitFor()
    expect(await page.getByText("Enter a name of 1 to 80 characters.").count()).toBe(0)
    await expectAccessible(page)
    await page.reload()
    await page.getByRole("link", { name: "Ada Lovelace" }).waitFor()
    expect(await page.getByRole("textbox", { name: /^Your name/ }).inputValue()).toBe("Ada Lovelace")
    await page.getByRole("link", { name: "Team", exact: true }).click()
    await page.getByRole("heading", { name: "Team", level: 1 }).waitFor()
    await page.locator("main").getByText("Ada Lovelace", { exact: true }).waitFor()
  })
})
