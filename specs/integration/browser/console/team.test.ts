import { describe, expect, it } from "vitest"
import { expectAccessible, screenshots } from "../../../support/browser.ts"
import { consoleSuite, orgWith, signIn } from "./helpers.ts"

const suite = consoleSuite()
const { newPage } = suite

const emails = async (org: { call: (m: string, p: string) => Promise<{ body: any }> }) =>
  (await org.call("GET", "/team")).body.data.map((m: { email: string }) => m.email).sort()

describe("the team", () => {
  it("the last owner cannot leave; removing a member names what stops and asks once", async () => {
    const org = await orgWith(suite.app, { "solo@example.com": "owner", "helper@example.com": "staff" })
    const staff = (await org.call("GET", "/team")).body.data.find(
      (m: { email: string }) => m.email === "helper@example.com"
    )
    expect(
      (await suite.app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "secret", user_id: staff.user_id })).status
    ).toBe(201)
    const page = await newPage()
    await signIn(suite.app, page, "solo@example.com")
    await page.getByRole("link", { name: "Team" }).click()
    // The own row is the person's: it offers to leave, not a one-click removal.
    const own = page.locator("li", { hasText: "solo@example.com" })
    await own.getByRole("button", { name: "Leave the team…" }).click()
    await page.getByText("You are its only owner, so you cannot leave it: make someone else an owner first.").waitFor()
    expect(await page.getByRole("button", { name: /^Leave Org/ }).count()).toBe(0)
    await page.getByRole("button", { name: "Stay" }).click()
    // Removing someone else: what stops, then once.
    await page.getByRole("button", { name: "Remove… helper@example.com" }).click()
    await page.getByRole("heading", { name: "Remove helper@example.com?" }).waitFor()
    await page.getByText(/their 1 API key stops working and the webhooks those keys made switch off/).waitFor()
    expect(await emails(org)).toEqual(["helper@example.com", "solo@example.com"])
    await expectAccessible(page)
    await screenshots(page, "console-team-remove")
    await page.getByRole("button", { name: "Remove helper@example.com" }).click()
    await page.getByText("Removed helper@example.com.").waitFor()
    expect(await emails(org)).toEqual(["solo@example.com"])
  })

  it("an owner leaves after confirming, and the console follows the session to the team that is left", async () => {
    const first = await orgWith(suite.app, { "two@example.com": "owner", "other@example.com": "owner" })
    const second = await orgWith(suite.app, { "two@example.com": "staff" })
    const page = await newPage()
    await signIn(suite.app, page, "two@example.com")
    const name = (await first.call("GET", "/org")).body.name
    // On the first org, where the person is an owner (the switcher shows both).
    await page.getByLabel("Organisation").selectOption({ label: name })
    await page.getByText("(owner)").waitFor()
    await page.getByRole("link", { name: "Team" }).click()
    await page.locator("li", { hasText: "two@example.com" }).getByRole("button", { name: "Leave the team…" }).click()
    await page.getByRole("heading", { name: `Leave ${name}?` }).waitFor()
    await page.getByText(/You lose this console of .* at once/).waitFor()
    await page.getByRole("button", { name: `Leave ${name}` }).click()
    // On the remaining team, as its staff: its Today, no owners' screens, no stale 403s.
    await page.getByText("(staff)").waitFor()
    expect(await page.getByRole("link", { name: "Team" }).count()).toBe(0)
    expect(await emails(first)).toEqual(["other@example.com"])
    expect(await emails(second)).toEqual(["two@example.com"])
    expect(await page.getByRole("alert").count()).toBe(0)
  })

  it("removed by another owner while signed in: the next refusal takes the console to what is left", async () => {
    const org = await orgWith(suite.app, { "boss@example.com": "owner", "gone@example.com": "owner" })
    const page = await newPage()
    await signIn(suite.app, page, "gone@example.com")
    await page.getByRole("link", { name: "Team" }).click()
    await page.locator("li", { hasText: "boss@example.com" }).waitFor()
    const me = (await org.call("GET", "/team")).body.data.find((m: { email: string }) => m.email === "gone@example.com")
    expect((await org.call("DELETE", `/team/${me.user_id}`)).status).toBe(200)
    await page.getByRole("link", { name: "Bookings" }).click()
    await page.getByRole("heading", { name: "Not on a team" }).waitFor()
    await expectAccessible(page)
  })
})
