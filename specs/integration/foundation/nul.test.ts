import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

// Postgres text cannot hold NUL; every operation refuses it as bad input naming the field, never a 500.
describe("NUL characters anywhere in input", () => {
  it("are 400 naming the field, in bodies of every resource and in query strings", async () => {
    const org = await app.newOrg()
    const { body: o } = await app.call(org.key, "POST", "/api/v1/offerings", { name: "Kayak", kind: "rental" })
    const cases: Array<[string, string, unknown, string]> = [
      [
        "POST",
        "/api/v1/bookings",
        { offering_id: o.id, customer: { email: "a@example.com", name: "A\u0000" } },
        "invalid_customer"
      ],
      ["POST", "/api/v1/customers", { email: "b@example.com", name: "B", phone: "+31 6\u0000" }, "invalid_phone"],
      ["PATCH", `/api/v1/offerings/${o.id}`, { metadata: { "k\u0000": 1 } }, "invalid_metadata"],
      ["POST", "/api/v1/sessions", { offering_id: o.id, starts_at: "2030-01-01T10:00:00Z\u0000" }, "invalid_starts_at"],
      ["GET", "/api/v1/bookings?q=ab%00cd", undefined, "invalid_q"],
      ["GET", "/api/v1/customers?q=%00", undefined, "invalid_q"]
    ]
    for (const [method, path, body, code] of cases) {
      const res = await app.call(org.key, method, path, body)
      expect({ path, status: res.status, code: res.body?.error?.code }).toEqual({ path, status: 400, code })
    }
    const events = await app.call(org.key, "GET", "/api/v1/offerings")
    expect(events.body.data[0].metadata).toEqual({})
  })
})
