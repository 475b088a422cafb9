import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, guest, hoursAhead, ok, startPinned } from "../bookings/helpers.ts"
import { handleFromMail, handleOf } from "./helpers.ts"

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app, { timezone: "Europe/Amsterdam" })
})
afterAll(() => app.close())

const get = async (path: string) => {
  const res = await fetch(`${app.url}${path}`, { redirect: "manual" })
  return {
    status: res.status,
    html: await res.text(),
    type: res.headers.get("content-type"),
    location: res.headers.get("location")
  }
}
const post = async (path: string, form: Record<string, string> = {}) => {
  const res = await fetch(`${app.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString()
  })
  return { status: res.status, html: await res.text(), location: res.headers.get("location") }
}

describe("the guest page /b/{handle}", () => {
  it("renders the booking in the org's zone with its actions, no script and no secret, and 404s any other handle", async () => {
    const { offering, session } = await org.classWithSession(
      { name: "Sunset <paddle>", capacity: 6, location: "Pier 3", lat: 52.1, lon: 4.3, price_cents: 0 },
      96
    )
    const email = `page-${Date.now()}@example.com`
    const b = await org.booked({
      offering_id: offering.id,
      session_id: session.id,
      customer: { email, name: "Kim" },
      notes: "secret staff note"
    })
    const handle = await handleFromMail(app, email)
    const page = await get(`/b/${handle}`)
    expect(page.status).toBe(200)
    expect(page.type).toBe("text/html; charset=utf-8")
    expect(page.html).toContain("<title>Sunset &#60;paddle&#62;</title>")
    expect(page.html).toContain(`datetime="${b.starts_at}"`)
    expect(page.html).toContain("(Europe/Amsterdam time)")
    expect(page.html).toContain("https://www.openstreetmap.org/?mlat=52.1&#38;mlon=4.3")
    expect(page.html).toContain(`href="/b/${handle}/cancel"`)
    expect(page.html).toContain(`href="/b/${handle}/move"`)
    expect(page.html).toContain(`href="/b/${handle}/calendar.ics"`)
    expect(page.html).not.toMatch(/<script|secret staff note/)
    expect((await get(`/b/${"z".repeat(24)}`)).status).toBe(404)
    expect((await get(`/b/%E0%A4%A`)).status).toBe(404)
    expect((await get(`/b/${handle}/nothing`)).status).toBe(404)
  })

  it("cancels through the confirmation step and shows the cancelled booking", async () => {
    const { offering, session } = await org.classWithSession({ name: "Paddle", capacity: 6 }, 120)
    const b = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("pc") })
    const handle = await handleOf(app, b.id)
    const confirm = await get(`/b/${handle}/cancel`)
    expect(confirm.html).toContain("Nothing was paid online")
    expect(confirm.html).toContain(`<form method="post" action="/b/${handle}/cancel">`)
    const done = await post(`/b/${handle}/cancel`)
    expect(done).toMatchObject({ status: 303, location: `/b/${handle}?done=cancelled` })
    const after = await get(done.location!)
    expect(after.html).toContain("Your booking is cancelled")
    expect(after.html).toContain(">Cancelled<")
    expect(after.html).not.toContain(`href="/b/${handle}/cancel"`)
    expect(ok(await org.get(b.id))).toMatchObject({ status: "cancelled", cancel_reason: "guest" })
    const again = await post(`/b/${handle}/cancel`)
    expect(again.status).toBe(409)
    expect(again.html).toContain(`role="alert"`)
  })

  it("moves to a time picked from the list, and says so when the choice is not valid", async () => {
    const { offering, session } = await org.classWithSession({ name: "Row", capacity: 6 }, 140)
    const other = await org.session(offering.id, hoursAhead(await org.now(), 160))
    const b = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("pm") })
    const handle = await handleOf(app, b.id)
    const picker = await get(`/b/${handle}/move`)
    expect(picker.html).toContain(`value="session:${other.id}"`)
    expect(picker.html).not.toContain(`value="session:${session.id}"`)
    const bad = await post(`/b/${handle}/move`, { to: "session:not-a-uuid" })
    expect(bad.status).toBe(400)
    expect(bad.html).toContain("Choose one of the times.")
    const done = await post(`/b/${handle}/move`, { to: `session:${other.id}` })
    expect(done).toMatchObject({ status: 303, location: `/b/${handle}?done=moved` })
    expect(ok(await org.get(b.id)).session_id).toBe(other.id)
  })

  it("sends a message from the page and shows the thread; an empty one is refused with the reason", async () => {
    const { offering, session } = await org.classWithSession({ name: "Swim", capacity: 6 }, 180)
    const b = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("pmsg") })
    const handle = await handleOf(app, b.id)
    const empty = await post(`/b/${handle}/messages`, { body: "  " })
    expect(empty.status).toBe(400)
    expect(empty.html).toContain("Write a message first.")
    const sent = await post(`/b/${handle}/messages`, { body: "Is there parking? <b>" })
    expect(sent.status).toBe(303)
    const page = await get(`/b/${handle}`)
    expect(page.html).toContain("Is there parking? &#60;b&#62;")
    expect(ok(await org.call("GET", `/messages?booking_id=${b.id}`)).data[0]).toMatchObject({
      channel: "page",
      direction: "inbound"
    })
  })

  it("serves the booking as an .ics event", async () => {
    const { offering, session } = await org.classWithSession(
      { name: "Kayak, long; tour", capacity: 6, location: "Harbour" },
      200
    )
    const b = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("ics") })
    const res = await fetch(`${app.url}/b/${await handleOf(app, b.id)}/calendar.ics`)
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8")
    const text = await res.text()
    const start = b.starts_at.replace(/[-:]/g, "").replace(/\.\d{3}/, "")
    expect(text).toContain(`DTSTART:${start}`)
    expect(text).toContain("SUMMARY:Kayak\\, long\\; tour")
    expect(text).toContain("STATUS:CONFIRMED")
    expect(text.split("\r\n").every((l) => Buffer.byteLength(l) <= 75)).toBe(true)
  })
})

describe("the waiver page /w/{token}", () => {
  it("shows the text, collects signatures with name and acceptance until every one is in", async () => {
    ok(await org.call("PUT", "/waiver", { text: "I ride at my own risk.\nNo refunds for weather." }))
    const { offering, session } = await org.classWithSession({ name: "Surf", capacity: 6, waiver_required: true }, 220)
    const email = `w-${Date.now()}@example.com`
    await org.booked({
      offering_id: offering.id,
      session_id: session.id,
      quantity: 2,
      customer: { email, name: "Lee" }
    })
    const mail = (await app.admin("GET", `/mail?to=${encodeURIComponent(email)}`)).body.data[0]
    const link = (mail.links as string[]).find((l) => l.includes("/w/"))!
    const path = new URL(link).pathname
    const first = await get(path)
    expect(first.html).toContain("I ride at my own risk.<br>No refunds for weather.")
    expect(first.html).toContain("0 of 2 signed.")
    const noAccept = await post(path, { name: "Lee" })
    expect(noAccept.status).toBe(400)
    expect(noAccept.html).toContain("Tick the box")
    expect((await post(path, { name: "Lee", accept: "yes" })).status).toBe(303)
    expect((await post(path, { name: "Sam", accept: "yes" })).status).toBe(303)
    const done = await get(path)
    expect(done.html).toContain("2 of 2 signed.")
    expect(done.html).toContain("Every signature is in.")
    expect(done.html).not.toContain("<form")
    const extra = await post(path, { name: "Max", accept: "yes" })
    expect(extra.status).toBe(409)
    expect((await get(`/w/${"q".repeat(20)}`)).status).toBe(404)
  })
})
