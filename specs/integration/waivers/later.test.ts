import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, guest, ok, startPinned } from "../bookings/helpers.ts"

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
  ok(await org.call("PUT", "/waiver", { text: "I paddle at my own risk." }))
})
afterAll(() => app.close())

const mailsTo = async (email: string) => {
  await app.advance(2)
  return ok(await app.admin("GET", `/mail?to=${encodeURIComponent(email)}`)).data as Array<{
    kind: string
    text: string
  }>
}
const sign = (token: string, name: string) =>
  app.call(null, "POST", `/api/v1/waivers/${token}/signatures`, { name, accept: true })

describe("waiver_required switched on or off later", () => {
  it("on: a booking to come needs the signatures the offering now asks for and its guest is asked to sign", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 5 })
    const customer = guest("later-on")
    const b = ok(await org.book({ offering_id: offering.id, session_id: session.id, quantity: 2, customer }), 201)
    expect(b).toMatchObject({ status: "confirmed", waiver_token: null, waiver: null })
    const gone = ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: guest("gone") }), 201)
    ok(await org.act(gone.id, "cancel"))

    ok(await org.call("PATCH", `/offerings/${offering.id}`, { waiver_required: true }))
    const asked = ok(await org.get(b.id))
    expect(asked.waiver).toMatchObject({ needed: 2, signed: 0 })
    expect(asked.waiver_token).toMatch(/^[A-Za-z0-9_-]{16,}$/)
    expect(ok(await org.get(gone.id)).waiver).toBeNull()
    const mail = (await mailsTo(customer.email)).find((m) => m.kind === "booking.resend")
    expect(mail?.text).toContain(`/w/${asked.waiver_token}`)
    const page = ok(await app.call(null, "GET", `/api/v1/guest/${await org.handle(b.id)}`))
    expect(page.waiver).toMatchObject({ needed: 2, signed: 0 })
    ok(await sign(asked.waiver_token, "Ada"), 201)
    expect(ok(await org.get(b.id)).waiver).toMatchObject({ needed: 2, signed: 1 })
  })

  it("off: a booking with signatures keeps them as they are; one not signed is no longer asked", async () => {
    const { offering, session } = await org.classWithSession({ capacity: 5, waiver_required: true })
    const signed = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: guest("later-signed"),
        waiver: { accept: true, name: "Bo" }
      }),
      201
    )
    const unsigned = ok(
      await org.book({ offering_id: offering.id, session_id: session.id, customer: guest("later-unsigned") }),
      201
    )
    expect(unsigned.waiver).toMatchObject({ needed: 1, signed: 0 })
    ok(await org.call("PATCH", `/offerings/${offering.id}`, { waiver_required: false }))
    expect(ok(await org.get(signed.id))).toMatchObject({
      waiver_token: signed.waiver_token,
      waiver: { needed: 1, signed: 1 }
    })
    expect(ok(await org.get(unsigned.id))).toMatchObject({ waiver_token: null, waiver: null })
    // On again: the unsigned one is asked afresh; the signed one is already signed.
    ok(await org.call("PATCH", `/offerings/${offering.id}`, { waiver_required: true }))
    expect(ok(await org.get(unsigned.id)).waiver).toMatchObject({ needed: 1, signed: 0 })
    expect(ok(await org.get(signed.id)).waiver).toMatchObject({ needed: 1, signed: 1 })
  })
})
