import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { chars, expectError, type Json, type Kind, mcpClient, offerings, UNKNOWN_ID } from "./fixtures.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

const INT4_MAX = 2_147_483_647
const NUL = "a\u0000b"

interface FieldCase {
  readonly field: string
  readonly kind: Kind
  readonly good: ReadonlyArray<unknown>
  readonly bad: ReadonlyArray<unknown>
  /** Runs on the fresh org before the values are tried. */
  readonly prepare?: (key: string) => Promise<void>
}

/** The spec's request constraints, field by field: boundary values that pass and values that do not. */
const FIELDS: ReadonlyArray<FieldCase> = [
  { field: "name", kind: "class", good: ["a", chars(120), "Yoga ☀️"], bad: ["", chars(121), null, 5, NUL] },
  { field: "description", kind: "class", good: ["", chars(2000)], bad: [chars(2001), null, 1, NUL] },
  { field: "location", kind: "class", good: ["", "Main street 1", chars(500)], bad: [chars(501), null, 1, NUL] },
  { field: "duration_minutes", kind: "class", good: [5, 43200], bad: [4, 43201, 30.5, "30", null, -5] },
  { field: "capacity", kind: "class", good: [1, 10000], bad: [0, 10001, 2.5, "3", null] },
  { field: "max_per_booking", kind: "appointment", good: [1, 10000], bad: [0, 10001, 1.5, null] },
  { field: "price_cents", kind: "class", good: [0, 1, INT4_MAX], bad: [-1, 0.5, "100", null, INT4_MAX + 1] },
  {
    field: "guest_price_cents",
    kind: "appointment",
    good: [0, 250, INT4_MAX, null],
    bad: [-1, 1.5, "0", INT4_MAX + 1]
  },
  { field: "deposit_cents", kind: "class", good: [1, INT4_MAX, null], bad: [0, -1, 1.5, "1", INT4_MAX + 1] },
  { field: "deposit_percent", kind: "class", good: [1, 99, null], bad: [0, 100, 50.5, "50"] },
  { field: "slot_interval_minutes", kind: "appointment", good: [5, 1440, null], bad: [4, 1441, 7.5, "15"] },
  { field: "buffer_minutes", kind: "rental", good: [0, 1440], bad: [-1, 1441, null, 2.5] },
  { field: "min_notice_minutes", kind: "appointment", good: [0, 43200], bad: [-1, 43201, null] },
  { field: "max_advance_days", kind: "class", good: [1, 730], bad: [0, 731, null, 1.5] },
  { field: "max_periods", kind: "rental", good: [1, 60], bad: [0, 61, null, 2.5] },
  { field: "active", kind: "class", good: [false, true], bad: ["true", 1, null] },
  {
    field: "metadata",
    kind: "class",
    good: [{}, { crm_id: "c-1", tags: ["a", 1, null], nested: { ok: true } }],
    bad: [[], "x", 1, null, { a: NUL }, { [NUL]: 1 }]
  },
  { field: "lat", kind: "class", good: [-90, 0, 52.3731, 90, null], bad: [-90.0001, 90.5, "52", true] },
  { field: "lon", kind: "class", good: [-180, 4.8922, 180, null], bad: [-180.01, 181, "4"] },
  { field: "place_id", kind: "class", good: ["x", chars(300), null], bad: ["", chars(301), 5, NUL] },
  {
    field: "gauge_site",
    kind: "rental",
    good: ["12345678", "123456789012345", null],
    bad: ["1234567", "1234567890123456", "1234567a", "", 12345678]
  },
  { field: "schedule", kind: "appointment", good: ["hours", "calendar"], bad: ["weekly", null, 1] },
  {
    field: "waiver_required",
    kind: "class",
    good: [true, false],
    bad: ["yes", null],
    prepare: async (key) => {
      expect((await app.call(key, "PUT", "/api/v1/waiver", { text: "I ride at my own risk." })).status).toBe(200)
    }
  },
  { field: "waitlist_enabled", kind: "class", good: [true, false], bad: ["no", null, 0] },
  { field: "course", kind: "class", good: [true, false], bad: ["true", null] },
  { field: "questions", kind: "class", good: [[]], bad: [null, {}, "q"] }
]

const show = (v: unknown) => (typeof v === "string" && v.length > 20 ? `${v.length} chars` : JSON.stringify(v))

