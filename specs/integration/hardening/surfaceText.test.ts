import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, type TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, ok, startPinned } from "../bookings/helpers.ts"
import { handleFromMail } from "../guest/helpers.ts"

/**
 * Text as REST takes it (no NUL, no lone surrogate, %-encoding that is UTF-8) on every other surface: the checkout
 * pages, the assistant channel, OAuth, the guest's and waiver pages. Each refusal is a 400 in the surface's own shape,
 * never a 500, and changes nothing. And bodies past these surfaces' limits: a 413 that reaches the client.
 */
let app: TestApp
let org: BookingsOrg
let checkout: string
let handle: string
let waiverToken: string
const SLUG = "text-school"
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
  ok(await org.call("PATCH", "/org", { slug: SLUG }))
  ok(await org.call("PUT", "/waiver", { text: "At my own risk." }))
  const priced = await org.classWithSession({ name: "Priced", price_cents: 2500 })
  const held = ok(await org.book({ offering_id: priced.offering.id, session_id: priced.session.id }), 201)
  checkout = new URL(held.checkout_url).pathname.split("/").pop()!
  const free = await org.classWithSession({ name: "Free", waiver_required: true })
  const email = `text-${Date.now()}@example.com`
  const booked = ok(
    await org.book({ offering_id: free.offering.id, session_id: free.session.id, customer: { email, name: "Kim" } }),
    201
  )
  waiverToken = booked.waiver_token
  handle = await handleFromMail(app, email)
})
afterAll(() => app.close())

const FORM = { "content-type": "application/x-www-form-urlencoded" }
const JSON_TYPE = { "content-type": "application/json" }
const MCP = { ...JSON_TYPE, accept: "application/json, text/event-stream" }

