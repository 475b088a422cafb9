import type { Locator, Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { expectAccessible, screenshots } from "../../../support/browser.ts"
import { mailsTo } from "../../auth/helpers.ts"
import { consoleSuite, orgWith, signIn } from "./helpers.ts"

// The calendar grid in New York (UTC-5 in January): the engine's clock is Monday 2 January 2040, 07:00 there.
const suite = consoleSuite()
const ZONE = "America/New_York"
const at = (local: string) => new Date(`${local}-05:00`).toISOString()
const HOUR = 40

const studio = async (email: string) => {
  const org = await orgWith(suite.app, { [email]: "owner" }, ZONE)
  const offering = (name: string, capacity: number, extra: Record<string, unknown> = {}) =>
    org
      .call("POST", "/offerings", { kind: "class", name, capacity, price_cents: 2000, ...extra })
      .then((r) => r.body as { id: string })
  const time = async (offeringId: string, local: string) =>
    (await org.call("POST", "/sessions", { offering_id: offeringId, starts_at: at(local) })).body.data[0] as {
      id: string
    }
  const book = async (offeringId: string, sessionId: string, name: string, payment?: string) => {
    const r = await org.call("POST", "/bookings", {
      offering_id: offeringId,
      session_id: sessionId,
      customer: { name, email: `${name.toLowerCase()}@example.com` },
      ...(payment === undefined ? {} : { payment })
    })
    expect(r.status).toBe(201)
    return r.body as { id: string; status: string }
  }
  const yoga = await offering("Yoga", 8)
  const tue = await time(yoga.id, "2040-01-03T18:00:00")
  const wed = await time(yoga.id, "2040-01-04T18:00:00")
  const thu = await time(yoga.id, "2040-01-05T09:00:00")
  const ada = await book(yoga.id, tue.id, "Ada", "paid")
  const bea = await book(yoga.id, tue.id, "Bea", "paid")
  expect((await book(yoga.id, tue.id, "Cy")).status).toBe("held")
  const pilates = await offering("Pilates", 1, { waitlist_enabled: true })
  const small = await time(pilates.id, "2040-01-03T10:00:00")
  await book(pilates.id, small.id, "Dee", "paid")
  const wait = await org.call("POST", "/waitlist", {
    session_id: small.id,
    customer: { name: "Eve", email: "eve@example.com" }
  })
  expect(wait.status).toBe(201)
  const closure = await org.call("POST", "/closures", { starts_on: "2040-01-06", note: "Staff training" })
  expect(closure.status).toBe(201)
  const page = await suite.newPage()
  await signIn(suite.app, page, email)
  await page.getByRole("link", { name: "Calendar", exact: true }).click()
  await page.getByRole("heading", { name: "Week of Mon 2 Jan 2040" }).waitFor()
  return { org, page, yoga, tue, wed, thu, ada, bea }
}

const column = (page: Page, name: string) => page.getByRole("region", { name })
const block = (page: Page, label: string | RegExp) => page.getByRole("button", { name: label }).first()

/** Top of a block below its column's top, in pixels. */
const offset = async (page: Page, b: Locator, columnName: string) => {
  const track = column(page, columnName).locator("[data-date]")
  const [bb, tb] = [await b.boundingBox(), await track.boundingBox()]
  return Math.round((bb?.y ?? 0) - (tb?.y ?? 0))
}

/** Presses near the top of `from`, moves in steps to near the top of `to` (by dy pixels, or to a point), releases. */
const drag = async (page: Page, from: Locator, to: Locator | { dy: number } | { x: number; y: number }) => {
  const a = await from.boundingBox()
  if (a === null) throw new Error("nothing to drag")
  const start = { x: a.x + a.width / 2, y: a.y + Math.min(8, a.height / 2) }
  const b = "dy" in to ? { x: start.x, y: start.y + to.dy } : "x" in to ? to : await middle(to)
  await page.mouse.move(start.x, start.y)
  await page.mouse.down()
  await page.mouse.move(b.x, b.y, { steps: 8 })
  await page.mouse.up()
}

const middle = async (l: Locator) => {
  const b = await l.boundingBox()
  if (b === null) throw new Error("nowhere to drop")
  return { x: b.x + b.width / 2, y: b.y + Math.min(8, b.height / 2) }
}

describe("the calendar grid", () => {
  it("shows each time at its day and hour in the org's zone with places, holds and the waitlist; a closure greyed", async () => {
    const { org, page, thu } = await studio("grid@example.com")
    const yoga = block(page, "Yoga, Tue 3 Jan 18:00–19:00, 3 taken, 5 left, 1 held")
    await yoga.waitFor()
    expect(
      await column(page, "Tue 3 Jan 2040")
        .getByRole("button", { name: /^Yoga, Tue 3 Jan 18:00/ })
        .count()
    ).toBe(1)
    // No weekly hours: the grid runs 07:00 to 22:00, 40 px an hour.
    expect(Math.abs((await offset(page, yoga, "Tue 3 Jan 2040")) - 11 * HOUR)).toBeLessThanOrEqual(1)
    const pilates = block(page, "Pilates, Tue 3 Jan 10:00–11:00, 1 taken, 0 left, 1 waiting")
    expect(Math.abs((await offset(page, pilates, "Tue 3 Jan 2040")) - 3 * HOUR)).toBeLessThanOrEqual(1)
    await column(page, "Wed 4 Jan 2040")
      .getByRole("button", { name: /^Yoga, Wed 4 Jan 18:00.*0 taken, 8 left$/ })
      .waitFor()
    await column(page, "Fri 6 Jan 2040").getByText("Closed: Staff training").waitFor()
    expect(
      await column(page, "Thu 5 Jan 2040")
        .getByText(/Closed/)
        .count()
    ).toBe(0)
    // The current time: Monday 07:00 in New York, the grid's first line.
    const now = column(page, "Mon 2 Jan 2040 (today)").locator(".cal-now")
    await now.getByText("Now, 07:00").waitFor({ state: "attached" })
    await expectAccessible(page)
    await screenshots(page, "console-calendar")
    // Any date: a month on with the date picker, and back a week.
    await page.getByLabel("Go to date").fill("2040-02-14")
    await page.getByRole("heading", { name: "Week of Mon 13 Feb 2040" }).waitFor()
    await page.getByRole("button", { name: "Previous week" }).click()
    await page.getByRole("heading", { name: "Week of Mon 6 Feb 2040" }).waitFor()
    // One offering, then only the times the signed-in member teaches: Thursday's Yoga.
    const [me] = (await org.call("GET", "/team")).body.data
    expect((await org.call("PATCH", `/sessions/${thu.id}`, { teacher: me.user_id })).status).toBe(200)
    await page.getByRole("button", { name: "Today" }).click()
    await page.getByLabel("Show").selectOption({ label: "Pilates" })
    await block(page, /^Pilates, Tue 3 Jan 10:00/).waitFor()
    await expect.poll(() => page.getByRole("button", { name: /^Yoga,/ }).count()).toBe(0)
    await page.getByLabel("Show").selectOption({ label: "Mine (the times I teach)" })
    await block(page, /^Yoga, Thu 5 Jan 09:00/).waitFor()
    await expect.poll(() => page.getByRole("button", { name: /^(Yoga|Pilates),/ }).count()).toBe(1)
  })

  it("moves a booking dragged from a time's guests onto another time, and mails the guest", async () => {
    const { org, page, tue, wed, ada, bea: booked } = await studio("dragbook@example.com")
    await block(page, /^Yoga, Tue 3 Jan 18:00/).click()
    const guest = page
      .getByRole("region", { name: /^Yoga, Tue 3 Jan 18:00/ })
      .getByRole("listitem")
      .filter({ hasText: "Ada" })
    const target = block(page, /^Yoga, Wed 4 Jan 18:00/)
    await target.scrollIntoViewIfNeeded()
    await drag(page, guest, target)
    await page.getByText("Moved Ada's booking to Wed 4 Jan 18:00. The guest was mailed the new time.").waitFor()
    expect((await org.call("GET", `/bookings/${ada.id}`)).body.session_id).toBe(wed.id)
    expect(await mailsTo(suite.app, "ada@example.com", "booking.moved")).toHaveLength(1)
    await block(page, /^Yoga, Wed 4 Jan 18:00.*1 taken, 7 left$/).waitFor()
    // Dropped where no time of the class starts: said plainly, nothing moved.
    const bea = page
      .getByRole("region", { name: /^Yoga, Tue 3 Jan 18:00/ })
      .getByRole("listitem")
      .filter({ hasText: "Bea" })
    expect(booked.status).toBe("confirmed")
    const thursday = await column(page, "Thu 5 Jan 2040").locator("[data-date]").boundingBox()
    // Just below the top of the 18:00 row (a guest taken from the list lands where the pointer is).
    const y = ((await target.boundingBox())?.y ?? 0) + 2
    await drag(page, bea, { x: (thursday?.x ?? 0) + (thursday?.width ?? 0) / 2, y })
    await page.getByText("Drop Bea's booking on another time of Yoga: none starts at Thu 5 Jan 18:00.").waitFor()
    expect((await org.call("GET", `/bookings/${booked.id}`)).body.session_id).toBe(tue.id)
  })

  it("moves a time nobody booked by dragging it; a booked time is refused with why", async () => {
    const { org, page, yoga, thu } = await studio("dragtime@example.com")
    const free = block(page, /^Yoga, Thu 5 Jan 09:00/)
    await free.scrollIntoViewIfNeeded()
    await drag(page, free, { dy: HOUR })
    await page.getByText("Moved Yoga to Thu 5 Jan 10:00.").waitFor()
    const times = (await org.call("GET", `/sessions?offering_id=${yoga.id}`)).body.data
    expect(times.find((t: { id: string }) => t.id === thu.id)).toMatchObject({
      starts_at: expect.stringMatching(/^2040-01-05T15:00:00/),
      ends_at: expect.stringMatching(/^2040-01-05T16:00:00/)
    })
    const booked = block(page, /^Yoga, Tue 3 Jan 18:00/)
    await drag(page, booked, { dy: HOUR })
    await page
      .getByText("Yoga at Tue 3 Jan 18:00 has 3 places booked, so the time cannot be moved", { exact: false })
      .waitFor()
    const tue = (await org.call("GET", `/sessions?offering_id=${yoga.id}`)).body.data[0]
    expect(tue.starts_at).toMatch(/^2040-01-03T23:00:00/)
  })

  it("moves by keyboard alone: a block's Move… dialog with the day's free times, for a booking and for a time", async () => {
    const { org, page, wed, bea, thu, yoga } = await studio("keys@example.com")
    await page
      .getByRole("button", { name: /^Yoga, Tue 3 Jan 18:00/ })
      .first()
      .focus()
    await page.keyboard.press("Enter")
    await page.getByRole("button", { name: "Move Bea's booking…" }).focus()
    await page.keyboard.press("Enter")
    const dialog = page.getByRole("dialog", { name: "Move Bea's booking" })
    await dialog.getByLabel("New date").fill("2040-01-04")
    await dialog.getByLabel("18:00–19:00 (8 left)").focus()
    await page.keyboard.press("Space")
    await expectAccessible(page)
    await dialog.getByRole("button", { name: "Move here" }).focus()
    await page.keyboard.press("Enter")
    await page.getByText("Moved Bea's booking to Wed 4 Jan 18:00. The guest was mailed the new time.").waitFor()
    expect((await org.call("GET", `/bookings/${bea.id}`)).body.session_id).toBe(wed.id)
    expect(await mailsTo(suite.app, "bea@example.com", "booking.moved")).toHaveLength(1)
    // A time nobody booked, to another day and hour.
    await page.getByRole("button", { name: /^Move Yoga, Thu 5 Jan 09:00/ }).focus()
    await page.keyboard.press("Enter")
    const again = page.getByRole("dialog", { name: "Move Yoga" })
    await again.getByLabel("New date").fill("2040-01-07")
    await again.getByLabel("New start").fill("11:30")
    await again.getByRole("button", { name: "Move here" }).focus()
    await page.keyboard.press("Enter")
    await page.getByText("Moved Yoga to Sat 7 Jan 11:30.").waitFor()
    const moved = (await org.call("GET", `/sessions?offering_id=${yoga.id}`)).body.data.find(
      (t: { id: string }) => t.id === thu.id
    )
    expect(moved.starts_at).toMatch(/^2040-01-07T16:30:00/)
  })

  it("runs the grid over the weekly hours and moves an appointment's booking dragged to another free start", async () => {
    const email = "hours@example.com"
    const org = await orgWith(suite.app, { [email]: "owner" }, ZONE)
    const massage = (
      await org.call("POST", "/offerings", {
        kind: "appointment",
        name: "Massage",
        duration_minutes: 60,
        price_cents: 0,
        schedule: "hours"
      })
    ).body
    const hours = await org.call("PUT", `/offerings/${massage.id}/hours`, {
      hours: [{ weekday: 3, start_time: "09:00", end_time: "17:00" }]
    })
    expect(hours.status).toBe(200)
    expect((await org.call("PATCH", `/offerings/${massage.id}`, { active: true })).status).toBe(200)
    const booked = await org.call("POST", "/bookings", {
      offering_id: massage.id,
      starts_at: at("2040-01-04T10:00:00"),
      customer: { name: "Fay", email: "fay@example.com" }
    })
    expect(booked.status).toBe(201)
    const page = await suite.newPage()
    await signIn(suite.app, page, email)
    await page.goto(`${suite.app.url}/dashboard/calendar?date=2040-01-04&view=day`)
    const fay = block(page, "Massage, Wed 4 Jan 10:00–11:00, Fay, confirmed")
    await fay.waitFor()
    // Wednesday's hours, 09:00 to 17:00: the booking an hour below the top.
    expect(Math.abs((await offset(page, fay, "Wed 4 Jan 2040")) - HOUR)).toBeLessThanOrEqual(1)
    expect(await page.locator(".cal-axis span").allTextContents()).toEqual(
      ["09", "10", "11", "12", "13", "14", "15", "16"].map((h) => `${h}:00`)
    )
    await drag(page, fay, { dy: 2 * HOUR })
    await page.getByText("Moved Fay's booking to Wed 4 Jan 12:00. The guest was mailed the new time.").waitFor()
    expect((await org.call("GET", `/bookings/${booked.body.id}`)).body.starts_at).toMatch(/^2040-01-04T17:00:00/)
    expect(await mailsTo(suite.app, "fay@example.com", "booking.moved")).toHaveLength(1)
    // Past closing (16:30 to 17:30): refused as bookings.move refuses it, said plainly; the booking stays.
    await drag(page, block(page, /^Massage, Wed 4 Jan 12:00/), { dy: 4.5 * HOUR })
    const refused = page.locator("main > section > .alert")
    await refused.waitFor()
    expect(await refused.textContent()).toMatch(/^That time is not free\./)
    expect((await org.call("GET", `/bookings/${booked.body.id}`)).body.starts_at).toMatch(/^2040-01-04T17:00:00/)
  })

  it("at 375 px shows one day at a time, with the previous and next day", async () => {
    const { page } = await studio("phone@example.com")
    await block(page, /^Yoga, Tue 3 Jan 18:00/).waitFor()
    await page.setViewportSize({ width: 375, height: 800 })
    await page.getByRole("heading", { level: 1, name: "Mon 2 Jan 2040", exact: true }).waitFor()
    await expect
      .poll(async () => [await page.locator(".cal-day").count(), await page.locator("main").textContent()])
      .toEqual([1, expect.stringContaining("Mon 2 Jan 2040")])
    await page.getByRole("button", { name: "Next day" }).click()
    await page.getByRole("heading", { level: 1, name: "Tue 3 Jan 2040", exact: true }).waitFor()
    await block(page, /^Yoga, Tue 3 Jan 18:00/).waitFor()
    expect(await page.locator(".cal-day").count()).toBe(1)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await expectAccessible(page)
  })
})
