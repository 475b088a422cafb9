import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, expectError, guest, ok } from "../bookings/helpers.ts"

let app: TestApp
let org: BookingsOrg

beforeAll(async () => {
  app = await startApp()
  org = await bookingsOrg(app)
})
afterAll(async () => {
  await app?.close()
})

/** Texts to a number, newest first, as the log keeps them (admin API). */
const textsTo = async (phone: string) => ok(await app.admin("GET", `/texts?to=${encodeURIComponent(phone)}`))
const thread = async (q: string) => ok(await org.call("GET", `/messages?${q}`)).data as Array<Record<string, any>>
const withPhone = (n: string, phone: string) => ({ ...guest(n), phone })

describe("texts through the log (no Twilio configured)", () => {
  it("texts a guest with a phone: kept with its segments, delivered by the log, readable at /admin/v1/texts", async () => {
    const { offering, session } = await org.classWithSession({})
    const b = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: withPhone("t1", "+31 6 1234 5601")
      }),
      201
    )
    expect(b.customer.phone).toBe("+31612345601")
    const long = `${"Bring a towel and water. ".repeat(8)}See you!`
    const sent = ok(await org.call("POST", "/messages", { booking_id: b.id, body: long, channel: "text" }), 201)
    expect(sent).toMatchObject({ channel: "text", direction: "outbound", segments: 2, delivered_at: null })
    const emoji = ok(
      await org.call("POST", "/messages", { booking_id: b.id, body: "日".repeat(71), channel: "text" }),
      201
    )
    expect(emoji.segments).toBe(2)
    await app.advance(1)
    const messages = await thread(`booking_id=${b.id}`)
    expect(messages.map((m) => [m.channel, m.segments, m.delivered_at !== null])).toEqual([
      ["text", 2, true],
      ["text", 2, true]
    ])
    const log = await textsTo("+31612345601")
    // Both were written at one engine instant: no order between them.
    expect(log.data.map((t: any) => [t.kind, t.body, t.segments, t.encoding]).sort()).toEqual([
      ["message", long, 2, "GSM-7"],
      ["message", "日".repeat(71), 2, "UCS-2"]
    ])
    expect(log.data[0].delivered_at).not.toBeNull()
    expect(log.opted_out).toBeNull()
    // A + left unencoded in the query arrives as a space: the number is still found; what is no number is 400.
    expect((await textsTo("31612345601")).data.length).toBe(2)
    expectError(await app.admin("GET", "/texts?to=hello"), 400, "invalid_to")
    const events = (await org.events("message.sent")).filter((e) => e.data.booking_id === b.id)
    expect(events.map((e) => [e.data.channel, e.data.segments])).toEqual([
      ["text", 2],
      ["text", 2]
    ])
  })

  it("sends by the org's preferred channel: text to a guest with a phone, email to one without", async () => {
    ok(await org.call("PATCH", "/org", { preferred_channel: "text" }))
    try {
      const withP = ok(
        await org.call("POST", "/customers", { email: "pref1@example.com", phone: "+31 6 1234 5602" }),
        201
      )
      const without = ok(await org.call("POST", "/customers", { email: "pref2@example.com" }), 201)
      const a = ok(await org.call("POST", "/messages", { customer_id: withP.id, body: "Hello" }), 201)
      const b = ok(await org.call("POST", "/messages", { customer_id: without.id, body: "Hello" }), 201)
      expect([a.channel, b.channel]).toEqual(["text", "email"])
      expect((await textsTo("+31612345602")).data.length).toBe(1)
      const mailed = ok(
        await org.call("POST", "/messages", { customer_id: withP.id, body: "By mail", channel: "email" }),
        201
      )
      expect(mailed.channel).toBe("email")
      expectError(
        await org.call("POST", "/messages", { customer_id: without.id, body: "Hi", channel: "text" }),
        400,
        "no_phone"
      )
      expectError(
        await org.call("POST", "/messages", { customer_id: without.id, body: "Hi", channel: "fax" }),
        400,
        "invalid_channel"
      )
      // Erasing the guest takes their texts out of the outbox and its log.
      ok(await org.call("DELETE", `/customers/${withP.id}`))
      expect((await textsTo("+31612345602")).data).toEqual([])
    } finally {
      ok(await org.call("PATCH", "/org", { preferred_channel: "email" }))
    }
  })

  it("keeps phones in E.164 wherever one is taken; a number that is not one is 400 invalid_phone", async () => {
    const c = ok(await org.call("POST", "/customers", { email: "e164@example.com", phone: "0031 (6) 1234-5603" }), 201)
    expect(c.phone).toBe("+31612345603")
    expect(ok(await org.call("PATCH", `/customers/${c.id}`, { phone: "+1 415 555 2671" })).phone).toBe("+14155552671")
    expectError(await org.call("PATCH", `/customers/${c.id}`, { phone: "06 1234 5678" }), 400, "invalid_phone")
    expectError(
      await org.call("POST", "/customers", { email: "e2@example.com", phone: "+1 555 0100" }),
      400,
      "invalid_phone"
    )
    const { offering, session } = await org.classWithSession({})
    const refused = await org.book({
      offering_id: offering.id,
      session_id: session.id,
      customer: withPhone("t3", "12345")
    })
    expectError(refused, 400, "invalid_phone")
    expect(refused.body.error.message).toMatch(/customer\.phone: must be a phone number in international form/)
    expectError(await org.call("PATCH", "/org", { phone: "call us" }), 400, "invalid_phone")
    expect(ok(await org.call("PATCH", "/org", { phone: "+44 20 7946 0000" })).phone).toBe("+442079460000")
    expectError(await org.call("PATCH", "/org", { text_kinds: ["held"] }), 400, "invalid_text_kinds")
  })

  it("sends the booking mails the org turns on as texts too: confirmation, reminder (once), call-off", async () => {
    const quiet = await bookingsOrg(app)
    const plain = await quiet.classWithSession({})
    const q = ok(
      await quiet.book({
        offering_id: plain.offering.id,
        session_id: plain.session.id,
        customer: withPhone("t4", "+31 6 1234 5604")
      }),
      201
    )
    ok(await org.call("PATCH", "/org", { text_kinds: ["confirmed", "reminder", "called_off"], reminder_hours: 24 }))
    const { offering, session } = await org.classWithSession({ name: "Sunrise surf" }, 48)
    const b = ok(
      await org.book({
        offering_id: offering.id,
        session_id: session.id,
        customer: withPhone("t5", "+31 6 1234 5605")
      }),
      201
    )
    const kinds = async () =>
      (await textsTo("+31612345605")).data.filter((t: any) => t.booking_id === b.id).map((t: any) => t.kind)
    expect(await kinds()).toEqual(["booking.confirmed"])
    const confirmed = (await textsTo("+31612345605")).data[0]
    expect(confirmed.body).toContain("Sunrise surf")
    expect(confirmed.body).toContain(b.reference)
    expect(confirmed.body).toMatch(/\/b\/[A-Za-z0-9_-]+/)
    expect(confirmed.segments).toBeLessThanOrEqual(2)
    await app.advance(20 * 3600)
    expect(await kinds()).toEqual(["booking.confirmed"])
    await app.advance(5 * 3600)
    expect(await kinds()).toEqual(["booking.reminder", "booking.confirmed"])
    await app.advance(3600)
    expect(await kinds()).toEqual(["booking.reminder", "booking.confirmed"])
    ok(await org.call("POST", `/sessions/${session.id}/cancel`, {}))
    expect((await kinds()).sort()).toEqual(["booking.called_off", "booking.confirmed", "booking.reminder"])
    // The org that turned nothing on texts nobody.
    expect((await textsTo("+31612345604")).data.filter((t: any) => t.booking_id === q.id)).toEqual([])
  })

  it("takes no texts in without Twilio: its webhooks answer 404", async () => {
    const res = await app.call(null, "POST", "/texts/twilio/inbound", "From=%2B31612345601&Body=hi", {
      "content-type": "application/x-www-form-urlencoded"
    })
    expectError(res, 404, "not_found")
  })
})
