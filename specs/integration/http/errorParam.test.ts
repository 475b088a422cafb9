import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, startPinned } from "../bookings/helpers.ts"

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
})
afterAll(() => app.close())

const refused = async (pending: Promise<{ status: number; body: any }>, status = 400) => {
  const res = await pending
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  return res.body.error as { code: string; message: string; param?: string }
}

describe("error.param: a 400 about one field names it", () => {
  it("names the path of a body field that does not decode, nested and in arrays, and an unknown field", async () => {
    const bad = await refused(org.call("POST", "/offerings", { name: "Yoga", kind: "class", duration_minutes: 2 }))
    expect(bad).toMatchObject({ code: "invalid_duration_minutes", param: "duration_minutes" })
    const rental = await org.offering({ kind: "rental" })
    const hours = [
      { weekday: 1, start_time: "09:00", end_time: "17:00" },
      { weekday: 2, start_time: "9am", end_time: "17:00" }
    ]
    expect(await refused(org.call("PUT", `/offerings/${rental.id}/hours`, { hours }))).toMatchObject({
      param: "hours[1].start_time"
    })
    const { offering, session } = await org.classWithSession({ capacity: 4 })
    const seat = { offering_id: offering.id, session_id: session.id, starts_at: session.starts_at }
    expect(
      await refused(org.call("POST", "/bookings", { ...seat, customer: { email: "not-an-email", name: "Ada" } }))
    ).toMatchObject({ param: "customer.email" })
    expect(await refused(org.call("PATCH", `/offerings/${offering.id}`, { colour: "red" }))).toMatchObject({
      code: "unknown_field",
      param: "colour"
    })
    expect(await refused(org.call("GET", "/bookings?limit=0"))).toMatchObject({ code: "invalid_limit", param: "limit" })
  })

  it("names the field of an engine refusal; a refusal about no one field, and other statuses, carry none", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 4, max_per_booking: 2 })
    const seat = { offering_id: offering.id, session_id: session.id, starts_at: session.starts_at }
    const customer = { email: "ada@example.com", name: "Ada" }
    expect(await refused(org.call("POST", "/bookings", { ...seat, quantity: 3, customer }))).toMatchObject({
      code: "invalid_quantity",
      param: "quantity"
    })
    expect(
      await refused(
        org.call("POST", "/sessions", {
          offering_id: offering.id,
          starts_at: session.starts_at,
          teacher: crypto.randomUUID()
        })
      )
    ).toMatchObject({ code: "not_a_member", param: "teacher" })
    const both = await refused(
      org.call("PATCH", `/offerings/${offering.id}`, { deposit_cents: 100, deposit_percent: 10 })
    )
    expect(both.code).toBe("deposit_conflict")
    expect(both).not.toHaveProperty("param")
    const json = await fetch(`${app.url}/api/v1/offerings`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
      body: "{not json"
    })
    expect(json.status).toBe(400)
    expect((await json.json()).error).not.toHaveProperty("param")
    expect(await refused(org.call("GET", `/offerings/${crypto.randomUUID()}`), 404)).not.toHaveProperty("param")
  })

  it("is in the API document's error schema, described", async () => {
    const doc = (await app.call(null, "GET", "/api/v1/openapi.json")).body
    const errorOf = (status: string) =>
      doc.paths["/api/v1/offerings"].post.responses[status].content["application/json"].schema.properties.error
    expect(errorOf("400").properties.param.description).toMatch(/hours\[1\]\.start_time/)
    expect(errorOf("400").required).toEqual(["code", "message"])
    expect(errorOf("401").properties).not.toHaveProperty("param")
    expect(doc.info.description).toContain("`param`")
  })
})
