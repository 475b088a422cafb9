import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, guest, ok, startPinned, type TestApp } from "../bookings/helpers.ts"
import { mcpClient } from "../foundation/fixtures.ts"
import { csv, download, staffKey } from "./helpers.ts"

// The engine clock reads 2040-01-02 12:00 UTC (07:00 in New York).
let app: TestApp
let org: BookingsOrg
let slug: string
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app, { timezone: "America/New_York", currency: "USD" })
  slug = `studio-${randomBytes(4).toString("hex")}`
  ok(await org.call("PATCH", "/org", { slug }))
})
afterAll(() => app.close())

const TRICKY = 'Zoë "Zed" Ångström, Jr\nsecond line'

const BOOKING_HEADER = [
  "id",
  "reference",
  "status",
  "offering_id",
  "offering",
  "session_id",
  "starts_at",
  "ends_at",
  "timezone",
  "quantity",
  "customer_id",
  "customer_name",
  "customer_email",
  "customer_phone",
  "currency",
  "total",
  "discount",
  "promo_code",
  "gift_card",
  "paid",
  "charged_online",
  "refunded",
  "source",
  "created_at",
  "confirmed_at",
  "cancelled_at",
  "checked_in_at",
  "no_show_at",
  "notes"
]

describe("exports (exports.*)", () => {
  let yoga: { id: string }
  let a: { id: string; [k: string]: any }
  let b: { id: string }
  let c: { id: string }
  beforeAll(async () => {
    yoga = await org.offering({ name: "Yoga, café", kind: "class", capacity: 10, price_cents: 1999 })
    const tiny = await org.offering({ name: "Tiny", kind: "class", capacity: 5 })
    const s1 = await org.session(yoga.id, new Date("2040-01-05T15:00:00Z"))
    const s2 = await org.session(yoga.id, new Date("2040-01-06T15:30:00Z"))
    const t1 = await org.session(tiny.id, new Date("2040-01-07T23:00:00Z"))
    a = await org.booked({
      offering_id: yoga.id,
      session_id: s1.id,
      quantity: 2,
      customer: { email: "zoe@example.com", name: TRICKY },
      payment: "paid",
      notes: '=HYPERLINK("http://x")'
    })
    b = await org.booked({ offering_id: yoga.id, session_id: s2.id, customer: guest(2), payment: "unpaid" })
    c = await org.booked({ offering_id: tiny.id, session_id: t1.id, customer: guest(3) })
    ok(await org.act(b.id, "cancel", {}))
  })

  it("bookings.csv: one header line, the list's rows and order, local times in the org's zone, decimals, accents and quotes intact", async () => {
    const file = await csv(app, org.key, "bookings.csv")
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="${slug}-bookings-2040-01-02.csv"`)
    expect(file.header).toEqual(BOOKING_HEADER)
    expect(file.text.split("\r\n")[0]).toBe(`\uFEFF${BOOKING_HEADER.join(",")}`)
    const list = ok(await org.list({ limit: 500 })).data as Array<any>
    expect(file.rows.map((r) => r.id)).toEqual(list.map((x) => x.id))
    expect(file.rows.map((r) => r.id)).toEqual([a.id, b.id, c.id])
    const [first, second, third] = file.rows
    expect(first).toMatchObject({
      reference: a.reference,
      status: "confirmed",
      offering: "Yoga, café",
      starts_at: "2040-01-05 10:00",
      ends_at: "2040-01-05 11:00",
      timezone: "America/New_York",
      quantity: "2",
      customer_name: TRICKY,
      customer_email: "zoe@example.com",
      currency: "USD",
      total: "39.98",
      paid: "39.98",
      created_at: "2040-01-02 07:00",
      confirmed_at: "2040-01-02 07:00",
      cancelled_at: "",
      notes: '\'=HYPERLINK("http://x")'
    })
    expect(second).toMatchObject({
      status: "cancelled",
      starts_at: "2040-01-06 10:30",
      cancelled_at: "2040-01-02 07:00"
    })
    // 23:00 UTC is 18:00 in New York, the same local date.
    expect(third).toMatchObject({ starts_at: "2040-01-07 18:00", total: "0.00", customer_email: "guest3@example.com" })
    // The raw line keeps the name quoted, its quotes doubled and its line end inside the field.
    expect(file.text).toContain('"Zoë ""Zed"" Ångström, Jr\nsecond line"')
  })

  it("bookings.csv takes the list's filters, and resumes after a row's id", async () => {
    const cancelled = await csv(app, org.key, "bookings.csv?status=cancelled")
    expect(cancelled.rows.map((r) => r.id)).toEqual([b.id])
    const yogaOnly = await csv(app, org.key, `bookings.csv?offering_id=${yoga.id}&order=desc`)
    expect(yogaOnly.rows.map((r) => r.id)).toEqual([b.id, a.id])
    const q = await csv(app, org.key, "bookings.csv?q=zoe")
    expect(q.rows.map((r) => r.id)).toEqual([a.id])
    const range = await csv(app, org.key, "bookings.csv?from=2040-01-06T00:00:00Z&to=2040-01-07T00:00:00Z")
    expect(range.rows.map((r) => r.id)).toEqual([b.id])
    expect(range.headers.get("content-disposition")).toBe(
      `attachment; filename="${slug}-bookings-2040-01-05-to-2040-01-06.csv"`
    )
    const after = await csv(app, org.key, `bookings.csv?after=${a.id}`)
    expect(after.rows.map((r) => r.id)).toEqual([b.id, c.id])
    const limited = await csv(app, org.key, "bookings.csv?limit=1")
    expect(limited.rows.map((r) => r.id)).toEqual([a.id])
    // Nothing found: the header alone.
    const none = await csv(app, org.key, "bookings.csv?reference=NOPE")
    expect(none.rows).toEqual([])
    expect(none.header).toEqual(BOOKING_HEADER)
  })

  it("refuses before the file: a bad filter 400 with its param, an unknown cursor 400, staff 403, no key 401", async () => {
    const bad = await download(app, org.key, "bookings.csv?status=nope")
    expect(bad.status).toBe(400)
    expect(bad.headers.get("content-type")).toMatch(/^application\/json/)
    expect(bad.json.error).toMatchObject({ code: "invalid_status", param: "status" })
    const unknown = await download(app, org.key, "bookings.csv?after=00000000-0000-4000-8000-000000000000")
    expect(unknown.json.error.code).toBe("invalid_after")
    expect((await download(app, org.key, "payments.csv?from=2040-01-05&to=2040-01-01")).json.error.code).toBe(
      "invalid_to"
    )
    expect((await download(app, org.key, "guests.csv?limit=0")).json.error).toMatchObject({
      code: "invalid_limit",
      param: "limit"
    })
    const staff = await staffKey(app, org, `staff-${randomBytes(3).toString("hex")}@example.com`)
    for (const path of ["bookings.csv", "payments.csv", "guests.csv"]) {
      const refused = await download(app, staff, path)
      expect(refused.status, path).toBe(403)
      expect(refused.json.error.code).toBe("forbidden")
    }
    expect((await download(app, "sk_nope", "bookings.csv")).status).toBe(401)
  })

  it("another org's export never holds this org's rows", async () => {
    const other = await bookingsOrg(app)
    const theirs = await csv(app, other.key, "bookings.csv")
    expect(theirs.rows).toEqual([])
    expect((await csv(app, other.key, "guests.csv")).rows).toEqual([])
    expect((await csv(app, other.key, "payments.csv")).rows).toEqual([])
    expect((await download(app, other.key, `bookings.csv?after=${a.id}`)).json.error.code).toBe("invalid_after")
    expect(theirs.headers.get("content-disposition")).toMatch(/^attachment; filename="org-[0-9a-f]{8}-bookings-/)
  })

  it("guests.csv: the customers list's rows, with its search", async () => {
    const file = await csv(app, org.key, "guests.csv")
    expect(file.header).toEqual(["id", "name", "email", "phone", "created_at", "updated_at", "timezone"])
    const list = ok(await org.call("GET", "/customers?limit=500")).data as Array<any>
    expect(file.rows.map((r) => r.id)).toEqual(list.map((x) => x.id))
    expect(file.rows.find((r) => r.email === "zoe@example.com")).toMatchObject({
      name: TRICKY,
      created_at: "2040-01-02 07:00",
      timezone: "America/New_York"
    })
    expect((await csv(app, org.key, "guests.csv?q=guest3")).rows.map((r) => r.email)).toEqual(["guest3@example.com"])
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="${slug}-guests-2040-01-02.csv"`)
  })

  it("payments.csv: a row per payment and per refund, in the org's zone and currency, by local dates and kind", async () => {
    const pay = "11111111-1111-4111-8111-111111111111"
    const gift = "22222222-2222-4222-8222-222222222222"
    await sql(
      app,
      (s) =>
        s`insert into payments ${s.insert({
          id: pay,
          org_id: org.id,
          booking_id: a.id,
          checkout_id: "co_1",
          payment_intent_id: `pi_${randomBytes(4).toString("hex")}`,
          amount_cents: 3998,
          currency: "usd",
          created_at: new Date("2040-01-03T03:00:00Z"),
          refund_cents: 1000,
          refund_state: "refunded",
          refund_id: "re_1",
          refunded_at: new Date("2040-01-04T00:30:00Z")
        })}`
    )
    await sql(
      app,
      (s) =>
        s`insert into payments ${s.insert({
          id: gift,
          org_id: org.id,
          booking_id: a.id,
          checkout_id: "co_2",
          payment_intent_id: `pi_${randomBytes(4).toString("hex")}`,
          amount_cents: 500,
          currency: "usd",
          created_at: new Date("2040-01-03T12:00:00Z")
        })}`
    )
    const file = await csv(app, org.key, "payments.csv")
    expect(file.header).toEqual([
      "id",
      "kind",
      "status",
      "at",
      "timezone",
      "currency",
      "amount",
      "booking_id",
      "booking_reference",
      "gift_purchase_id",
      "payment_intent_id",
      "refund_id"
    ])
    expect(file.rows.map((r) => [r.id, r.kind, r.status, r.at, r.currency, r.amount, r.booking_reference])).toEqual([
      [pay, "payment", "paid", "2040-01-02 22:00", "USD", "39.98", a.reference],
      [gift, "payment", "paid", "2040-01-03 07:00", "USD", "5.00", a.reference],
      [pay, "refund", "refunded", "2040-01-03 19:30", "USD", "10.00", a.reference]
    ])
    const day = await csv(app, org.key, "payments.csv?from=2040-01-02&to=2040-01-02")
    expect(day.rows.map((r) => r.amount)).toEqual(["39.98"])
    expect(day.headers.get("content-disposition")).toBe(
      `attachment; filename="${slug}-payments-2040-01-02-to-2040-01-02.csv"`
    )
    expect((await csv(app, org.key, "payments.csv?kind=refund")).rows.map((r) => r.amount)).toEqual(["10.00"])
    expect((await csv(app, org.key, `payments.csv?booking_id=${c.id}`)).rows).toEqual([])
    const after = await csv(app, org.key, `payments.csv?after=payment:${gift}`)
    expect(after.rows.map((r) => `${r.kind}:${r.id}`)).toEqual([`refund:${pay}`])
    expect((await download(app, org.key, `payments.csv?after=refund:${gift}`)).json.error.code).toBe("invalid_after")
  })

  it("as MCP tools: a page of CSV text with next, at most 1,000 rows, the same refusals", async () => {
    const mcp = await mcpClient(app, org.key)
    try {
      const one = await mcp.call("exports_bookings", { limit: 1 })
      expect(one.isError).toBe(false)
      expect(one.structured).toEqual(one.json)
      expect(one.json.rows).toBe(1)
      expect(one.json.next).toBe(a.id)
      const rest = await mcp.call("exports_bookings", { after: one.json.next })
      expect(rest.json).toMatchObject({ rows: 2, next: null })
      expect(rest.json.csv.split("\r\n")[0]).toBe(BOOKING_HEADER.join(","))
      expect(rest.json.csv).toContain(b.id)
      const guests = await mcp.call("exports_guests", { q: "zoe" })
      expect(guests.json.rows).toBe(1)
      const bad = await mcp.call("exports_payments", { kind: "nope" })
      expect(bad.isError).toBe(true)
      expect(bad.json.error.code).toBe("invalid_kind")
    } finally {
      await mcp.close()
    }
  })

  it("is in the OpenAPI document as text/csv, with the lists' parameters and owners only", async () => {
    const doc = (await app.call(null, "GET", "/api/v1/openapi.json")).body
    const op = doc.paths["/api/v1/exports/bookings.csv"].get
    expect(op.operationId).toBe("exports.bookings")
    expect(Object.keys(op.responses["200"].content)).toEqual(["text/csv"])
    expect(op["x-required-role"]).toBe("owner")
    const params = op.parameters.map((p: any) => p.name)
    for (const name of ["from", "to", "status", "offering_id", "customer_id", "session_id", "reference", "q", "order"])
      expect(params).toContain(name)
    expect(doc.paths["/api/v1/exports/payments.csv"].get.operationId).toBe("exports.payments")
    expect(doc.paths["/api/v1/exports/guests.csv"].get.parameters.map((p: any) => p.name).sort()).toEqual([
      "after",
      "limit",
      "q"
    ])
  })
})
