import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { expectAccessible, screenshots } from "../../../support/browser.ts"
import { fetchFeed, onApp, parseFeed } from "../../feeds/helpers.ts"
import { consoleSuite, orgWith, signIn } from "./helpers.ts"

// Calendar feeds in the console: your own on Account (every role), an offering's on its page (owners).
// The engine's clock reads 2040-01-02 12:00 UTC; the org runs on Europe/Amsterdam.
const suite = consoleSuite()

type Org = Awaited<ReturnType<typeof orgWith>>

const memberId = async (org: Org, email: string) =>
  ((await org.call("GET", "/team")).body.data as Array<{ user_id: string; email: string }>).find(
    (m) => m.email === email
  )!.user_id

const classWithTime = async (org: Org, name: string, startsAt: string, teacher: string | null) => {
  const offering = (await org.call("POST", "/offerings", { kind: "class", name, capacity: 8, duration_minutes: 60 }))
    .body
  const res = await org.call("POST", "/sessions", { offering_id: offering.id, starts_at: startsAt, teacher })
  expect(res.status).toBe(201)
  return { offering, time: res.body.data[0] as { id: string } }
}

/** The feed's events as [uid, start, summary], read with ical.js from the URL as a calendar app would. */
const eventsAt = async (url: string) => {
  const res = await fetchFeed(onApp(suite.app, url))
  expect([res.status, res.type]).toEqual([200, "text/calendar; charset=utf-8"])
  return parseFeed(res.text).events.map((e) => [e.uid, e.start, e.summary])
}
const status = async (url: string) => (await fetchFeed(onApp(suite.app, url))).status

const box = (page: Page, name: string) => page.getByRole("region", { name, exact: true })
const shownUrl = async (page: Page, name: string) => {
  const url = await box(page, name)
    .getByRole("textbox", { name: /^Calendar feed address/ })
    .inputValue()
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/feeds\/cal_[A-Za-z0-9_-]{43}\.ics$/)
  return url
}

describe("your calendar feed (Account)", () => {
  it("an owner makes it, subscribes by its URL, makes a new address (the old one 404) and stops it (404)", async () => {
    const email = "feeds.owner@example.com"
    const org = await orgWith(suite.app, { [email]: "owner", "feeds.other@example.com": "staff" })
    const me = await memberId(org, email)
    const { time } = await classWithTime(org, "Yoga", "2040-01-10T09:00:00.000Z", me)
    await classWithTime(org, "Pilates", "2040-01-11T09:00:00.000Z", await memberId(org, "feeds.other@example.com"))
    const page = await suite.newPage()
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: suite.app.url })
    await signIn(suite.app, page, email)
    await page.goto(`${suite.app.url}/dashboard/account`)
    const feed = box(page, "Your calendar feed")
    await feed.getByText("No calendar feed yet.").waitFor()
    await feed.getByRole("button", { name: "Make a calendar feed" }).click()
    await feed.getByText("Calendar feed made. Copy its address now: it is shown this once.").waitFor()
    const first = await shownUrl(page, "Your calendar feed")
    await feed.getByText("Google Calendar: Other calendars > From URL").waitFor()
    await feed
      .getByText(/Apple Calendar: File > New Calendar Subscription; Outlook: Add calendar > Subscribe from web/)
      .waitFor()
    // The feed is the owner's own: the time they teach, not a colleague's.
    const host = new URL(first).host
    expect(await eventsAt(first)).toEqual([
      [`${time.id}@${host}`, "2040-01-10T09:00:00.000Z", "Yoga: 0 booked, 8 left"]
    ])
    const listed = (await org.call("GET", `/feeds?user_id=${me}`)).body.data
    expect(listed).toMatchObject([{ kind: "member", user_id: me, revoked_at: null }])
    await feed.getByRole("button", { name: "Copy", exact: true }).click()
    await feed.getByText("Copied.").waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first)
    await expectAccessible(page)
    await screenshots(page, "console-feeds")

    // Shown once: after a reload the feed is listed, its address is not.
    await page.reload()
    await feed.getByText(/^Feed on since .*Its address was shown once/).waitFor()
    expect(await feed.getByRole("textbox").count()).toBe(0)

    // A new address: asked first (saying the old one stops); kept, nothing changes.
    await feed.getByRole("button", { name: "Make a new address" }).click()
    const ask = box(page, "Make a new address for this feed?")
    await ask.getByText(/The address you have now stops working at once/).waitFor()
    await ask.getByRole("button", { name: "Keep the old address" }).click()
    expect(await ask.count()).toBe(0)
    expect(await status(first)).toBe(200)
    await feed.getByRole("button", { name: "Make a new address" }).click()
    await ask.getByRole("button", { name: "Make a new address" }).click()
    await feed.getByText("New address made. The old one no longer works: copy this one now.").waitFor()
    const second = await shownUrl(page, "Your calendar feed")
    expect(second).not.toBe(first)
    expect(await status(first)).toBe(404)
    expect(await eventsAt(second)).toEqual([
      [`${time.id}@${host}`, "2040-01-10T09:00:00.000Z", "Yoga: 0 booked, 8 left"]
    ])
    expect((await org.call("GET", `/feeds?user_id=${me}`)).body.data).toHaveLength(1)

    // Stopped: asked once, naming what stops; its URL answers 404, and the box offers a new feed.
    await feed.getByRole("button", { name: "Stop this feed" }).click()
    const stop = box(page, "Stop this calendar feed?")
    await stop.getByText(/no longer get the times you teach and the appointments you take/).waitFor()
    await stop.getByRole("button", { name: "Stop this feed" }).click()
    await feed.getByText("Calendar feed stopped: its address no longer works.").waitFor()
    await feed.getByRole("button", { name: "Make a calendar feed" }).waitFor()
    expect(await feed.getByRole("textbox").count()).toBe(0)
    expect(await status(second)).toBe(404)
    expect((await org.call("GET", `/feeds?user_id=${me}`)).body.data).toEqual([])
  })

  it("a feed that fails to load says so in its box; the rest of Account loads", async () => {
    const email = "feeds.broken@example.com"
    await orgWith(suite.app, { [email]: "owner" })
    const page = await suite.newPage()
    await signIn(suite.app, page, email)
    await page.route("**/api/v1/feeds*", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "internal_error", message: "Something went wrong on our side." } })
      })
    )
    await page.goto(`${suite.app.url}/dashboard/account`)
    await page.getByText(/\(this browser\)/).waitFor()
    await page.getByRole("button", { name: "Add a passkey" }).waitFor()
    const feed = box(page, "Your calendar feed")
    await feed.getByRole("alert").getByText("Something went wrong on our side.").waitFor()
    expect(await page.getByRole("alert").count()).toBe(1)
    expect(await feed.getByRole("button", { name: "Make a calendar feed" }).count()).toBe(0)
    // Back on its feet: Try again loads it.
    await page.unroute("**/api/v1/feeds*")
    await feed.getByRole("button", { name: "Try again" }).click()
    await feed.getByText("No calendar feed yet.").waitFor()
    expect(await page.getByRole("alert").count()).toBe(0)
  })
})

