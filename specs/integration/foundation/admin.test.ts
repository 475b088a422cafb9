import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ADMIN_TOKEN, startApp, type TestApp } from "../../support/app.ts"
import { allEvents, chars, expectError, UNKNOWN_ID } from "./fixtures.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

const createOrg = (body: unknown) => app.admin("POST", "/orgs", body)
const ok = { name: "Surf school", timezone: "Europe/Lisbon", currency: "EUR" }

describe("admin authentication", () => {
  it.each([
    ["no token", null, {}],
    ["a wrong token", "wrong-token-0123456789", {}],
    ["an org's API key", "", {}],
    ["the token under another scheme", null, { authorization: `Token: ${ADMIN_TOKEN}` }]
  ])("refuses %s with 401 unauthorized", async (_, token, headers) => {
    const key = token === "" ? (await app.newOrg()).key : token
    expectError(await app.call(key, "GET", "/admin/v1/clock", undefined, headers), 401, "unauthorized")
    expectError(await app.call(key, "POST", "/admin/v1/orgs", ok, headers), 401, "unauthorized")
  })

  it("is switched off when ADMIN_TOKEN is unset: every call is 401", async () => {
    const off = await startApp({ adminToken: Option.none() })
    try {
      for (const [method, path, body] of [
        ["GET", "/admin/v1/clock", undefined],
        ["POST", "/admin/v1/clock", { advance_seconds: 1 }],
        ["POST", "/admin/v1/orgs", ok],
        ["POST", `/admin/v1/orgs/${UNKNOWN_ID}/api_keys`, undefined],
        ["POST", `/admin/v1/orgs/${UNKNOWN_ID}/members`, { email: "a@b.test", role: "owner" }],
        ["DELETE", `/admin/v1/api_keys/${UNKNOWN_ID}`, undefined]
      ] as const) {
        expectError(await off.call(ADMIN_TOKEN, method, path, body), 401, "unauthorized")
        expectError(await off.call(null, method, path, body), 401, "unauthorized")
        expectError(await off.call("", method, path, body), 401, "unauthorized")
      }
    } finally {
      await off.close()
    }
  })
})

describe("admin orgs", () => {
  it("creates an org with a working API key", async () => {
    const now = (await app.admin("GET", "/clock")).body.now
    const res = await createOrg(ok)
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      org: {
        id: expect.any(String),
        name: "Surf school",
        timezone: "Europe/Lisbon",
        currency: "EUR",
        currency_minor_units: 100,
        plan: "free",
        locale: "en",
        mail_templates: {},
        payments: "online",
        auto_acknowledge: false,
        reply_to_domain: null,
        allowed_origins: [],
        guest_cancel_hours: 24,
        max_guest_holds: 3,
        max_held_percent: 50,
        slug: null,
        phone: null,
        preferred_channel: "email",
        text_kinds: [],
        reminder_hours: 24,
        created_at: now,
        updated_at: null
      },
      api_key: {
        id: expect.any(String),
        key: expect.stringMatching(/^bk_live_/),
        prefix: expect.stringMatching(/^bk_live_/),
        name: null,
        user_id: null,
        role: "owner",
        kind: "secret",
        created_at: now,
        revoked_at: null
      }
    })
    expect(res.body.api_key.prefix).toBe(res.body.api_key.key.slice(0, 12))
    const org = await app.call(res.body.api_key.key, "GET", "/api/v1/org")
    expect(org.status).toBe(200)
    expect(org.body).toEqual(res.body.org)
  })

  it.each([
    ["JPY has no minor units", { currency: "JPY" }, { currency: "JPY", currency_minor_units: 1 }],
    [
      "USD has cents",
      { currency: "USD", timezone: "America/New_York" },
      { currency: "USD", currency_minor_units: 100, timezone: "America/New_York" }
    ],
    ["UTC is a zone", { timezone: "UTC" }, { timezone: "UTC" }],
    ["a zone is stored in its canonical spelling", { timezone: "europe/amsterdam" }, { timezone: "Europe/Amsterdam" }],
    ["plan is kept", { plan: "growth" }, { plan: "growth" }]
  ])("accepts an org where %s", async (_, over, expected) => {
    const res = await createOrg({ ...ok, ...over })
    expect(res.status).toBe(201)
    expect(res.body.org).toMatchObject(expected)
  })

  it.each([
    ["timezone", "Mars/Olympus_Mons"],
    ["timezone", "CEST"],
    ["timezone", ""],
    ["timezone", "+02:00"],
    ["timezone", 1],
    ["currency", "eur"],
    ["currency", "EURO"],
    ["currency", "ABC"],
    ["currency", ""],
    ["currency", null],
    ["name", ""],
    ["name", chars(121)],
    ["plan", "enterprise"]
  ])("refuses %s %j with 400 invalid_<field>", async (field, value) => {
    expectError(await createOrg({ ...ok, [field]: value }), 400, `invalid_${field}`)
  })

  it("refuses a missing field and an unknown field", async () => {
    expectError(await createOrg({ name: "X", currency: "EUR" }), 400, "invalid_timezone")
    expectError(await createOrg({ ...ok, country: "PT" }), 400, "unknown_field")
    expectError(await app.call(ADMIN_TOKEN, "POST", "/admin/v1/orgs", "{"), 400, "invalid_json")
  })

  it("issues more keys for an org and refuses an unknown org", async () => {
    const org = await app.newOrg()
    const res = await app.admin("POST", `/orgs/${org.id}/api_keys`)
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      id: expect.any(String),
      key: expect.stringMatching(/^bk_live_/),
      role: "owner",
      revoked_at: null
    })
    expect(res.body.key).not.toBe(org.key)
    expect((await app.call(res.body.key, "GET", "/api/v1/org")).body.id).toBe(org.id)
    expectError(await app.admin("POST", `/orgs/${UNKNOWN_ID}/api_keys`), 404, "not_found")
    expectError(await app.admin("POST", "/orgs/not-a-uuid/api_keys"), 400, "invalid_org_id")
  })

  it("revokes a key once: a second revoke keeps the first time, an unknown key is 404", async () => {
    const org = await app.newOrg()
    const first = await app.admin("DELETE", `/api_keys/${org.keyId}`)
    expect(first.status).toBe(200)
    await app.advance(10)
    const second = await app.admin("DELETE", `/api_keys/${org.keyId}`)
    expect(second.body).toEqual(first.body)
    expectError(await app.admin("DELETE", `/api_keys/${UNKNOWN_ID}`), 404, "not_found")
    expectError(await app.admin("DELETE", "/api_keys/123"), 400, "invalid_id")
  })
})