const send = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${app.url}${path}`, { method, headers, body, redirect: "manual" })
  const text = await res.text()
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    /* a page */
  }
  return { status: res.status, type: res.headers.get("content-type") ?? "", text, json }
}

/** What a refused request may have changed: nothing. */
const state = async () =>
  (
    await sql(
      app,
      (s) => s<{
        bookings: number
        held: number
        clients: number
        messages: number
        signatures: number
        checkouts: string
      }>`select
    (select count(*)::int from bookings) as bookings, (select count(*)::int from bookings where status = 'held') as held,
    (select count(*)::int from oauth_clients) as clients, (select count(*)::int from messages) as messages,
    (select coalesce(sum(waiver_signed), 0)::int from bookings) as signatures, (select string_agg(status, ',' order by id) from sandbox_checkouts) as checkouts`
    )
  )[0]

const hold = (args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "hold_booking", arguments: args } })

describe("text that is not text, on every surface besides REST", () => {
  it("the checkout pages answer 400 pages for a path or form that is not text", async () => {
    const before = await state()
    for (const [method, path, body] of [
      ["GET", "/pay/%00", undefined],
      ["GET", "/pay/%E0%A4%A", undefined],
      ["GET", "/pay/cs_%ED%A0%80", undefined],
      ["POST", "/pay/%00", "card_number=4242424242424242"],
      ["GET", "/pay/again/%E0%A4%A", undefined],
      ["POST", `/pay/${checkout}`, "card_number=4242%00"],
      ["POST", `/pay/${checkout}`, "card_number=%E0%A4%A"],
      ["POST", `/pay/${checkout}`, "card%ED%A0%80=1"]
    ] as const) {
      const res = await send(method, path, body, FORM)
      expect({ path, body, status: res.status, type: res.type }).toEqual({
        path,
        body,
        status: 400,
        type: "text/html; charset=utf-8"
      })
      expect(res.text).toContain(`role="alert"`)
    }
    expect(await state()).toEqual(before)
  })

  it("the assistant channel refuses arguments that are not text as a tool error, and a slug that is not text with 400", async () => {
    const { offering, session } = await org.classWithSession({ name: "Assisted" })
    const before = await state()
    for (const args of [
      { offering_id: offering.id, session_id: session.id, customer: { name: "A\u0000na", email: "ana@example.com" } },
      { offering_id: offering.id, session_id: session.id, customer: { name: "Ana", email: "ana\u0000@example.com" } },
      {
        offering_id: offering.id,
        session_id: session.id,
        customer: { name: "Ana", email: "ana@example.com" },
        notes: "\ud800"
      }
    ]) {
      const res = await send("POST", `/api/mcp/book/${SLUG}`, hold(args), MCP)
      expect(res.status).toBe(200)
      expect(res.json.result.isError).toBe(true)
      const error = JSON.parse(res.json.result.content[0].text).error
      expect(error.code).toBe("invalid_arguments")
      expect(error.message).toMatch(/^customer\.(name|email): must not contain NUL|^notes: must be valid Unicode/)
    }
    for (const slug of ["%00", "a%00b", "%E0%A4%A", "%ED%A0%80"]) {
      const res = await send(
        "POST",
        `/api/mcp/book/${slug}`,
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
        MCP
      )
      expect({ slug, status: res.status, code: res.json?.error?.code }).toEqual({
        slug,
        status: 400,
        code: "invalid_slug"
      })
    }
    expect(await state()).toEqual(before)
  })

  it("OAuth refuses registrations, authorization requests and token forms that are not text, in its own shapes", async () => {
    const before = await state()
    const register = (text: string) => send("POST", "/oauth/register", text, JSON_TYPE)
    for (const [text, error] of [
      [JSON.stringify({ client_name: "A\u0000", redirect_uris: ["http://127.0.0.1:9/cb"] }), "invalid_client_metadata"],
      ['{"client_name":"A\\ud800","redirect_uris":["http://127.0.0.1:9/cb"]}', "invalid_client_metadata"],
      [JSON.stringify({ redirect_uris: ["http://127.0.0.1:9/cb\u0000"] }), "invalid_redirect_uri"],
      [JSON.stringify({ redirect_uris: ["http://127.0.0.1:9/cb"], scope: "a\u0000" }), "invalid_client_metadata"]
    ] as const) {
      const res = await register(text)
      expect({ text, status: res.status, error: res.json?.error }).toEqual({ text, status: 400, error })
    }
    for (const query of [
      "client_id=a%00b",
      "client_id=%ED%A0%80",
      "client_id=x&state=%E0%A4%A",
      "client_id=x&re%00=1"
    ]) {
      const res = await send("GET", `/oauth/authorize?${query}`)
      expect({ query, status: res.status, type: res.type }).toEqual({
        query,
        status: 400,
        type: "text/html; charset=utf-8"
      })
    }
    const consent = await send("POST", "/oauth/authorize", "client_id=x&api_key=bk_live_%00", FORM)
    expect([consent.status, consent.type]).toEqual([400, "text/html; charset=utf-8"])
    for (const [path, body] of [
      ["/oauth/token", "grant_type=authorization_code&client_id=a%00&code=x"],
      ["/oauth/token", "grant_type=refresh_token&client_id=x&refresh_token=%ED%A0%80"],
      ["/oauth/revoke", "token=x&client_id=a%00"]
    ] as const) {
      const res = await send("POST", path, body, FORM)
      expect({ path, status: res.status, error: res.json?.error }).toEqual({
        path,
        status: 400,
        error: "invalid_request"
      })
    }
    expect(await state()).toEqual(before)
  })

  it("the guest's and waiver pages answer 400 pages for a form that is not text", async () => {
    const before = await state()
    // A link that is not text opens no booking and no waiver: 404, as any other link that opens nothing.
    for (const path of ["/b/%E0%A4%A", "/b/%00", `/b/${handle}%ED%A0%80/cancel`, "/w/%E0%A4%A", "/w/a%00"]) {
      const res = await send("GET", path)
      expect({ path, status: res.status, type: res.type }).toEqual({
        path,
        status: 404,
        type: "text/html; charset=utf-8"
      })
    }
    for (const [path, body] of [
      [`/b/${handle}/messages`, "body=hello%00"],
      [`/b/${handle}/messages`, "body=%ED%A0%80"],
      [`/b/${handle}/move`, "to=session%3A%E0%A4%A"],
      [`/w/${waiverToken}`, "name=Kim%00&accept=yes"]
    ] as const) {
      const res = await send("POST", path, body, FORM)
      expect({ path, body, status: res.status, type: res.type }).toEqual({
        path,
        body,
        status: 400,
        type: "text/html; charset=utf-8"
      })
    }
    expect(await state()).toEqual(before)
  })
})

describe("bodies past their limit, outside REST", () => {
  it("are 413 in the surface's shape, answered on a socket left whole (Connection: close), and change nothing", async () => {
    const before = await state()
    const big = (name: string) => `${name}=${"a".repeat(70 * 1024)}`
    const cases: Array<[string, string, Record<string, string>, "page" | "json"]> = [
      [`/b/${handle}/messages`, big("body"), FORM, "page"],
      [`/b/${handle}/cancel`, big("x"), FORM, "page"],
      [`/w/${waiverToken}`, big("name"), FORM, "page"],
      [`/pay/${checkout}`, big("card_number"), FORM, "page"],
      ["/oauth/authorize", big("client_id"), FORM, "page"],
      ["/oauth/token", big("grant_type"), FORM, "json"],
      ["/oauth/revoke", big("token"), FORM, "json"],
      [
        "/oauth/register",
        JSON.stringify({ redirect_uris: ["http://127.0.0.1:9/cb"], client_name: "a".repeat(70 * 1024) }),
        JSON_TYPE,
        "json"
      ],
      ["/payments/stripe/events", JSON.stringify({ data: "a".repeat(600 * 1024) }), JSON_TYPE, "json"]
    ]
    for (const [path, body, headers, shape] of cases) {
      const res = await fetch(`${app.url}${path}`, { method: "POST", headers, body, redirect: "manual" })
      const text = await res.text()
      expect({ path, status: res.status, connection: res.headers.get("connection") }).toEqual({
        path,
        status: 413,
        connection: "close"
      })
      if (shape === "page") expect(text).toMatch(/<title>(Too much was sent|Cannot connect this app)<\/title>/)
      else expect(Object.keys(JSON.parse(text))).toEqual(expect.arrayContaining(["error"]))
    }
    expect(await state()).toEqual(before)
  })
})