describe("an offering's calendar feed", () => {
  it("an owner makes it on the offering's page: it lists that offering's times whoever teaches", async () => {
    const email = "feeds.offering@example.com"
    const org = await orgWith(suite.app, { [email]: "owner" })
    const { offering, time } = await classWithTime(org, "Spin", "2040-01-12T17:00:00.000Z", null)
    await classWithTime(org, "Row", "2040-01-12T18:00:00.000Z", null)
    const page = await suite.newPage()
    await signIn(suite.app, page, email)
    await page.goto(`${suite.app.url}/dashboard/offerings/${offering.id}`)
    await page.getByRole("heading", { name: "Spin", level: 1 }).waitFor()
    const feed = box(page, "Calendar feed")
    await feed.getByText(/^The times of Spin, with places booked and left/).waitFor()
    await feed.getByRole("button", { name: "Make a calendar feed" }).click()
    const url = await shownUrl(page, "Calendar feed")
    const host = new URL(url).host
    expect(await eventsAt(url)).toEqual([[`${time.id}@${host}`, "2040-01-12T17:00:00.000Z", "Spin: 0 booked, 8 left"]])
    expect((await org.call("GET", `/feeds?offering_id=${offering.id}`)).body.data).toMatchObject([
      { kind: "offering", offering_id: offering.id, user_id: null }
    ])
    await expectAccessible(page)
    await screenshots(page, "console-feeds-offering")
    await feed.getByRole("button", { name: "Stop this feed" }).click()
    await box(page, "Stop this calendar feed?")
      .getByText(/no longer get the times of Spin/)
      .waitFor()
    await box(page, "Stop this calendar feed?").getByRole("button", { name: "Stop this feed" }).click()
    await feed.getByRole("button", { name: "Make a calendar feed" }).waitFor()
    expect(await status(url)).toBe(404)
  })
})

describe("a staff member", () => {
  it("has their own feed box on Account and none on an offering's page", async () => {
    const email = "feeds.staff@example.com"
    const org = await orgWith(suite.app, { "feeds.boss@example.com": "owner", [email]: "staff" })
    const { offering, time } = await classWithTime(org, "Barre", "2040-01-15T08:00:00.000Z", await memberId(org, email))
    const page = await suite.newPage()
    await signIn(suite.app, page, email)
    await page.goto(`${suite.app.url}/dashboard/account`)
    const feed = box(page, "Your calendar feed")
    await feed.getByRole("button", { name: "Make a calendar feed" }).click()
    const url = await shownUrl(page, "Your calendar feed")
    expect(await eventsAt(url)).toEqual([
      [`${time.id}@${new URL(url).host}`, "2040-01-15T08:00:00.000Z", "Barre: 0 booked, 8 left"]
    ])
    await expectAccessible(page)
    await page.goto(`${suite.app.url}/dashboard/offerings/${offering.id}`)
    await page.getByRole("heading", { name: "Barre", level: 1 }).waitFor()
    await page.getByText("Owners change an offering's details, photo and prices.").waitFor()
    expect(await box(page, "Calendar feed").count()).toBe(0)
    expect(await page.getByRole("button", { name: "Make a calendar feed" }).count()).toBe(0)
    await expectAccessible(page)
    // Over the API too, a staff member makes no offering feed.
    const staffOffering = await page.evaluate(async (id) => {
      const session = await (await fetch("/auth/v1/session")).json()
      const res = await fetch("/api/v1/feeds", {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": session.csrf_token },
        body: JSON.stringify({ kind: "offering", offering_id: id })
      })
      return res.status
    }, offering.id)
    expect(staffOffering).toBe(403)
  })
})
