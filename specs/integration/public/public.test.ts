import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, type TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, expectError, guest, ok, startPinned } from "../bookings/helpers.ts"

let app: TestApp
let org: BookingsOrg
let pk: string
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
  const made = ok(await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "publishable", name: "site" }), 201)
  expect(made.key).toMatch(/^pk_live_/)
  expect(made.kind).toBe("publishable")
  pk = made.key
})
afterAll(() => app.close())

const pub = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  app.call(pk, method, `/api/v1/public${path}`, body, headers)

describe("publishable keys and the public surface", () => {
  it("a publishable key reaches only /api/v1/public; secret keys are refused nowhere they were accepted", async () => {
    expectError(await app.call(pk, "GET", "/api/v1/offerings"), 401, "unauthorized")
    expectError(await app.call(pk, "GET", "/api/v1/bookings"), 401, "unauthorized")
    const mcp = await fetch(`${app.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${pk}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream"
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
    })
    expect(mcp.status).toBe(401)
    expect((await org.call("GET", "/offerings")).status).toBe(200)
    const owned = ok(await org.call("POST", "/api_keys", { kind: "publishable" }), 201)
    expect(owned.key).toMatch(/^pk_live_/)
  })

  it("shows active offerings with public fields, their times, and books as the guest with source widget and says where the page was mailed", async () => {
    const { offering, session } = await org.classWithSession({
      name: "Open class",
      capacity: 4,
      metadata: { internal: "x" }
    })
    const paused = await org.classWithSession({ name: "Paused" })
    ok(await org.call("PATCH", `/offerings/${paused.offering.id}`, { active: false }))
    const listed = ok(await pub("GET", "/offerings")).data
    expect(listed.map((o: { name: string }) => o.name)).toContain("Open class")
    expect(listed.map((o: { name: string }) => o.name)).not.toContain("Paused")
    expect(listed[0]).not.toHaveProperty("org_id")
    expect(listed[0]).not.toHaveProperty("metadata")
    expectError(await pub("GET", `/offerings/${paused.offering.id}`), 404, "not_found")
    expect(ok(await pub("GET", "/org"))).toMatchObject({ currency: "EUR", currency_minor_units: 100 })
    const times = ok(await pub("GET", `/offerings/${offering.id}/availability`))
    expect(times.data.some((t: { session_id: string }) => t.session_id === session.id)).toBe(true)

    const booked = ok(
      await pub("POST", "/bookings", {
        offering_id: offering.id,
        session_id: session.id,
        quantity: 2,
        customer: guest("pub1")
      }),
      201
    )
    expect(booked).toMatchObject({ status: "confirmed", quantity: 2, checkout_url: null })
    const [{ handle, source }] = await sql(
      app,
      (s) => s<{ handle: string; source: string }>`select handle, source from bookings where id = ${booked.id}`
    )
    expect(source).toBe("widget")
    expect(booked.mailed_to).toBe("g…@example.com")
    expect(JSON.stringify(booked)).not.toContain(handle)
    expect(
      (
        await pub("POST", "/bookings", {
          offering_id: offering.id,
          session_id: session.id,
          customer: guest("pub2"),
          metadata: { a: 1 }
        })
      ).status
    ).toBe(400)

    const paid = await org.classWithSession({ price_cents: 1500 })
    const held = ok(
      await pub("POST", "/bookings", {
        offering_id: paid.offering.id,
        session_id: paid.session.id,
        customer: guest("pub3")
      }),
      201
    )
    expect(held.status).toBe("held")
    expect(held.checkout_url).toMatch(/\/pay\/cs_sandbox_/)

    const other = await bookingsOrg(app)
    const theirs = await other.classWithSession({})
    expectError(await pub("GET", `/offerings/${theirs.offering.id}`), 404, "not_found")
    expectError(
      await pub("POST", "/bookings", {
        offering_id: theirs.offering.id,
        session_id: theirs.session.id,
        customer: guest("x")
      }),
      404,
      "not_found"
    )
  })

  it("never gives whoever books the guest's handle or page: publishable key, secret key, MCP public_book", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 10 })
    const body = (n: string) => ({
      offering_id: offering.id,
      session_id: session.id,
      customer: { email: `${n}.${offering.id.slice(0, 6)}@example.com`, name: "Guest" }
    })
    const handleOf = async (id: string) =>
      (await sql(app, (s) => s<{ handle: string }>`select handle from bookings where id = ${id}`))[0].handle
    const mcp = await fetch(`${app.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${org.key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream"
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "public_book", arguments: body("mcp") }
      })
    })
    const viaMcp = JSON.parse((await mcp.json()).result.content[0].text)
    const answers = [
      ok(await pub("POST", "/bookings", body("publishable")), 201),
      ok(await org.call("POST", "/public/bookings", body("secret")), 201),
      viaMcp,
      ok(await org.call("POST", "/bookings", body("api")), 201)
    ]
    for (const answer of answers) {
      const text = JSON.stringify(answer)
      expect(text).not.toContain(await handleOf(answer.id))
      expect(text).not.toMatch(/\/b\/|page_url|handle/)
    }
    expect(answers.slice(0, 3).map((a) => a.mailed_to)).toEqual(["p…@example.com", "s…@example.com", "m…@example.com"])
  })

  it("answers web pages of the org's allowed origins (CORS) and refuses others", async () => {
    const pre = await fetch(`${app.url}/api/v1/public/offerings`, {
      method: "OPTIONS",
      headers: { origin: "https://shop.example.com", "access-control-request-method": "GET" }
    })
    expect(pre.status).toBe(204)
    expect(pre.headers.get("access-control-allow-headers")).toContain("authorization")
    expectError(await pub("GET", "/offerings", undefined, { origin: "https://shop.example.com" }), 403, "forbidden")
    ok(await org.call("PATCH", "/org", { allowed_origins: ["https://Shop.example.com"] }))
    const allowed = await pub("GET", "/offerings", undefined, { origin: "https://shop.example.com" })
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://shop.example.com")
    const refused = await pub("GET", "/offerings", undefined, { origin: "https://evil.example" })
    expect(refused.status).toBe(403)
    expect(refused.headers.get("access-control-allow-origin")).toBeNull()
    expect((await org.call("PATCH", "/org", { allowed_origins: ["https://shop.example.com/path"] })).status).toBe(400)
  })
})

