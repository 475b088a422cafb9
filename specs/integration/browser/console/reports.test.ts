import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { sql } from "../../../support/app.ts"
import { cspViolations, expectAccessible, screenshots } from "../../../support/browser.ts"
import { consoleSuite, orgWith, signIn } from "./helpers.ts"

// The engine clock reads 2040-01-02 12:00 UTC (13:00 in Amsterdam, a Monday): "this month" is January 2040.

const suite = consoleSuite()

/** The rows of the figures table named `caption` (its summary opened first), each a list of cell texts. */
const table = async (page: Page, caption: string) => {
  const details = page.locator("details.figures", { hasText: `${caption}: the figures` })
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator("summary").click()
  return details.evaluate((d) =>
    Array.from(d.querySelectorAll("tbody tr, tfoot tr")).map((tr) =>
      Array.from(tr.querySelectorAll("th, td")).map((c) => c.textContent?.trim() ?? "")
    )
  )
}

const totals = (page: Page) =>
  page
    .locator("dl.totals")
    .evaluate((dl) =>
      Object.fromEntries(
        Array.from(dl.querySelectorAll("div")).map((d) => [d.children[0].textContent, d.children[1].textContent])
      )
    )

describe("Reports", () => {
  it("charts each report for the days picked, with the same figures in tables, by offering and period", async () => {
    const { app } = suite
    const { org, page } = await suite.owner("reports@example.com")
    const csp = cspViolations(page)
    const make = async (body: Record<string, unknown>) => (await org.call("POST", "/offerings", body)).body
    const yoga = await make({ kind: "class", name: "Yoga", capacity: 10, price_cents: 2000 })
    const tiny = await make({ kind: "class", name: "Tiny", capacity: 1, price_cents: 1500, waitlist_enabled: true })
    const time = async (offering: string, at: string) =>
      (await org.call("POST", "/sessions", { offering_id: offering, starts_at: at })).body.data[0].id as string
    const s1 = await time(yoga.id, "2040-01-05T09:00:00Z")
    const s2 = await time(yoga.id, "2040-01-06T09:00:00Z")
    const t1 = await time(tiny.id, "2040-01-05T17:00:00Z")
    const book = async (offering: string, session: string, who: string, quantity = 1) => {
      const res = await org.call("POST", "/bookings", {
        offering_id: offering,
        session_id: session,
        quantity,
        payment: "paid",
        customer: { name: who, email: `${who.toLowerCase()}@example.com` }
      })
      expect(res.status).toBe(201)
      return res.body.id as string
    }
    const a = await book(yoga.id, s1, "Ada", 3)
    const b = await book(yoga.id, s2, "Grace")
    const c = await book(tiny.id, t1, "Edsger")
    expect((await org.call("POST", `/bookings/${b}/cancel`, {})).status).toBe(200)
    for (const n of [4, 5])
      expect(
        (
          await org.call("POST", "/waitlist", {
            session_id: t1,
            customer: { name: `W${n}`, email: `w${n}@example.com` }
          })
        ).status
      ).toBe(201)
    // What online payments, a gift card, a promo code and a refund would have left on the rows, and when each was made.
    const set = (id: string, columns: Record<string, unknown>) =>
      sql(app, (s) => s`update bookings set ${s.update(columns)} where id = ${id}`)
    await set(a, {
      charged_cents: 6000,
      total_cents: 9000,
      paid_cents: 6000,
      gift_cents: 1000,
      discount_cents: 500,
      created_at: new Date("2040-01-02T10:00:00Z")
    })
    await set(b, {
      charged_cents: 2000,
      refund_cents: 2000,
      refunded_at: new Date("2040-01-03T09:00:00Z"),
      created_at: new Date("2040-01-03T08:00:00Z")
    })
    await set(c, {
      charged_cents: 1500,
      no_show_at: new Date("2040-01-05T18:00:00Z"),
      created_at: new Date("2040-01-02T11:00:00Z")
    })
    await sql(
      app,
      (s) => s`update waitlist_entries set end_reason = 'booked', ended_at = now() where org_id = ${org.id}
        and customer_id = (select id from customers where email = 'w5@example.com' and org_id = ${org.id})`
    )

    await page.getByRole("link", { name: "Reports", exact: true }).click()
    await page.getByRole("heading", { name: "Reports", level: 1 }).waitFor()
    await page.getByRole("heading", { name: "Revenue", exact: true }).waitFor()
    await page.getByText("Sun 1 Jan 2040 to Tue 31 Jan 2040, in Europe/Amsterdam time.").waitFor()
    expect(await totals(page)).toEqual({
      Charged: "€95.00",
      Refunded: "€20.00",
      Net: "€75.00",
      "Gift cards": "€10.00",
      "Promo discounts": "€5.00",
      "Deposits still due": "€30.00"
    })
    expect(await table(page, "Revenue by day")).toEqual([
      ["Mon 2 Jan 2040", "2", "€75.00", "€0.00", "€75.00", "€10.00", "€5.00", "€30.00"],
      ["Tue 3 Jan 2040", "1", "€20.00", "€20.00", "€0.00", "€0.00", "€0.00", "€0.00"],
      ["Total", "3", "€95.00", "€20.00", "€75.00", "€10.00", "€5.00", "€30.00"]
    ])
    expect(await table(page, "Occupancy per offering")).toEqual([
      ["Tiny", "1", "1", "1", "100%"],
      ["Yoga", "2", "20", "3", "15%"],
      ["Total", "3", "21", "4", "19%"]
    ])
    expect(await table(page, "Occupancy per hour of day")).toEqual([
      ["10:00", "2", "20", "3", "15%"],
      ["18:00", "1", "1", "1", "100%"],
      ["Total", "3", "21", "4", "19%"]
    ])
    await page.getByText("1 no-show and 1 cancellation of 3 bookings").waitFor()
    expect(await table(page, "Attendance per offering")).toEqual([
      ["Tiny", "1", "0", "1", "0"],
      ["Yoga", "2", "1", "0", "0"],
      ["Total", "3", "1", "1", "0"]
    ])
    expect(await table(page, "Waitlist per offering")).toEqual([
      ["Tiny", "2", "1"],
      ["Total", "2", "1"]
    ])
    // Each chart is drawn (pixels on its canvas) and named for a screen reader.
    const charts = await page.locator(".chart canvas").evaluateAll((list) =>
      list.map((el) => {
        const canvas = el as HTMLCanvasElement
        const pixels = canvas.getContext("2d")?.getImageData(0, 0, canvas.width, canvas.height).data ?? []
        let drawn = 0
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) drawn++
        return {
          role: canvas.getAttribute("role"),
          label: canvas.getAttribute("aria-label"),
          width: canvas.width,
          drawn
        }
      })
    )
    expect(charts).toHaveLength(5)
    for (const chart of charts) {
      expect(chart).toMatchObject({ role: "img" })
      expect(chart.width).toBeGreaterThan(0)
      expect(chart.drawn).toBeGreaterThan(100)
    }
    expect(charts[0].label).toBe("Revenue by day: €95.00 charged, €20.00 refunded, €75.00 net over 3 bookings.")
    await expectAccessible(page)
    await screenshots(page, "console-reports")

    // One offering, by month.
    await page.getByRole("combobox", { name: /^Offering/ }).selectOption({ label: "Yoga" })
    await page.getByRole("combobox", { name: /^Revenue by/ }).selectOption("month")
    await page.getByText("Yoga only.", { exact: false }).waitFor()
    await page.getByRole("heading", { name: "Revenue", exact: true }).waitFor()
    await expect
      .poll(() => table(page, "Revenue by month"))
      .toEqual([
        ["January 2040", "2", "€80.00", "€20.00", "€60.00", "€10.00", "€5.00", "€30.00"],
        ["Total", "2", "€80.00", "€20.00", "€60.00", "€10.00", "€5.00", "€30.00"]
      ])
    expect(await page.getByText("Nobody joined a waitlist in these days.").count()).toBe(1)

    // Days with nothing in them say so; a range backwards is said beside the dates, not asked.
    await page.getByRole("combobox", { name: /^Offering/ }).selectOption({ label: "All offerings" })
    await page.getByLabel("From", { exact: true }).fill("2040-02-01")
    await page.getByLabel("To", { exact: true }).fill("2040-02-29")
    await page.getByText("No bookings were made in these days.").waitFor()
    await page.getByText("No times on the calendar in these days.").waitFor()
    expect(await page.getByRole("combobox", { name: /^Days/ }).inputValue()).toBe("custom")
    await page.getByLabel("To", { exact: true }).fill("2040-01-15")
    await page.getByText("The last day is before the first.").waitFor()
    await page.getByRole("combobox", { name: /^Days/ }).selectOption({ label: "This year" })
    await page.getByText("Sun 1 Jan 2040 to Mon 31 Dec 2040", { exact: false }).waitFor()
    await expectAccessible(page)
    expect(csp).toEqual([])

    // Every screen says a time in the one style, weekday named: the booking list too.
    await page.goto(`${app.url}/dashboard/bookings`)
    await page.getByText("Thu 5 Jan 2040, 10:00").first().waitFor()
  })

  it("is an owner's screen: staff have no Reports in the menu and are told so at its address", async () => {
    const { app } = suite
    await orgWith(app, { "boss@example.com": "owner", "desk@example.com": "staff" })
    const page = await suite.newPage()
    await signIn(app, page, "desk@example.com")
    expect(await page.getByRole("link", { name: "Reports", exact: true }).count()).toBe(0)
    await page.goto(`${app.url}/dashboard/reports`)
    await page.getByRole("heading", { name: "Owners only" }).waitFor()
  })
})