describe("admin members", () => {
  it("adds members to the team, each a member.joined event", async () => {
    const org = await app.newOrg()
    const owner = await app.admin("POST", `/orgs/${org.id}/members`, {
      email: "Ana@Surf.test",
      name: "Ana",
      role: "owner"
    })
    expect(owner.status).toBe(201)
    expect(owner.body).toEqual({ user_id: expect.any(String), email: "ana@surf.test", name: "Ana", role: "owner" })
    const staff = await app.admin("POST", `/orgs/${org.id}/members`, { email: "bo@surf.test", role: "staff" })
    expect(staff.body).toEqual({ user_id: expect.any(String), email: "bo@surf.test", name: null, role: "staff" })
    const team = await app.call(org.key, "GET", "/api/v1/team")
    expect(team.body).toEqual({ data: [owner.body, staff.body], invites: [] })
    const events = await allEvents(app, org.key, "member.joined")
    expect(events.map((e) => e.data)).toEqual([
      { user_id: owner.body.user_id, email: "ana@surf.test", role: "owner", invite_id: null },
      { user_id: staff.body.user_id, email: "bo@surf.test", role: "staff", invite_id: null }
    ])
  })

  it("refuses the same email twice in one org (409 member_exists), but not in another org", async () => {
    const a = await app.newOrg()
    const b = await app.newOrg()
    expect((await app.admin("POST", `/orgs/${a.id}/members`, { email: "sam@x.test", role: "staff" })).status).toBe(201)
    expectError(
      await app.admin("POST", `/orgs/${a.id}/members`, { email: "SAM@x.test", role: "owner" }),
      409,
      "member_exists"
    )
    expect((await app.admin("POST", `/orgs/${b.id}/members`, { email: "sam@x.test", role: "staff" })).status).toBe(201)
    expect((await app.call(a.key, "GET", "/api/v1/team")).body.data).toHaveLength(1)
  })

  it.each([
    ["email", { email: "not-an-email", role: "staff" }],
    ["email", { email: "a b@x.test", role: "staff" }],
    ["email", { email: "a\u0000@x.test", role: "staff" }],
    ["role", { email: "a@x.test", role: "admin" }],
    ["role", { email: "a@x.test" }],
    ["name", { email: "a@x.test", role: "staff", name: "" }]
  ])("refuses a bad %s with 400 invalid_<field>", async (field, body) => {
    const org = await app.newOrg()
    expectError(await app.admin("POST", `/orgs/${org.id}/members`, body), 400, `invalid_${field}`)
    expect((await app.call(org.key, "GET", "/api/v1/team")).body.data).toEqual([])
  })

  it("refuses an unknown org with 404", async () => {
    expectError(
      await app.admin("POST", `/orgs/${UNKNOWN_ID}/members`, { email: "a@x.test", role: "staff" }),
      404,
      "not_found"
    )
  })
})

