import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mcpClient } from "../calendar/helpers.ts"
import { bookedIn, bookingsOrg, expectError, guest, type Json, ok, startPinned, type TestApp } from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startPinned()
})
afterAll(() => app.close())

const OPS: Array<[string, Json]> = [
  ["confirm", {}],
  ["cancel", {}],
  ["move", { starts_at: "2040-06-01T10:00:00Z" }],
  ["attendance", { attendance: "checked_in" }],
  ["mark_paid", {}],
  ["mark_unpaid", {}],
  ["resend", {}],
  ["nudge", {}],
  ["retry_refund", {}]
]

describe("tenancy", () => {
  it("another org's booking is 404 on every operation and never listed; its offering is 404 to book", async () => {
    const a = await bookingsOrg(app)
    const b = await bookingsOrg(app)
    const { offering, session } = await a.classWithSession({ price_cents: 100 })
    const booking = await a.booked({ offering_id: offering.id, session_id: session.id })
    expectError(await b.get(booking.id), 404, "not_found")
    for (const [op, body] of OPS) expectError(await b.act(booking.id, op, body), 404, "not_found")
    expect(ok(await b.list()).data).toEqual([])
    expect(ok(await b.list({ reference: booking.reference })).data).toEqual([])
    expectError(await b.list({ after: booking.id }), 400, "invalid_after")
    expectError(await b.book({ offering_id: offering.id, session_id: session.id }), 404, "not_found")
    const own = await b.offering({ kind: "class" })
    expectError(await b.book({ offering_id: own.id, session_id: session.id }), 409, "time_not_available")
    expect(ok(await a.get(booking.id)).status).toBe("held")
    expect((await b.events()).filter((e) => e.type.startsWith("booking."))).toEqual([])
  })
})

