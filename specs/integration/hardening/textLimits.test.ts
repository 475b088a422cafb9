import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BookingsOrg, bookingsOrg, expectError, ok, startPinned, type TestApp } from "../bookings/helpers.ts"
import { mcpClient } from "../calendar/helpers.ts"

// Limits are in the spec's "chars" (code points): 120 emoji are a 120-char name, though 240 UTF-16 code units.
const emoji = (n: number) => "😀".repeat(n)

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
})
afterAll(() => app.close())

describe("text limits over HTTP count characters", () => {
  it("an offering named with 120 emoji is created and read back whole; 121 is 400 invalid_name", async () => {
    const created = await org.offering({
      kind: "class",
      name: emoji(120),
      description: emoji(2000),
      location: emoji(500),
      place_id: emoji(300)
    })
    expect(ok(await org.call("GET", `/offerings/${created.id}`))).toMatchObject({
      name: emoji(120),
      description: emoji(2000),
      location: emoji(500),
      place_id: emoji(300)
    })
    expectError(await org.call("POST", "/offerings", { kind: "class", name: emoji(121) }), 400, "invalid_name")
    expectError(
      await org.call("PATCH", `/offerings/${created.id}`, { description: emoji(2001) }),
      400,
      "invalid_description"
    )
  })

  it("question labels of 80 and options of 40 emoji are taken; one more is 400 invalid_questions", async () => {
    const o = await org.offering({ kind: "class" })
    const choice = (label: string, first: string) => ({
      questions: [{ label, type: "choice", options: [first, "no"] }]
    })
    ok(await org.call("PATCH", `/offerings/${o.id}`, choice(emoji(80), emoji(40))))
    expectError(await org.call("PATCH", `/offerings/${o.id}`, choice(emoji(81), "yes")), 400, "invalid_questions")
    expectError(await org.call("PATCH", `/offerings/${o.id}`, choice("Pick", emoji(41))), 400, "invalid_questions")
  })

  it("a booking's customer name of 120 emoji and notes of 2000; cancel reason of 500; a session note of 200", async () => {
    const { offering, session } = await org.classWithSession()
    const booking = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: { email: "emoji@example.com", name: emoji(120) },
        notes: emoji(2000)
      }),
      201
    )
    expect(booking.notes).toBe(emoji(2000))
    expectError(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: { email: "e@example.com", name: emoji(121) }
      }),
      400,
      "invalid_customer"
    )
    expectError(
      await org.book({ offering_id: offering.id, session_id: session.id, notes: emoji(2001) }),
      400,
      "invalid_notes"
    )
    expectError(await org.act(booking.id, "cancel", { reason: emoji(501) }), 400, "invalid_reason")
    ok(await org.act(booking.id, "cancel", { reason: emoji(500) }))
    expectError(await org.call("POST", `/sessions/${session.id}/cancel`, { note: emoji(201) }), 400, "invalid_note")
    ok(await org.call("POST", `/sessions/${session.id}/cancel`, { note: emoji(200) }))
  })

  it("a text answer of 1000 emoji is taken; 1001 is 400 invalid_answers", async () => {
    const { offering, session } = await org.classWithSession({ questions: [{ id: "why", label: "Why", type: "text" }] })
    const booked = ok(
      await org.book({ offering_id: offering.id, session_id: session.id, answers: { why: emoji(1000) } }),
      201
    )
    expect(booked.answers).toEqual({ why: emoji(1000) })
    expectError(
      await org.book({ offering_id: offering.id, session_id: session.id, answers: { why: emoji(1001) } }),
      400,
      "invalid_answers"
    )
  })

  it("events.list takes a type of at most 80 characters", async () => {
    ok(await org.call("GET", `/events?type=booking.${"x".repeat(72)}`))
    expectError(await org.call("GET", `/events?type=booking.${"x".repeat(73)}`), 400, "invalid_type")
  })

  it("customers take a name of 200 emoji", async () => {
    ok(await org.call("POST", "/customers", { email: "c200@example.com", name: emoji(200) }), 201)
    expectError(
      await org.call("POST", "/customers", { email: "c201@example.com", name: emoji(201) }),
      400,
      "invalid_name"
    )
  })
})

describe("the published schemas say the same", () => {
  it("OpenAPI: an offering's name is 1 to 120 chars, as JSON Schema counts them (code points)", async () => {
    const doc = (await app.call(null, "GET", "/api/v1/openapi.json")).body
    const create = doc.components.schemas.OfferingCreate
    expect(create.properties.name).toMatchObject({ type: "string", minLength: 1, maxLength: 120 })
    expect(create.properties.description).toMatchObject({ type: "string", maxLength: 2000 })
  })

  it("MCP: the tool takes 120 emoji as a name and refuses 121 with invalid_name", async () => {
    const mcp = await mcpClient(app, org.key)
    try {
      const { tools } = await mcp.client.listTools()
      const create = tools.find((t) => t.name === "offerings_create")!
      expect((create.inputSchema.properties as Record<string, object>).name).toMatchObject({
        minLength: 1,
        maxLength: 120
      })
      expect((await mcp.call("offerings_create", { kind: "class", name: emoji(120) })).isError).toBe(false)
      const refused = await mcp.call("offerings_create", { kind: "class", name: emoji(121) })
      expect([refused.isError, refused.json.error.code]).toEqual([true, "invalid_name"])
    } finally {
      await mcp.close()
    }
  })
})
