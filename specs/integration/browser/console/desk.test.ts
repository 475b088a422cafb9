import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { expectAccessible, screenshots } from "../../../support/browser.ts"
import { clockNow, consoleSuite, orgWith, signIn } from "./helpers.ts"

const suite = consoleSuite()
const { newPage } = suite

/** An owner signed in, with a class at 25.00 a place and one time three hours from now. */
const studio = async (email: string) => {
  const org = await orgWith(suite.app, { [email]: "owner" })
  const offering = (
    await org.call("POST", "/offerings", { kind: "class", name: "Pilates", capacity: 10, price_cents: 2500 })
  ).body
  const at = new Date((await clockNow(suite.app)).getTime() + 3 * 3600_000)
  const session = (await org.call("POST", "/sessions", { offering_id: offering.id, starts_at: at.toISOString() })).body
    .data[0]
  const page = await newPage()
  await signIn(suite.app, page, email)
  return { org, offering, session, page }
}

/** Fills "Book for a guest" up to the question of how the guest pays. */
const fillDesk = async (page: Page, name: string) => {
  await page.goto(`${new URL(page.url()).origin}/dashboard/bookings/new`)
  await page.getByLabel("Offering").selectOption({ label: "Pilates" })
  const time = page.getByLabel("Time")
  await time.locator("option").nth(1).waitFor({ state: "attached" })
  await time.selectOption({ index: 1 })
  await page.getByLabel("Guest's name").fill(name)
  await page.getByLabel("Guest's email").fill(`${name.toLowerCase().replace(/ /g, ".")}@example.com`)
}

const book = async (page: Page, name: string, choice: string) => {
  await fillDesk(page, name)
  await page.getByLabel(choice).check()
  await page.getByRole("button", { name: "Book", exact: true }).click()
  await page.getByRole("heading", { name: new RegExp(name) }).waitFor()
}

const bookingOf = async (org: Awaited<ReturnType<typeof studio>>["org"], name: string) =>
  (await org.call("GET", "/bookings")).body.data.find((b: { customer: { name: string } }) => b.customer.name === name)

describe("a booking taken at the desk for a priced class", () => {
  it("asks how the guest pays, and a booking paid later at the door stays confirmed past any hold time", async () => {
    const { org, page } = await studio("desk@example.com")
    await fillDesk(page, "Door Payer")
    await page.getByRole("group", { name: "How does the guest pay €25.00?" }).waitFor()
    await expectAccessible(page)
    await screenshots(page, "console-desk-booking")
    // Nothing is booked until the desk says how.
    await page.getByRole("button", { name: "Book", exact: true }).click()
    expect((await org.call("GET", "/bookings")).body.data).toEqual([])
    await page.getByLabel("Pays later, at the door").check()
    await page.getByRole("button", { name: "Book", exact: true }).click()
    await page.getByRole("heading", { name: /Door Payer/ }).waitFor()
    await page.getByText("confirmed", { exact: true }).waitFor()
    await page.getByText("€25.00 · not paid").waitFor()
    // An hour on, long past a hold's 15 minutes, it still keeps its place.
    await suite.app.advance(3600)
    const later = await bookingOf(org, "Door Payer")
    expect([later.status, later.paid_at, later.expires_at]).toEqual(["confirmed", null, null])
    expect((await org.call("GET", `/sessions?offering_id=${later.offering_id}`)).body.data[0].booked).toBe(1)
    await page.getByRole("button", { name: "Mark paid" }).click()
    await page.getByText("Marked paid.").waitFor()
    expect((await org.call("GET", `/bookings/${later.id}`)).body.paid_cents).toBe(2500)
  })

  it("paid now at the desk is confirmed and paid; free is confirmed with the price waived", async () => {
    const { org, page } = await studio("paid@example.com")
    await book(page, "Desk Payer", "Paid now, at the desk")
    await page.getByText("€25.00 · paid €25.00").waitFor()
    expect(await page.getByRole("button", { name: "Mark paid" }).count()).toBe(0)
    const paid = await bookingOf(org, "Desk Payer")
    expect([paid.status, paid.paid_cents, paid.source]).toEqual(["confirmed", 2500, "dashboard"])
    await book(page, "Guest Of Honour", "Free")
    await page.getByText("free (price €25.00 waived)").waitFor()
    expect(await page.getByRole("button", { name: "Mark paid" }).count()).toBe(0)
    const free = await bookingOf(org, "Guest Of Honour")
    expect([free.status, free.total_cents, free.discount_cents]).toEqual(["confirmed", 0, 2500])
  })

  it("a payment link says plainly until when the places are held, and shows the link", async () => {
    const { org, page } = await studio("link@example.com")
    await book(page, "Link Payer", "Send a payment link")
    await page.getByRole("heading", { name: "Waiting for payment" }).waitFor()
    const held = await bookingOf(org, "Link Payer")
    expect(held.status).toBe("held")
    expect(Date.parse(held.expires_at) - Date.parse(held.created_at)).toBe(30 * 60_000)
    await page
      .getByText(/Held for online payment until .*Unpaid by then, it lapses and its places go back on sale\./)
      .waitFor()
    const link = (await org.call("GET", `/bookings/${held.id}`)).body.checkout_url
    await page.getByRole("link", { name: link }).waitFor()
    await expectAccessible(page)
    await screenshots(page, "console-hold")
  })

  it("a hold says what to do instead of Mark paid: confirming it as paid at the desk", async () => {
    const { org, offering, session, page } = await studio("hold@example.com")
    const held = (
      await org.call("POST", "/bookings", {
        offering_id: offering.id,
        session_id: session.id,
        customer: { name: "Phone Payer", email: "phone@example.com" }
      })
    ).body
    expect(held.status).toBe("held")
    await page.goto(`${suite.app.url}/dashboard/bookings/${held.id}`)
    await page.getByRole("heading", { name: "Waiting for payment" }).waitFor()
    expect(await page.getByRole("button", { name: "Mark paid" }).count()).toBe(0)
    await page.getByRole("button", { name: "Paid €25.00 at the desk: confirm" }).click()
    await page.getByText("Confirmed and marked paid.").waitFor()
    const after = (await org.call("GET", `/bookings/${held.id}`)).body
    expect([after.status, after.paid_cents]).toEqual(["confirmed", 2500])
    await page.getByText("€25.00 · paid €25.00").waitFor()
  })
})

