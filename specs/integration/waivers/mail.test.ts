import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, guest, ok, startPinned } from "../bookings/helpers.ts"
import { CARD, payWith } from "../payments/helpers.ts"

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
  ok(await org.call("PUT", "/waiver", { text: "I surf at my own risk." }))
})
afterAll(() => app.close())

/** The guest's mails as they read (the admin mailbox), newest first, with their kinds. */
const mailTo = async (email: string) => {
  await app.advance(2)
  const rows = ok(await app.admin("GET", `/mail?to=${encodeURIComponent(email)}`)).data as Array<{
    kind: string
    text: string
  }>
  return rows
}

const ASK = "Please sign the waiver"

describe("the waiver in a booking's mail", () => {
  it("a paid booking signed as it was made is never asked to sign: not in the holding mail, not in Booked", async () => {
    const { offering, session } = await org.classWithSession({ waiver_required: true, price_cents: 4500 })
    const customer = guest("signed")
    const b = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer,
        waiver: { accept: true, name: "Ann" }
      }),
      201
    )
    expect(b.waiver).toMatchObject({ needed: 1, signed: 1 })
    expect((await payWith(app, b.checkout_url, CARD.pays)).status).toBe(200)
    const mails = await mailTo(customer.email)
    expect(mails.map((m) => m.kind).sort()).toEqual(["booking.confirmed", "booking.held"])
    for (const m of mails) {
      expect(m.text).not.toContain(ASK)
      expect(m.text).not.toContain(`/w/${b.waiver_token}`)
    }
  })

  it("an unsigned booking is asked to sign, with the link, in both", async () => {
    const { offering, session } = await org.classWithSession({ waiver_required: true, price_cents: 4500 })
    const customer = guest("unsigned")
    const b = ok(await org.book({ offering_id: offering.id, session_id: session.id, customer }), 201)
    expect(b.waiver).toMatchObject({ needed: 1, signed: 0 })
    expect((await payWith(app, b.checkout_url, CARD.pays)).status).toBe(200)
    const mails = await mailTo(customer.email)
    expect(mails.map((m) => m.kind).sort()).toEqual(["booking.confirmed", "booking.held"])
    for (const m of mails) expect(m.text).toContain(`${ASK}: http://127.0.0.1/w/${b.waiver_token}`)
  })

  it("a party signed in part is still asked; a free booking signed in full is not", async () => {
    const { offering, session } = await org.classWithSession({ waiver_required: true })
    const part = guest("part")
    const b = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        quantity: 2,
        customer: part,
        waiver: { accept: true, name: "Bo" }
      }),
      201
    )
    expect((await mailTo(part.email))[0].text).toContain(`/w/${b.waiver_token}`)
    const full = guest("full")
    ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        quantity: 2,
        customer: full,
        waiver: { accept: true, name: "Cy", children: ["Di"] }
      }),
      201
    )
    const [booked] = await mailTo(full.email)
    expect(booked.kind).toBe("booking.confirmed")
    expect(booked.text).not.toContain(ASK)
  })
})