describe("offering fields", () => {
  describe.each(FIELDS)("$field", ({ bad, field, good, kind, prepare }) => {
    it(`accepts ${good.map(show).join(", ")} on create and update`, async () => {
      const org = await app.newOrg()
      await prepare?.(org.key)
      const api = offerings(app, org.key)
      for (const value of good) {
        const created = await api.post({ name: "Field test", kind, [field]: value })
        expect(created.status, `create ${field}=${show(value)}`).toBe(201)
        expect(created.body[field]).toEqual(value)
        expect((await api.get(created.body.id)).body[field]).toEqual(value)
      }
      const target = await api.create({ name: "Target", kind })
      for (const value of good) {
        const updated = await api.patch(target.id, { [field]: value })
        expect(updated.status, `update ${field}=${show(value)}`).toBe(200)
        expect(updated.body[field]).toEqual(value)
        expect((await api.get(target.id)).body[field]).toEqual(value)
      }
    })

    it(`refuses ${bad.map(show).join(", ")} with 400 invalid_${field} and changes nothing`, async () => {
      const org = await app.newOrg()
      await prepare?.(org.key)
      const api = offerings(app, org.key)
      const target = await api.create({ name: "Target", kind })
      for (const value of bad) {
        expectError(
          await api.post({
            name: field === "name" ? value : "Bad",
            kind,
            ...(field === "name" ? {} : { [field]: value })
          }),
          400,
          `invalid_${field}`
        )
        expectError(await api.patch(target.id, { [field]: value }), 400, `invalid_${field}`)
      }
      expect((await api.get(target.id)).body).toEqual(target)
      expect((await api.list()).body.data).toEqual([target])
    })
  })

  it("requires name and kind on create", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    expectError(await api.post({ kind: "class" }), 400, "invalid_name")
    expectError(await api.post({ name: "No kind" }), 400, "invalid_kind")
    expectError(await api.post({ name: "Bad kind", kind: "workshop" }), 400, "invalid_kind")
    expectError(await api.post({ name: "Null kind", kind: null }), 400, "invalid_kind")
    expect((await api.list()).body.data).toEqual([])
  })

  it("creates each kind from name and kind alone", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    for (const kind of ["class", "appointment", "rental"] as const) {
      const created = await api.post({ name: `Just a ${kind}`, kind })
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({ name: `Just a ${kind}`, kind, org_id: org.id })
    }
  })

  it("refuses kind on update as an unknown field", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const target = await api.create({ name: "Target", kind: "class" })
    expectError(await api.patch(target.id, { kind: "rental" }), 400, "unknown_field")
    expect((await api.get(target.id)).body.kind).toBe("class")
  })

  it.each([
    ["a top-level field", { name: "X", kind: "class", colour: "red" }],
    ["a read-only field", { name: "X", kind: "class", id: UNKNOWN_ID }],
    ["photo_url, which is read-only", { name: "X", kind: "class", photo_url: "https://example.com/a.jpg" }],
    [
      "a field inside a question",
      { name: "X", kind: "class", questions: [{ label: "Age", type: "text", hint: "years" }] }
    ]
  ])("refuses %s with 400 unknown_field", async (_, body) => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    expectError(await api.post(body), 400, "unknown_field")
    const target = await api.create({ name: "Target", kind: "class" })
    const { name: _n, kind: _k, ...patch } = body as Json
    expectError(await api.patch(target.id, patch), 400, "unknown_field")
    expect((await api.list()).body.data).toEqual([target])
  })

  it.each([
    ["POST /offerings", "POST", "/api/v1/offerings"],
    ["PATCH /offerings/{id}", "PATCH", "/api/v1/offerings/:id"],
    ["PUT /offerings/{id}/hours", "PUT", "/api/v1/offerings/:id/hours"]
  ])("answers malformed JSON on %s with 400 invalid_json", async (_, method, path) => {
    const org = await app.newOrg()
    const target = await offerings(app, org.key).create({ name: "Target", kind: "rental" })
    for (const text of ["{", '{"name": }', "not json", '{"name":"x",}']) {
      expectError(await app.call(org.key, method, path.replace(":id", target.id), text), 400, "invalid_json")
    }
    expect((await offerings(app, org.key).get(target.id)).body).toEqual(target)
  })

  it.each([
    ["an array", []],
    ["a string", "x"],
    ["a number", 5],
    ["null", null]
  ])("refuses a body that is %s with 400 invalid_body", async (_, body) => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    expectError(await app.call(org.key, "POST", "/api/v1/offerings", JSON.stringify(body)), 400, "invalid_body")
    expect((await api.list()).body.data).toEqual([])
  })

  it.each([
    ["GET", "/api/v1/offerings/:id"],
    ["PATCH", "/api/v1/offerings/:id"],
    ["DELETE", "/api/v1/offerings/:id"],
    ["GET", "/api/v1/offerings/:id/hours"],
    ["PUT", "/api/v1/offerings/:id/hours"]
  ])("answers %s %s with a non-UUID id as 400 invalid_id, an unknown UUID as 404", async (method, path) => {
    const org = await app.newOrg()
    const body = method === "PATCH" ? { name: "x" } : method === "PUT" ? { hours: [] } : undefined
    for (const bad of [
      "123",
      "not-a-uuid",
      "00000000-0000-4000-8000-00000000000",
      "%20",
      "1%3B%20drop%20table%20offerings"
    ]) {
      expectError(await app.call(org.key, method, path.replace(":id", bad), body), 400, "invalid_id")
    }
    expectError(await app.call(org.key, method, path.replace(":id", UNKNOWN_ID), body), 404, "not_found")
  })

  it("finds an offering by its id written in upper case", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const target = await api.create({ name: "Target", kind: "rental" })
    expect((await api.get(target.id.toUpperCase())).body).toEqual(target)
  })

  describe("questions", () => {
    const q = (over: Json = {}) => ({ label: "Your height?", type: "text", ...over })
    const choice = (options: unknown) => q({ type: "choice", options })

    const good: ReadonlyArray<[string, ReadonlyArray<Json>]> = [
      ["six questions", [q(), q(), q(), q(), q(), q()]],
      ["a label of 1 and of 80 chars", [q({ label: "x" }), q({ label: chars(80) })]],
      ["ids of 1 and 40 chars from the pattern", [q({ id: "a" }), q({ id: `A-z_09${chars(34, "Z")}` })]],
      ["a choice of 2 options", [choice(["S", "M"])]],
      ["a choice of 8 options of 1 and 40 chars", [choice(["1", "2", "3", "4", "5", "6", "7", chars(40)])]],
      ["yes_no and text without options", [q({ type: "yes_no" }), q({ type: "text", required: true })]]
    ]
    it.each(good)("accepts %s", async (_, questions) => {
      const org = await app.newOrg()
      const api = offerings(app, org.key)
      const created = await api.post({ name: "Q", kind: "class", questions })
      expect(created.status).toBe(201)
      expect(created.body.questions).toHaveLength(questions.length)
      created.body.questions.forEach((out: Json, i: number) => {
        const input = questions[i]
        expect(out).toEqual({
          id: input.id ?? expect.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
          label: input.label,
          type: input.type,
          required: input.required ?? false,
          ...(input.options ? { options: input.options } : {})
        })
      })
      const updated = await api.patch(created.body.id, { questions })
      expect(updated.status).toBe(200)
      expect(updated.body.questions.map((x: Json) => x.label)).toEqual(questions.map((x) => x.label))
    })

    const bad: ReadonlyArray<[string, ReadonlyArray<unknown>]> = [
      ["seven questions", [q(), q(), q(), q(), q(), q(), q()]],
      ["an empty label", [q({ label: "" })]],
      ["a label of 81 chars", [q({ label: chars(81) })]],
      ["a missing label", [{ type: "text" }]],
      ["a missing type", [{ label: "x" }]],
      ["an unknown type", [q({ type: "number" })]],
      ["an id with a space", [q({ id: "my id" })]],
      ["an id of 41 chars", [q({ id: chars(41) })]],
      ["an empty id", [q({ id: "" })]],
      ["an id with an accent", [q({ id: "café" })]],
      ["the same id twice", [q({ id: "same" }), q({ id: "same" })]],
      ["a choice of 1 option", [choice(["only"])]],
      ["a choice of 9 options", [choice(["1", "2", "3", "4", "5", "6", "7", "8", "9"])]],
      ["a choice with an option twice", [choice(["S", "S"])]],
      ["a choice with an empty option", [choice(["S", ""])]],
      ["a choice with an option of 41 chars", [choice(["S", chars(41)])]],
      ["a choice without options", [q({ type: "choice" })]],
      ["a text question with options", [q({ options: ["a", "b"] })]],
      ["a yes_no question with options", [q({ type: "yes_no", options: ["yes", "no"] })]],
      ["required that is not a boolean", [q({ required: "yes" })]],
      ["a question that is not an object", ["Age?"]],
      ["a label with NUL", [q({ label: NUL })]]
    ]
    it.each(bad)("refuses %s with 400 invalid_questions", async (_, questions) => {
      const org = await app.newOrg()
      const api = offerings(app, org.key)
      expectError(await api.post({ name: "Q", kind: "class", questions }), 400, "invalid_questions")
      const target = await api.create({ name: "Target", kind: "class", questions: [q({ id: "keep" })] })
      expectError(await api.patch(target.id, { questions }), 400, "invalid_questions")
      expect((await api.get(target.id)).body).toEqual(target)
      expect((await api.list()).body.data).toEqual([target])
    })
  })
})

