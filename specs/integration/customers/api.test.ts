import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Api } from "../../../transports/http/Api.ts"
import { toolsOf } from "../../../transports/mcp/tools.ts"
import { startApp, type TestApp } from "../../support/app.ts"
import { customerRow, eventsOf } from "./helpers.ts"

let app: TestApp
let a: { id: string; key: string }
let b: { id: string; key: string }
beforeAll(async () => {
  app = await startApp()
  a = await app.newOrg()
  b = await app.newOrg()
})
afterAll(() => app.close())

const post = (key: string, body: unknown) => app.call(key, "POST", "/api/v1/customers", body)
let n = 0
const unique = () => `guest${++n}@example.com`

describe("customers.create", () => {
  it("adds a customer and emits customer.updated with it", async () => {
    const email = unique()
    const res = await post(a.key, { email, name: "Ada Lovelace", phone: "+44 20 7946 0000" })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.any(String),
      email,
      name: "Ada Lovelace",
      phone: "+442079460000",
      created_at: expect.any(String),
      updated_at: null,
      erased: false
    })
    expect(await eventsOf(app, a.id, "customer.updated")).toContainEqual(res.body)
  })

  it("takes name and phone as optional", async () => {
    const res = await post(a.key, { email: unique() })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: null, phone: null })
  })

  it("refuses an email the org already has, in any case: 409 customer_exists", async () => {
    const email = unique()
    expect((await post(a.key, { email })).status).toBe(201)
    const again = await post(a.key, { email: email.toUpperCase(), name: "Other" })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe("customer_exists")
    expect((await post(b.key, { email })).status).toBe(201)
  })

  it.each([
    [{}, "invalid_email"],
    [{ email: "not-an-email" }, "invalid_email"],
    [{ email: "a b@example.com" }, "invalid_email"],
    [{ email: `${"x".repeat(250)}@example.com` }, "invalid_email"],
    [{ email: 42 }, "invalid_email"],
    [{ email: "ok@example.com", name: "" }, "invalid_name"],
    [{ email: "ok@example.com", name: "n".repeat(201) }, "invalid_name"],
    [{ email: "ok@example.com", phone: "call me" }, "invalid_phone"],
    [{ email: "ok@example.com", vip: true }, "unknown_field"]
  ])("refuses %j with 400 %s", async (body, code) => {
    const res = await post(a.key, body)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(code)
  })

  it("refuses a body that is not JSON, and calls without a key", async () => {
    expect((await post(a.key, "{nope")).body.error.code).toBe("invalid_json")
    expect((await app.call(null, "POST", "/api/v1/customers", { email: unique() })).status).toBe(401)
  })
})

describe("customers.get and customers.update", () => {
  it("gets, then updates name, phone and email and emits customer.updated", async () => {
    const created = (await post(a.key, { email: unique(), name: "Old" })).body
    expect((await app.call(a.key, "GET", `/api/v1/customers/${created.id}`)).body).toEqual(created)
    const email = unique()
    const res = await app.call(a.key, "PATCH", `/api/v1/customers/${created.id}`, {
      name: "New",
      phone: "0031 6 1234 5678",
      email
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: created.id,
      name: "New",
      phone: "+31612345678",
      email,
      updated_at: expect.any(String)
    })
    expect(await eventsOf(app, a.id, "customer.updated")).toContainEqual(res.body)
    const cleared = await app.call(a.key, "PATCH", `/api/v1/customers/${created.id}`, { phone: null })
    expect(cleared.body).toMatchObject({ name: "New", phone: null })
  })

  it("refuses an email another customer has: 409 customer_exists, nothing changed", async () => {
    const first = (await post(a.key, { email: unique() })).body
    const second = (await post(a.key, { email: unique(), name: "Second" })).body
    const res = await app.call(a.key, "PATCH", `/api/v1/customers/${second.id}`, {
      email: first.email.toUpperCase(),
      name: "Changed"
    })
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe("customer_exists")
    expect(await customerRow(app, second.id)).toMatchObject({ email: second.email, name: "Second" })
    const ownCase = await app.call(a.key, "PATCH", `/api/v1/customers/${second.id}`, {
      email: second.email.toUpperCase()
    })
    expect(ownCase.status).toBe(200)
  })

  it.each([
    [{ email: "nope" }, "invalid_email"],
    [{ email: null }, "invalid_email"],
    [{ name: "" }, "invalid_name"],
    [{ phone: "x" }, "invalid_phone"],
    [{ erased: true }, "unknown_field"]
  ])("refuses update %j with 400 %s", async (body, code) => {
    const created = (await post(a.key, { email: unique() })).body
    const res = await app.call(a.key, "PATCH", `/api/v1/customers/${created.id}`, body)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(code)
  })

  it("answers 404 for an unknown id and 400 for an id that is not a uuid", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000"
    expect((await app.call(a.key, "GET", `/api/v1/customers/${unknown}`)).status).toBe(404)
    expect((await app.call(a.key, "PATCH", `/api/v1/customers/${unknown}`, { name: "X" })).status).toBe(404)
    expect((await app.call(a.key, "DELETE", `/api/v1/customers/${unknown}`)).status).toBe(404)
    const bad = await app.call(a.key, "GET", "/api/v1/customers/123")
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe("invalid_id")
  })
})

