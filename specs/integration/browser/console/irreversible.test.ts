import { describe, expect, it } from "vitest"
import { localDate } from "../../../../console/format.ts"
import { expectAccessible, screenshots } from "../../../support/browser.ts"
import { clockNow, consoleSuite } from "./helpers.ts"

const suite = consoleSuite()
const { owner } = suite

describe("what cannot be undone asks once, naming what stops", () => {
  it("revoking the widget's key says website bookings stop, and only then revokes it", async () => {
    const { org, page } = await owner("keys@example.com")
    const made = (await org.call("POST", "/api_keys", { kind: "publishable", name: "Widget" })).body
    const live = async () =>
      (await org.call("GET", "/api_keys")).body.data.find((k: { id: string }) => k.id === made.id).revoked_at
    await page.getByRole("link", { name: "Developers" }).click()
    await page.getByRole("button", { name: "Revoke… Widget" }).click()
    await page.getByRole("heading", { name: "Revoke the key Widget?" }).waitFor()
    await page
      .getByText(/a booking widget on a website that uses this key can no longer show times or take bookings/)
      .waitFor()
    expect(await live()).toBeNull()
    await expectAccessible(page)
    await page.getByRole("button", { name: "Keep it" }).click()
    expect(await page.getByRole("heading", { name: "Revoke the key Widget?" }).count()).toBe(0)
    expect(await live()).toBeNull()
    await page.getByRole("button", { name: "Revoke… Widget" }).click()
    await page.getByRole("button", { name: "Revoke the key" }).click()
    await expect.poll(live).not.toBeNull()
  })

  it("removing a repeating entry shows its future times and the bookings it cancels, with refunds, before removing", async () => {
    const { org, page } = await owner("series@example.com")
    const offering = (await org.call("POST", "/offerings", { kind: "class", name: "Yoga", capacity: 8 })).body
    const tomorrow = new Date((await clockNow(suite.app)).getTime() + 86_400_000).toLocaleDateString("en-CA", {
      timeZone: "Europe/Amsterdam"
    })
    const entry = (
      await org.call("POST", "/series", {
        offering_id: offering.id,
        starts_on: tomorrow,
        start_time: "18:00",
        end_time: "19:00",
        repeat: "weekly"
      })
    ).body
    const times = (await org.call("GET", `/sessions?offering_id=${offering.id}`)).body.data
    const booked = (
      await org.call("POST", "/bookings", {
        offering_id: offering.id,
        session_id: times[0].id,
        customer: { name: "Ada Lovelace", email: "ada@example.com" }
      })
    ).body
    await page.goto(`${suite.app.url}/dashboard/offerings/${offering.id}`)
    await page.getByRole("button", { name: `Remove… the times from ${localDate(tomorrow)}` }).click()
    await page.getByRole("heading", { name: /^Remove “Every week from/ }).waitFor()
    await page.getByText(`Its ${times.length} future times go`, { exact: false }).waitFor()
    await page.getByText(/1 booking is on them\. Removing cancels it, emails the guests/).waitFor()
    await page.getByText(/Ada Lovelace, .*: nothing paid online/).waitFor()
    await expectAccessible(page)
    await screenshots(page, "console-remove-series")
    expect((await org.call("GET", `/series?offering_id=${offering.id}`)).body.data).toHaveLength(1)
    await page.getByRole("button", { name: "Remove the times and cancel 1 booking (refund €0.00)" }).click()
    await page.getByText(`Removed ${times.length} times; 1 booking cancelled and the guests told.`).waitFor()
    expect((await org.call("GET", `/series?offering_id=${offering.id}`)).body.data).toEqual([])
    expect((await org.call("GET", `/bookings/${booked.id}`)).body.status).toBe("cancelled")
    expect(entry.id).toBeDefined()
  })
})