describe("per-kind defaults", () => {
  const common = {
    description: "",
    location: "",
    price_cents: 0,
    guest_price_cents: null,
    deposit_cents: null,
    deposit_percent: null,
    slot_interval_minutes: null,
    buffer_minutes: 0,
    active: true,
    metadata: {},
    lat: null,
    lon: null,
    place_id: null,
    gauge_site: null,
    waiver_required: false,
    waitlist_enabled: false,
    course: false,
    questions: [],
    photo_url: null
  }
  it.each([
    [
      "class",
      {
        duration_minutes: 60,
        capacity: 10,
        max_per_booking: 10,
        min_notice_minutes: 0,
        max_advance_days: 365,
        max_periods: 1,
        schedule: null
      }
    ],
    [
      "appointment",
      {
        duration_minutes: 30,
        capacity: 1,
        max_per_booking: 1,
        min_notice_minutes: 60,
        max_advance_days: 60,
        max_periods: 1,
        schedule: "calendar"
      }
    ],
    [
      "rental",
      {
        duration_minutes: 1440,
        capacity: 1,
        max_per_booking: 1,
        min_notice_minutes: 0,
        max_advance_days: 365,
        max_periods: 7,
        schedule: null
      }
    ]
  ])("a new %s gets its defaults", async (kind, defaults) => {
    const org = await app.newOrg()
    const now = (await app.admin("GET", "/clock")).body.now
    const created = await offerings(app, org.key).create({ name: "Defaults", kind })
    expect(created).toEqual({
      ...common,
      ...defaults,
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      org_id: org.id,
      kind,
      name: "Defaults",
      created_at: now,
      updated_at: null
    })
  })

  it("keeps the given values over the defaults", async () => {
    const org = await app.newOrg()
    const created = await offerings(app, org.key).create({
      name: "Own",
      kind: "appointment",
      max_per_booking: 4,
      duration_minutes: 45,
      min_notice_minutes: 0
    })
    expect(created).toMatchObject({ max_per_booking: 4, duration_minutes: 45, min_notice_minutes: 0, capacity: 1 })
  })
})

describe("an unexpected failure", () => {
  it("is a 500 internal_error in the error shape, with no details, through REST and MCP", async () => {
    const org = await app.newOrg()
    await sql(app, (db) => db`alter table orgs rename column waiver_version to waiver_version_gone`)
    try {
      const res = await app.call(org.key, "GET", "/api/v1/waiver")
      expect(res.status).toBe(500)
      expect(res.body).toEqual({ error: { code: "internal_error", message: expect.any(String) } })
      expect(res.body.error.message).not.toMatch(/waiver_version|column|sql/i)
      const mcp = await mcpClient(app, org.key)
      try {
        const viaMcp = await mcp.call("waiver_get")
        expect(viaMcp.isError).toBe(true)
        expect(viaMcp.json).toEqual(res.body)
      } finally {
        await mcp.close()
      }
    } finally {
      await sql(app, (db) => db`alter table orgs rename column waiver_version_gone to waiver_version`)
    }
    expect((await app.call(org.key, "GET", "/api/v1/waiver")).status).toBe(200)
  })
})
