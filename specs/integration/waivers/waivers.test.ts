import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, expectError, guest, ok, startPinned } from "../bookings/helpers.ts"

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
  ok(await org.call("PUT", "/waiver", { text: "I climb at my own risk." }))
})
afterAll(() => app.close())

const sign = (token: string, name: string, accept: unknown = true) =>
  app.call(null, "POST", `/api/v1/waivers/${token}/signatures`, { name, accept })

describe("waivers signed per person", () => {
  it("the booker signs as they book, for themselves and children; the link collects the rest, then refuses more", async () => {
    const { offering, session } = await org.classWithSession({ waiver_required: true, capacity: 10 })
    const b = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        quantity: 3,
        waiver: { accept: true, name: "Ana", children: ["Bo"] }
      }),
      201
    )
    expect(b.waiver).toMatchObject({ needed: 3, signed: 2 })
    expect(b.waiver.signatures.map((s: { name: string; for: string }) => [s.name, s.for])).toEqual([
      ["Ana", "booker"],
      ["Bo", "child"]
    ])
    expect(ok(await org.get(b.id)).waiver).toEqual(b.waiver)

    const view = ok(await app.call(null, "GET", `/api/v1/waivers/${b.waiver_token}`))
    expect(view).toMatchObject({
      text: "I climb at my own risk.",
      version: 1,
      needed: 3,
      signed: 2,
      open: true,
      reference: b.reference
    })
    expect(view.signatures.map((s: { name: string }) => s.name)).toEqual(["Ana", "Bo"])

    const third = ok(await sign(b.waiver_token, "Cy"), 201)
    expect(third).toMatchObject({ name: "Cy", for: "guest", version: 1, signed: 3, needed: 3 })
    expectError(await sign(b.waiver_token, "Dee"), 409, "waiver_complete")
    expect(ok(await org.get(b.id)).waiver).toMatchObject({ needed: 3, signed: 3 })

    const events = (await org.events("waiver.signed")).filter((e) => e.data.booking_id === b.id)
    expect(events.map((e) => [e.data.signed, e.data.needed])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3]
    ])
    expect(events[2].data).toEqual({
      booking_id: b.id,
      reference: b.reference,
      signature_id: third.id,
      signed: 3,
      needed: 3
    })
  })

  it("records the version signed; a rental needs one signature; refusals are named", async () => {
    const rental = await org.rental({ waiver_required: true, capacity: 3, max_per_booking: 3, min_notice_minutes: 0 })
    const slots = ok(await org.call("GET", `/offerings/${rental.id}/availability`)).data
    const b = ok(
      await org.book({ offering_id: rental.id, starts_at: slots[0].starts_at, quantity: 2, customer: guest("r") }),
      201
    )
    expect(b.waiver).toEqual({ needed: 1, signed: 0, signatures: [] })
    ok(await org.call("PUT", "/waiver", { text: "Version two." }))
    expect(ok(await sign(b.waiver_token, "Rita"), 201).version).toBe(2)

    const { offering, session } = await org.classWithSession({ waiver_required: true })
    expectError(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        quantity: 1,
        customer: guest("t"),
        waiver: { accept: true, name: "A", children: ["B"] }
      }),
      400,
      "too_many_signatures"
    )
    expect(
      (
        await org.book({
          offering_id: offering.id,
          session_id: session.id,
          customer: guest("u"),
          waiver: { accept: false, name: "A" }
        })
      ).status
    ).toBe(400)
    const plain = await org.classWithSession({})
    expectError(
      await org.book({
        offering_id: plain.offering.id,
        session_id: plain.session.id,
        customer: guest("v"),
        waiver: { accept: true, name: "A" }
      }),
      400,
      "waiver_not_asked"
    )

    expectError(await app.call(null, "GET", "/api/v1/waivers/AAAAAAAAAAAAAAAAAAAAAAAA"), 404, "not_found")
    expect((await sign("short", "X")).status).toBe(400)
    const open = ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: guest("w") }), 201)
    expect((await sign(open.waiver_token, "Wim", false)).status).toBe(400)
    expect((await sign(open.waiver_token, "")).status).toBe(400)
  })

  it("a cancelled booking's waiver is null and takes no signatures", async () => {
    const { offering, session } = await org.classWithSession({ waiver_required: true })
    const b = ok(
      await org.book({ offering_id: offering.id, session_id: session.id, quantity: 2, customer: guest("c") }),
      201
    )
    ok(await org.act(b.id, "cancel"))
    expect(ok(await org.get(b.id)).waiver).toBeNull()
    expectError(await sign(b.waiver_token, "Late"), 409, "waiver_closed")
    expect(ok(await app.call(null, "GET", `/api/v1/waivers/${b.waiver_token}`)).open).toBe(false)
  })
})
