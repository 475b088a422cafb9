import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, guest, ok, startPinned } from "../bookings/helpers.ts"

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app, { timezone: "Europe/Amsterdam" })
})
afterAll(() => app.close())

const path = (link: string) => {
  const u = new URL(link)
  return `${u.pathname}${u.search}`
}

describe("a waiting guest's links", () => {
  it("the opening mail links to the engine's booking page (the widget for that offering) and to leaving the waitlist", async () => {
    const { offering, session } = await org.classWithSession({
      name: "Sold out yoga",
      capacity: 1,
      waitlist_enabled: true
    })
    const first = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("holder") })
    const email = `wait-${Date.now()}@example.com`
    ok(await org.call("POST", "/waitlist", { session_id: session.id, customer: { email, name: "Wen" } }), 201)
    ok(await org.act(first.id, "cancel"))
    let links: string[] = []
    for (let i = 0; i < 20 && links.length === 0; i++) {
      await app.advance(2)
      const mail = (await app.admin("GET", `/mail?to=${encodeURIComponent(email)}`)).body.data.find(
        (m: { kind: string }) => m.kind === "waitlist.opened"
      )
      links = mail?.links ?? []
    }
    const book = links.find((l) => l.includes("/book?"))!
    const leave = links.find((l) => l.includes("/wl/"))!
    expect(book).toContain(`offering_id=${offering.id}`)

    const page = await (await fetch(`${app.url}${path(book)}`)).text()
    expect(page).toContain(`<script src="/widget.js" data-key="pk_live_`)
    expect(page).toContain(`data-offering="${offering.id}"`)
    const again = await (await fetch(`${app.url}${path(book)}`)).text()
    expect(again.match(/pk_live_[A-Za-z0-9_-]+/)![0]).toBe(page.match(/pk_live_[A-Za-z0-9_-]+/)![0])
    expect((await fetch(`${app.url}/book?offering_id=${crypto.randomUUID()}`)).status).toBe(404)
    expect((await fetch(`${app.url}/book?offering_id=x`)).status).toBe(404)

    const view = await (await fetch(`${app.url}${path(leave)}`)).text()
    expect(view).toContain("Leave the waitlist")
    const left = await fetch(`${app.url}${path(leave)}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: ""
    })
    expect(left.status).toBe(200)
    expect(await left.text()).toContain("You have left the waitlist")
    const entries = ok(await org.call("GET", `/waitlist?session_id=${session.id}`)).data
    expect(entries).toEqual([])
    expect((await fetch(`${app.url}/wl/${"n".repeat(24)}`)).status).toBe(404)
  })
})
