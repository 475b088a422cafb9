import { describe, expect, it } from "vitest"
import { expectAccessible, screenshots } from "../../../support/browser.ts"
import { CARD, ledger, payWith, steps } from "../../payments/helpers.ts"
import { consoleSuite, orgWith, settle, signIn } from "./helpers.ts"

// Closures and holidays in the console (owners), in New York: the engine's clock is Monday 2 January 2040 there.
const suite = consoleSuite()
const ZONE = "America/New_York"

describe("closures and holidays", () => {
  it("closes a date over a booked time, asking first; refund cancels and refunds the paid booking; delete asks", async () => {
    const email = "closures@example.com"
    const org = await orgWith(suite.app, { [email]: "owner" }, ZONE)
    const yoga = (await org.call("POST", "/offerings", { kind: "class", name: "Yoga", capacity: 8, price_cents: 2000 }))
      .body
    const session = (
      await org.call("POST", "/sessions", {
        offering_id: yoga.id,
        starts_at: new Date("2040-01-04T18:00:00-05:00").toISOString()
      })
    ).body.data[0]
    const booking = (
      await org.call("POST", "/bookings", {
        offering_id: yoga.id,
        session_id: session.id,
        customer: { name: "Paid Guest", email: "paid.guest@example.com" }
      })
    ).body
    expect((await payWith(suite.app, booking.checkout_url, CARD.pays)).status).toBe(200)
    await settle(suite.app)
    expect((await org.call("GET", `/bookings/${booking.id}`)).body).toMatchObject({ status: "confirmed" })

    const page = await suite.newPage()
    await signIn(suite.app, page, email)
    await page.getByRole("link", { name: "Settings", exact: true }).click()
    await page.getByRole("link", { name: "Closures and holidays" }).click()
    await page.getByRole("heading", { name: "Closures and holidays" }).waitFor()
    await page.getByText("No closures from today on.").waitFor()
    // A range that ends before it starts: said beside the last date, nothing made.
    await page.getByLabel("First date").fill("2040-01-04")
    await page.getByLabel("Last date (optional)").fill("2040-01-03")
    await page.getByRole("button", { name: "Check what it affects" }).click()
    await page.locator(".field.invalid", { hasText: "Last date" }).getByRole("alert").waitFor()
    // Other hours that close before they open: said beside the hours.
    await page.getByLabel("Last date (optional)").fill("")
    await page.getByLabel("Open other hours").check()
    await page.getByLabel("Opens at").fill("14:00")
    await page.getByLabel("Closes at").fill("10:00")
    await page.getByRole("button", { name: "Check what it affects" }).click()
    await page
      .getByRole("group", { name: "Hours on those dates" })
      .getByText("The closing time must be after the opening time.")
      .waitFor()
    expect((await org.call("GET", "/closures")).body.data).toEqual([])
    // Closed all day, with a note: the booked time is shown first, with the choice for its guest.
    await page.getByLabel("Closed all day").check()
    await page.getByLabel("Note for guests (optional)").fill("Closed for the holidays")
    await page.getByRole("button", { name: "Check what it affects" }).click()
    await page.getByText("Yoga, Wed 4 Jan, 18:00: 1 booked").waitFor()
    await page.getByLabel("Cancel their bookings and refund what they paid online").check()
    await expectAccessible(page)
    await screenshots(page, "console-closures")
    await page.getByRole("button", { name: "Close these dates" }).click()
    await page
      .getByText("The org is closed on 2040-01-04. 1 booked time or booking was cancelled and refunded.")
      .waitFor()
    const closures = (await org.call("GET", "/closures")).body.data
    expect(closures).toMatchObject([
      { starts_on: "2040-01-04", ends_on: "2040-01-04", note: "Closed for the holidays" }
    ])
    await steps(suite.app, 6, 6)
    const after = (await org.call("GET", `/bookings/${booking.id}`)).body
    expect(after.status).toBe("cancelled")
    expect(after.refunded_at).not.toBeNull()
    expect((await ledger(suite.app, booking.id)).map((r) => [r.amount_cents, r.refund_cents])).toEqual([[2000, 2000]])
    const row = page.getByRole("row").filter({ hasText: "2040-01-04" })
    await row.getByText("Closed for the holidays").waitFor()
    await row.getByText("Closed all day").waitFor()
    // Delete asks first; keeping it keeps it, then deleting opens the date again.
    await page.getByRole("button", { name: "Delete the closure of 2040-01-04…" }).click()
    await page.getByRole("button", { name: "Keep it closed" }).click()
    expect((await org.call("GET", "/closures")).body.data).toHaveLength(1)
    await page.getByRole("button", { name: "Delete the closure of 2040-01-04…" }).click()
    await page.getByRole("heading", { name: "Open 2040-01-04 again?" }).waitFor()
    await page.getByRole("button", { name: "Delete the closure", exact: true }).click()
    await page.getByText("2040-01-04 is open again.").waitFor()
    expect((await org.call("GET", "/closures")).body.data).toEqual([])
  })

  it("closes one offering other hours with nothing booked inside, and staff are not shown the screen", async () => {
    const org = await orgWith(
      suite.app,
      { "owner.hours@example.com": "owner", "staff.hours@example.com": "staff" },
      ZONE
    )
    const yoga = (await org.call("POST", "/offerings", { kind: "class", name: "Yoga", capacity: 8 })).body
    await org.call("POST", "/offerings", { kind: "class", name: "Pilates", capacity: 8 })
    const page = await suite.newPage()
    await signIn(suite.app, page, "owner.hours@example.com")
    await page.goto(`${suite.app.url}/dashboard/closures`)
    await page.getByLabel("Applies to").selectOption({ label: "Yoga" })
    await page.getByLabel("First date").fill("2040-01-05")
    await page.getByLabel("Last date (optional)").fill("2040-01-06")
    await page.getByLabel("Open other hours").check()
    await page.getByLabel("Opens at").fill("10:00")
    await page.getByLabel("Closes at").fill("14:00")
    await page.getByRole("button", { name: "Check what it affects" }).click()
    await page.getByRole("heading", { name: "Nothing booked is inside" }).waitFor()
    await page.getByRole("button", { name: "Close these dates" }).click()
    await page.getByText("Yoga is closed on 2040-01-05 to 2040-01-06 outside 10:00–14:00.").waitFor()
    expect((await org.call("GET", "/closures")).body.data).toMatchObject([
      {
        offering_id: yoga.id,
        starts_on: "2040-01-05",
        ends_on: "2040-01-06",
        open_hours: [{ start_time: "10:00:00", end_time: "14:00:00" }]
      }
    ])
    const row = page.getByRole("row").filter({ hasText: "2040-01-05 to 2040-01-06" })
    await row.getByText("Open 10:00–14:00").waitFor()
    // On the calendar: Yoga's Thursday greyed outside its open hours.
    await page.goto(`${suite.app.url}/dashboard/calendar?date=2040-01-05`)
    await page
      .getByRole("region", { name: "Thursday 5 January" })
      .getByText("Yoga closed outside 10:00–14:00")
      .first()
      .waitFor()
    const staff = await suite.newPage()
    await signIn(suite.app, staff, "staff.hours@example.com")
    await staff.goto(`${suite.app.url}/dashboard/closures`)
    await staff.getByRole("heading", { name: "Owners only" }).waitFor()
  })
})