describe("MCP", () => {
  it("lists one tool per bookings operation, POSTs taking idempotency_key", async () => {
    const org = await bookingsOrg(app)
    const mcp = await mcpClient(app, org.key)
    try {
      const { tools } = await mcp.client.listTools()
      const names = tools
        .map((t) => t.name)
        .filter((n) => n.startsWith("bookings_"))
        .sort()
      expect(names).toEqual([
        "bookings_cancel",
        "bookings_confirm",
        "bookings_create",
        "bookings_get",
        "bookings_list",
        "bookings_mark_paid",
        "bookings_mark_unpaid",
        "bookings_move",
        "bookings_nudge",
        "bookings_resend",
        "bookings_retry_refund",
        "bookings_set_attendance"
      ])
      const create = tools.find((t) => t.name === "bookings_create")!
      expect(Object.keys(create.inputSchema.properties ?? {})).toEqual(
        expect.arrayContaining(["offering_id", "customer", "session_id", "series_id", "idempotency_key"])
      )
      expect(create.inputSchema.required).toEqual(expect.arrayContaining(["offering_id", "customer"]))
      expect(tools.find((t) => t.name === "bookings_cancel")!.annotations).toMatchObject({
        destructiveHint: true,
        readOnlyHint: false
      })
      expect(tools.find((t) => t.name === "bookings_list")!.annotations).toMatchObject({ readOnlyHint: true })
    } finally {
      await mcp.close()
    }
  })

  it("bookings_create with idempotency_key books once and replays; bookings_cancel cancels; source is mcp", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 3, price_cents: 800 })
    const mcp = await mcpClient(app, org.key)
    try {
      const args = {
        offering_id: offering.id,
        session_id: session.id,
        quantity: 2,
        customer: guest(1),
        idempotency_key: "mcp-1"
      }
      const first = await mcp.call("bookings_create", args)
      expect(first.isError).toBe(false)
      expect(first.json).toMatchObject({
        status: "held",
        quantity: 2,
        total_cents: 1600,
        source: "mcp",
        session_id: session.id
      })
      expect(first.structured).toEqual(first.json)
      expect("handle" in first.json).toBe(false)
      const replay = await mcp.call("bookings_create", args)
      expect(replay.json).toEqual(first.json)
      expect(await bookedIn(org, offering.id, session.id)).toBe(2)
      const reused = await mcp.call("bookings_create", { ...args, quantity: 1 })
      expect(reused.isError).toBe(true)
      const restReused = await org.book(
        { offering_id: offering.id, session_id: session.id, quantity: 1, customer: guest(1) },
        { "idempotency-key": "mcp-1" }
      )
      expect(reused.json).toEqual(restReused.body)

      const got = await mcp.call("bookings_get", { id: first.json.id })
      expect(got.json).toMatchObject({
        id: first.json.id,
        offering: { id: offering.id, kind: "class" },
        customer: { email: "guest1@example.com" }
      })
      const confirmed = await mcp.call("bookings_confirm", { id: first.json.id })
      expect(confirmed.isError, JSON.stringify(confirmed.json)).toBe(false)
      expect(confirmed.json.status).toBe("confirmed")
      const cancelled = await mcp.call("bookings_cancel", {
        id: first.json.id,
        refund_cents: 0,
        reason: "asked by guest",
        idempotency_key: "mcp-2"
      })
      expect(cancelled.json).toMatchObject({ status: "cancelled", refund_cents: 0, cancel_reason: "asked by guest" })
      expect(await bookedIn(org, offering.id, session.id)).toBe(0)
      const listed = await mcp.call("bookings_list", { offering_id: offering.id, limit: "10" })
      expect(listed.json.data.map((b: Json) => b.id)).toEqual([first.json.id])
      const events = (await org.events()).filter((e) => e.data.id === first.json.id).map((e) => [e.type, e.data.source])
      expect(events).toEqual([
        ["booking.held", "mcp"],
        ["booking.confirmed", "mcp"],
        ["booking.cancelled", "mcp"]
      ])
    } finally {
      await mcp.close()
    }
  })

  it("errors are the REST errors, code and message alike", async () => {
    const org = await bookingsOrg(app)
    const other = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 1, max_per_booking: 1 })
    const taken = await org.booked({ offering_id: offering.id, session_id: session.id })
    const foreign = await other.classWithSession()
    const foreignBooking = await other.booked({ offering_id: foreign.offering.id, session_id: foreign.session.id })
    const mcp = await mcpClient(app, org.key)
    try {
      const cases: Array<[string, Json, () => Promise<{ status: number; body: any }>, number, string]> = [
        [
          "bookings_create",
          { offering_id: offering.id, session_id: session.id, customer: guest(2) },
          () => org.book({ offering_id: offering.id, session_id: session.id, customer: guest(2) }),
          409,
          "sold_out"
        ],
        [
          "bookings_create",
          { offering_id: offering.id, session_id: session.id, quantity: 2, customer: guest(2) },
          () => org.book({ offering_id: offering.id, session_id: session.id, quantity: 2, customer: guest(2) }),
          400,
          "invalid_quantity"
        ],
        [
          "bookings_create",
          { offering_id: offering.id, session_id: session.id, quantity: 0, customer: guest(2) },
          () => org.book({ offering_id: offering.id, session_id: session.id, quantity: 0, customer: guest(2) }),
          400,
          "invalid_quantity"
        ],
        [
          "bookings_create",
          { offering_id: offering.id, session_id: session.id, customer: guest(2), vip: true },
          () => org.book({ offering_id: offering.id, session_id: session.id, customer: guest(2), vip: true }),
          400,
          "unknown_field"
        ],
        [
          "bookings_create",
          { offering_id: foreign.offering.id, session_id: session.id, customer: guest(2) },
          () => org.book({ offering_id: foreign.offering.id, session_id: session.id, customer: guest(2) }),
          404,
          "not_found"
        ],
        ["bookings_confirm", { id: taken.id }, () => org.act(taken.id, "confirm"), 409, "booking_not_held"],
        ["bookings_nudge", { id: taken.id }, () => org.act(taken.id, "nudge"), 409, "booking_not_held"],
        [
          "bookings_set_attendance",
          { id: taken.id, attendance: "no_show" },
          () => org.act(taken.id, "attendance", { attendance: "no_show" }),
          409,
          "not_started"
        ],
        [
          "bookings_set_attendance",
          { id: taken.id, attendance: "maybe" },
          () => org.act(taken.id, "attendance", { attendance: "maybe" }),
          400,
          "invalid_attendance"
        ],
        [
          "bookings_cancel",
          { id: taken.id, refund_cents: -5 },
          () => org.act(taken.id, "cancel", { refund_cents: -5 }),
          400,
          "invalid_refund_cents"
        ],
        ["bookings_cancel", { id: foreignBooking.id }, () => org.act(foreignBooking.id, "cancel"), 404, "not_found"],
        ["bookings_get", { id: foreignBooking.id }, () => org.get(foreignBooking.id), 404, "not_found"],
        ["bookings_move", { id: taken.id }, () => org.act(taken.id, "move", {}), 400, "invalid_body"],
        ["bookings_list", { limit: "0" }, () => org.list({ limit: 0 }), 400, "invalid_limit"]
      ]
      for (const [tool, args, rest, status, code] of cases) {
        const viaMcp = await mcp.call(tool, args)
        const viaRest = await rest()
        expect({ tool, status: viaRest.status, code: viaRest.body.error?.code }).toEqual({ tool, status, code })
        expect({ tool, isError: viaMcp.isError, body: viaMcp.json }).toEqual({
          tool,
          isError: true,
          body: viaRest.body
        })
      }
      const cancelled = await mcp.call("bookings_cancel", { id: taken.id })
      expect(cancelled.json.status).toBe("cancelled")
      const again = await mcp.call("bookings_cancel", { id: taken.id })
      expect(again.json).toEqual((await org.act(taken.id, "cancel")).body)
      expect(again.json.error.code).toBe("booking_cancelled")
      expect(ok(await other.get(foreignBooking.id)).status).toBe("confirmed")
    } finally {
      await mcp.close()
    }
  })
})