describe("the widget's price and waitlist on the public surface", () => {
  it("quotes a booking as the guest types: party size, a promo code, a gift card; refusals carry the code's reason", async () => {
    const { offering } = await org.classWithSession({ name: "Quoted", price_cents: 2000, capacity: 8 })
    expect(ok(await pub("POST", "/quote", { offering_id: offering.id, quantity: 3 }))).toEqual({
      price_cents: 6000,
      discount_cents: 0,
      total_cents: 6000,
      gift_cents: 0,
      due_cents: 6000,
      due_at_start_cents: 0,
      currency: "EUR"
    })
    ok(await org.call("POST", "/promo_codes", { code: "SPRING10", percent_off: 10 }), 201)
    const card = ok(await org.call("POST", "/gift_cards", { amount_cents: 1000 }), 201)
    expect(
      ok(
        await pub("POST", "/quote", {
          offering_id: offering.id,
          quantity: 3,
          promo_code: "spring10",
          gift_card_code: card.code
        })
      )
    ).toMatchObject({ price_cents: 6000, discount_cents: 600, total_cents: 5400, gift_cents: 1000, due_cents: 4400 })
    expect((await pub("POST", "/quote", { offering_id: offering.id, promo_code: "NOPE" })).status).toBe(400)
    expectError(await pub("POST", "/quote", { offering_id: offering.id, quantity: 100 }), 400, "invalid_quantity")
    expectError(await pub("POST", "/quote", { offering_id: offering.id, periods: 2 }), 400, "invalid_periods")
    expectError(await pub("POST", "/quote", { offering_id: crypto.randomUUID() }), 404, "not_found")
  })

  it("joins the waitlist of a full time without showing the entry's ids; a time with room is refused", async () => {
    const { offering, session } = await org.classWithSession({ name: "Full", capacity: 1, waitlist_enabled: true })
    ok(
      await pub("POST", "/bookings", { offering_id: offering.id, session_id: session.id, customer: guest("first") }),
      201
    )
    const joined = ok(await pub("POST", "/waitlist", { session_id: session.id, customer: guest("second") }), 201)
    expect(joined).toEqual({ starts_at: session.starts_at, places: 1, created_at: expect.any(String) })
    expect(ok(await org.call("GET", `/waitlist?session_id=${session.id}`)).data).toHaveLength(1)
    const open = await org.classWithSession({ name: "Open", capacity: 5, waitlist_enabled: true })
    expect((await pub("POST", "/waitlist", { session_id: open.session.id, customer: guest("third") })).status).toBe(409)
  })
})

describe("GET /admin/v1/mail", () => {
  it("shows mail sent to an address, newest first, as it reads, with the links it carries", async () => {
    const { offering, session } = await org.classWithSession({ name: "Mail class" })
    ok(
      await pub("POST", "/bookings", { offering_id: offering.id, session_id: session.id, customer: guest("mailbox") }),
      201
    )
    const mail = ok(await app.admin("GET", `/mail?to=GUESTMAILBOX@example.com`)).data
    expect(mail.length).toBeGreaterThanOrEqual(1)
    expect(mail[0]).toMatchObject({ to: "guestmailbox@example.com", kind: "booking.confirmed" })
    expect(mail[0].text).toContain("Mail class")
    expect(mail[0].links.some((l: string) => /\/b\/[A-Za-z0-9_-]+$/.test(l))).toBe(true)
    expect((await app.call(org.key, "GET", "/admin/v1/mail?to=x@example.com")).status).toBe(401)
    expect((await app.admin("GET", "/mail")).status).toBe(400)
  })
})