describe("the bookings list and moving", () => {
  it("pages past 100 bookings, says when a search is too long, and moves a booking to any bookable date", async () => {
    const { org, offering, session, page } = await studio("pages@example.com")
    await org.call("PATCH", `/offerings/${offering.id}`, { capacity: 200, price_cents: 0 })
    const made: Array<{ id: string }> = []
    for (let n = 0; n < 102; n++)
      made.push(
        (
          await org.call("POST", "/bookings", {
            offering_id: offering.id,
            session_id: session.id,
            customer: { name: `Guest ${n}`, email: `many${n}@example.com` }
          })
        ).body
      )
    await page.goto(`${suite.app.url}/dashboard/bookings`)
    await page.locator("table.list tbody tr").nth(99).waitFor()
    expect(await page.locator("table.list tbody tr").count()).toBe(100)
    await page.getByRole("link", { name: "Older bookings" }).click()
    await page.getByRole("link", { name: "Newest bookings" }).waitFor()
    await expect.poll(() => page.locator("table.list tbody tr").count()).toBe(2)
    // A search longer than the API takes says so instead of keeping the old result.
    await page.getByLabel("Guest").fill("x".repeat(81))
    await page.getByText("Search by at most 80 characters (81 typed).").waitFor()
    // Moving: any day the offering can be booked, not only the next two weeks.
    const later = new Date((await clockNow(suite.app)).getTime() + 40 * 86_400_000)
    const far = (await org.call("POST", "/sessions", { offering_id: offering.id, starts_at: later.toISOString() })).body
      .data[0]
    await page.goto(`${suite.app.url}/dashboard/bookings/${made[0].id}`)
    await page.getByRole("button", { name: "Move to another time…" }).click()
    await page.getByLabel("Starting on").fill(later.toLocaleDateString("en-CA", { timeZone: "Europe/Amsterdam" }))
    const time = page.getByLabel("New time")
    const day = later.toLocaleDateString("en-GB", {
      timeZone: "Europe/Amsterdam",
      weekday: "short",
      day: "numeric",
      month: "short"
    })
    const option = time.locator("option", { hasText: day })
    await option.waitFor({ state: "attached" })
    await time.selectOption({ label: (await option.textContent()) ?? "" })
    await page.getByRole("button", { name: "Move", exact: true }).click()
    await page.getByText("Moved.").waitFor()
    expect((await org.call("GET", `/bookings/${made[0].id}`)).body.session_id).toBe(far.id)
  })
})
