import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { customerRow, eventsOf } from "./helpers.ts"

let app: TestApp
let org: { id: string; key: string }
beforeAll(async () => {
  app = await startApp()
  org = await app.newOrg()
})
afterAll(() => app.close())

/** A confirmed booking row for the customer, written directly: bookings are not this suite's subject. */
const bookingFor = async (customerId: string) => {
  const offering = (await app.call(org.key, "POST", "/api/v1/offerings", { name: "Kayak", kind: "rental" })).body
  const id = randomUUID()
  const starts = new Date(Date.now() + 86400_000)
  await sql(
    app,
    (s) =>
      s`insert into bookings ${s.insert({
        id,
        org_id: org.id,
        offering_id: offering.id,
        customer_id: customerId,
        starts_at: starts,
        ends_at: new Date(starts.getTime() + 3600_000),
        quantity: 1,
        places: 1,
        state: "confirmed",
        machine: JSON.stringify({}),
        status: "confirmed",
        keeps_place: true,
        total_cents: 0,
        reference: id.slice(0, 8),
        handle: id,
        source: "api",
        created_at: new Date()
      })}`
  )
  return id
}

describe("customers.erase", () => {
  it("removes the personal data, keeps the row and its bookings, and emits customer.deleted with the id only", async () => {
    const created = (
      await app.call(org.key, "POST", "/api/v1/customers", {
        email: "erase.me@example.com",
        name: "Erase Me",
        phone: "+31 20 555 0100"
      })
    ).body
    const booking = await bookingFor(created.id)
    const res = await app.call(org.key, "DELETE", `/api/v1/customers/${created.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: created.id, name: null, email: null, phone: null, erased: true })
    expect(await customerRow(app, created.id)).toMatchObject({
      email: null,
      name: null,
      phone: null,
      erased_at: expect.any(Date)
    })
    const kept = await sql(
      app,
      (s) => s<{ customer_id: string }>`select customer_id from bookings where id = ${booking}`
    )
    expect(kept).toEqual([{ customer_id: created.id }])
    expect(await eventsOf(app, org.id, "customer.deleted")).toEqual([{ id: created.id }])
  })

  it("shows an erased customer on get, hides it from list, and answers 404 to update and a second erase", async () => {
    const created = (await app.call(org.key, "POST", "/api/v1/customers", { email: "gone@example.com", name: "Gone" }))
      .body
    await app.call(org.key, "DELETE", `/api/v1/customers/${created.id}`)
    const got = await app.call(org.key, "GET", `/api/v1/customers/${created.id}`)
    expect(got.status).toBe(200)
    expect(got.body).toMatchObject({ id: created.id, name: null, email: null, phone: null, erased: true })
    expect((await app.call(org.key, "PATCH", `/api/v1/customers/${created.id}`, { name: "Back" })).status).toBe(404)
    expect((await app.call(org.key, "DELETE", `/api/v1/customers/${created.id}`)).status).toBe(404)
    const listed = await app.call(org.key, "GET", "/api/v1/customers?limit=500")
    expect(listed.body.data.map((c: { id: string }) => c.id)).not.toContain(created.id)
  })

  it("frees the email: the same guest can come back as a new customer", async () => {
    const first = (await app.call(org.key, "POST", "/api/v1/customers", { email: "again@example.com" })).body
    await app.call(org.key, "DELETE", `/api/v1/customers/${first.id}`)
    const second = await app.call(org.key, "POST", "/api/v1/customers", { email: "again@example.com" })
    expect(second.status).toBe(201)
    expect(second.body.id).not.toBe(first.id)
  })

  it("is served through events.list once settled", async () => {
    const created = (await app.call(org.key, "POST", "/api/v1/customers", { email: "evt@example.com" })).body
    await app.call(org.key, "DELETE", `/api/v1/customers/${created.id}`)
    await app.advance(3)
    const page = await app.call(org.key, "GET", "/api/v1/events?type=customer.deleted&limit=200")
    expect(page.body.data.map((e: { data: unknown }) => e.data)).toContainEqual({ id: created.id })
  })
})

describe("customers.erase and messages", () => {
  it("takes the words of the guest's messages with the rest of their data; the thread keeps its places", async () => {
    const offering = (
      await app.call(org.key, "POST", "/api/v1/offerings", { name: "Yoga", kind: "class", capacity: 4 })
    ).body
    const startsAt = `${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 13)}:00:00.000Z`
    const session = (
      await app.call(org.key, "POST", "/api/v1/sessions", { offering_id: offering.id, starts_at: startsAt })
    ).body.data[0]
    const booking = (
      await app.call(org.key, "POST", "/api/v1/bookings", {
        offering_id: offering.id,
        session_id: session.id,
        customer: { email: "talker@example.com", name: "Talker" }
      })
    ).body
    expect(
      (
        await app.call(org.key, "POST", "/api/v1/messages", {
          booking_id: booking.id,
          body: "Your locker code is 4411."
        })
      ).status
    ).toBe(201)
    const [{ handle }] = await sql(
      app,
      (s) => s<{ handle: string }>`select handle from bookings where id = ${booking.id}`
    )
    expect(
      (await app.call(null, "POST", `/api/v1/guest/${handle}/messages`, { body: "My new number is +31 6 1234 5678" }))
        .status
    ).toBe(201)
    expect((await app.call(org.key, "DELETE", `/api/v1/customers/${booking.customer_id}`)).status).toBe(200)
    const thread = (await app.call(org.key, "GET", `/api/v1/messages?booking_id=${booking.id}`)).body.data as Array<{
      direction: string
      body: string
    }>
    expect(thread.map((m) => [m.direction, m.body])).toEqual([
      ["outbound", ""],
      ["inbound", ""]
    ])
    const stored = await sql(
      app,
      (s) => s<{ n: number }>`select count(*)::int as n from messages where body like '%4411%' or body like '%5678%'`
    )
    expect(stored[0].n).toBe(0)
  })
})