describe("tenancy", () => {
  it("org B cannot see, update or erase org A's customer", async () => {
    const mine = (await post(a.key, { email: unique(), name: "Private" })).body
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "Stolen" }],
      ["DELETE", undefined]
    ] as const) {
      const res = await app.call(b.key, method, `/api/v1/customers/${mine.id}`, body)
      expect(res.status).toBe(404)
      expect(res.body.error.code).toBe("not_found")
    }
    const listed = await app.call(b.key, "GET", `/api/v1/customers?q=${encodeURIComponent(mine.email)}`)
    expect(listed.body.data).toEqual([])
    expect(await customerRow(app, mine.id)).toMatchObject({ name: "Private", erased_at: null })
    const paged = await app.call(b.key, "GET", `/api/v1/customers?after=${mine.id}`)
    expect(paged.status).toBe(400)
  })
})

describe("customers.list", () => {
  it("finds by any part of name, email or phone in any case, oldest first, paged with after", async () => {
    const org = await app.newOrg()
    const add = async (body: Record<string, string>) => {
      await app.advance(1)
      return (await post(org.key, body)).body
    }
    const x = await add({ email: "zoe@alpha.test", name: "Zoë Fischer", phone: "+31 6 1234 5678" })
    const y = await add({ email: "max@beta.test", name: "Max Mustermann" })
    const z = await add({ email: "fischer_fan@gamma.test", name: "100% Fan" })
    const q = (query: string) => app.call(org.key, "GET", `/api/v1/customers${query}`).then((r) => r.body)
    expect((await q("")).data.map((c: { id: string }) => c.id)).toEqual([x.id, y.id, z.id])
    expect((await q("?q=FISCHER")).data.map((c: { id: string }) => c.id)).toEqual([x.id, z.id])
    expect((await q("?q=BETA.t")).data.map((c: { id: string }) => c.id)).toEqual([y.id])
    expect((await q("?q=1234%205678")).data.map((c: { id: string }) => c.id)).toEqual([x.id])
    expect((await q("?q=612345")).data.map((c: { id: string }) => c.id)).toEqual([x.id])
    expect((await q("?q=%25")).data.map((c: { id: string }) => c.id)).toEqual([z.id])
    expect((await q("?q=_")).data.map((c: { id: string }) => c.id)).toEqual([z.id])
    const first = await q("?limit=2")
    expect(first.data.map((c: { id: string }) => c.id)).toEqual([x.id, y.id])
    expect(first.next_after).toBe(y.id)
    const second = await q(`?limit=2&after=${first.next_after}`)
    expect(second).toEqual({ data: [z], next_after: null })
    expect((await q("?limit=3")).next_after).toBeNull()
  })

  it("defaults to 50 per page", async () => {
    const org = await app.newOrg()
    await app.call(org.key, "POST", "/api/v1/customers/import", {
      csv: ["email", ...Array.from({ length: 55 }, (_, i) => `p${i}@example.com`)].join("\n")
    })
    const page = await app.call(org.key, "GET", "/api/v1/customers")
    expect(page.body.data).toHaveLength(50)
    expect(page.body.next_after).toBe(page.body.data[49].id)
  })

  it.each([
    ["?limit=0", "invalid_limit"],
    ["?limit=501", "invalid_limit"],
    ["?limit=ten", "invalid_limit"],
    [`?q=${"a".repeat(81)}`, "invalid_q"],
    ["?after=nope", "invalid_after"],
    ["?after=00000000-0000-4000-8000-000000000000", "invalid_after"]
  ])("refuses %s with 400 %s", async (query, code) => {
    const res = await app.call(a.key, "GET", `/api/v1/customers${query}`)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(code)
  })
})

describe("the contract", () => {
  it("exposes every customers operation as an MCP tool", () => {
    const names = toolsOf(Api)
      .map((t) => t.name)
      .filter((n) => n.startsWith("customers_"))
      .sort()
    expect(names).toEqual([
      "customers_create",
      "customers_erase",
      "customers_get",
      "customers_import",
      "customers_list",
      "customers_update"
    ])
  })
})