describe("admin clock (CLOCK=test)", () => {
  it("reads and advances the engine clock, which stamps what happens", async () => {
    const before = await app.admin("GET", "/clock")
    expect(before.status).toBe(200)
    const start = Date.parse(before.body.now)
    const moved = await app.admin("POST", "/clock", { advance_seconds: 3600 })
    expect(moved.status).toBe(200)
    expect(Date.parse(moved.body.now) - start).toBe(3600_000)
    expect((await app.admin("GET", "/clock")).body.now).toBe(moved.body.now)
    const res = await createOrg(ok)
    expect(res.body.org.created_at).toBe(moved.body.now)
  })

  it("does not move on its own", async () => {
    const a = (await app.admin("GET", "/clock")).body.now
    await new Promise((r) => setTimeout(r, 20))
    expect((await app.admin("GET", "/clock")).body.now).toBe(a)
  })

  it.each([[-1], [1.5], ["10"], [400 * 86400 + 1]])("refuses advance_seconds %j with 400", async (value) => {
    expectError(await app.admin("POST", "/clock", { advance_seconds: value }), 400, "invalid_advance_seconds")
  })

  it("refuses to move the system clock (400 clock_not_test)", async () => {
    const system = await startApp({ clock: "system" })
    try {
      expect((await system.admin("GET", "/clock")).status).toBe(200)
      expectError(await system.admin("POST", "/clock", { advance_seconds: 1 }), 400, "clock_not_test")
    } finally {
      await system.close()
    }
  })
})

describe("org and waiver through the API", () => {
  it("updates the org's name, time zone and currency, each an org.updated event", async () => {
    const org = await app.newOrg()
    const res = await app.call(org.key, "PATCH", "/api/v1/org", {
      name: "New name",
      timezone: "Asia/Tokyo",
      currency: "JPY"
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: org.id,
      name: "New name",
      timezone: "Asia/Tokyo",
      currency: "JPY",
      currency_minor_units: 1
    })
    expect((await app.call(org.key, "GET", "/api/v1/org")).body).toEqual(res.body)
    const events = await allEvents(app, org.key, "org.updated")
    expect(events.map((e) => e.data)).toEqual([res.body])
  })

  it.each([
    ["timezone", "Not/A_Zone"],
    ["currency", "XYZ1"],
    ["name", ""]
  ])("refuses a bad %s with 400 and writes no event", async (field, value) => {
    const org = await app.newOrg()
    const before = (await app.call(org.key, "GET", "/api/v1/org")).body
    expectError(await app.call(org.key, "PATCH", "/api/v1/org", { [field]: value }), 400, `invalid_${field}`)
    expectError(await app.call(org.key, "PATCH", "/api/v1/org", { plan: "scale" }), 400, "unknown_field")
    expect((await app.call(org.key, "GET", "/api/v1/org")).body).toEqual(before)
    expect(await allEvents(app, org.key, "org.updated")).toEqual([])
  })

  it("saves waiver text as new versions and removes it with null", async () => {
    const org = await app.newOrg()
    expect((await app.call(org.key, "GET", "/api/v1/waiver")).body).toEqual({ text: null, version: 0 })
    expect((await app.call(org.key, "PUT", "/api/v1/waiver", { text: "v1" })).body).toEqual({ text: "v1", version: 1 })
    expect((await app.call(org.key, "PUT", "/api/v1/waiver", { text: "v2" })).body).toEqual({ text: "v2", version: 2 })
    expect((await app.call(org.key, "GET", "/api/v1/waiver")).body).toEqual({ text: "v2", version: 2 })
    expect((await app.call(org.key, "PUT", "/api/v1/waiver", { text: null })).body).toEqual({ text: null, version: 3 })
    expectError(await app.call(org.key, "PUT", "/api/v1/waiver", { text: "" }), 400, "invalid_text")
    expectError(await app.call(org.key, "PUT", "/api/v1/waiver", { text: chars(20001) }), 400, "invalid_text")
    expectError(await app.call(org.key, "PUT", "/api/v1/waiver", {}), 400, "invalid_text")
    expect((await app.call(org.key, "GET", "/api/v1/waiver")).body).toEqual({ text: null, version: 3 })
  })
})
