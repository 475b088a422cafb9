import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, expectError, guest, ok } from "../bookings/helpers.ts"
import {
  ACCOUNT_SID,
  AUTH_TOKEN,
  startTwilioApp,
  TWILIO_FROM,
  TWILIO_PUBLIC_URL,
  twilioSignature
} from "./twilioServer.ts"

const PUBLIC_URL = TWILIO_PUBLIC_URL
const FROM = TWILIO_FROM

let app: TestApp
let org: BookingsOrg
let twilio: Awaited<ReturnType<typeof startTwilioApp>>["twilio"]
let close = async () => {}

beforeAll(async () => {
  ;({ app, twilio, close } = await startTwilioApp())
  org = await bookingsOrg(app)
})
afterAll(() => close())

/** Posts a form to one of Twilio's webhooks, signed as Twilio signs (or with the signature given). */
const post = (path: string, params: Record<string, string>, signature?: string | null) =>
  app.call(null, "POST", path, new URLSearchParams(params).toString(), {
    "content-type": "application/x-www-form-urlencoded",
    ...(signature === null
      ? {}
      : { "x-twilio-signature": signature ?? twilioSignature(AUTH_TOKEN, `${PUBLIC_URL}${path}`, params) })
  })
/** A text from a guest, as Twilio posts it. */
const inbound = (from: string, body: string, signature?: string | null) =>
  post(
    "/texts/twilio/inbound",
    {
      MessageSid: `SM${Math.random().toString(16).slice(2).padEnd(32, "0")}`,
      AccountSid: ACCOUNT_SID,
      From: from,
      To: FROM,
      Body: body,
      NumSegments: "1"
    },
    signature
  )
const status = (sid: string, messageStatus: string, extra: Record<string, string> = {}) =>
  post("/texts/twilio/status", { MessageSid: sid, MessageStatus: messageStatus, AccountSid: ACCOUNT_SID, ...extra })

const callsTo = (phone: string) => twilio.calls.filter((c) => c.form.To === phone)
const textOf = async (phone: string) => ok(await app.admin("GET", `/texts?to=${encodeURIComponent(phone)}`))
const thread = async (q: string) => ok(await org.call("GET", `/messages?${q}`)).data as Array<Record<string, any>>
/** Books a class for a guest with a phone. */
const bookWith = async (n: string, phone: string) => {
  const { offering, session } = await org.classWithSession({})
  return ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: { ...guest(n), phone } }), 201)
}
const send = (bookingId: string, body: string) =>
  org.call("POST", "/messages", { booking_id: bookingId, body, channel: "text" })

describe("texts through Twilio (a local server speaking its wire format)", () => {
  it("sends through the SDK: form-encoded to the account's Messages.json, with the sender and a status callback", async () => {
    const b = await bookWith("w1", "+31 6 2000 0001")
    const sent = ok(await send(b.id, "Your board is waxed."), 201)
    await app.advance(1)
    const [call] = callsTo("+31620000001")
    expect(call).toMatchObject({ method: "POST", path: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json` })
    expect(call.contentType).toMatch(/^application\/x-www-form-urlencoded/)
    expect(call.authorization).toBe(`Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString("base64")}`)
    expect(call.form).toMatchObject({
      To: "+31620000001",
      From: FROM,
      Body: "Your board is waxed.",
      StatusCallback: `${PUBLIC_URL}/texts/twilio/status`
    })
    // Queued at Twilio is not delivered: the status callback says when it is.
    const [text] = (await textOf("+31620000001")).data
    expect(text.provider_id).toMatch(/^SM[0-9a-f]{32}$/)
    expect(text.sent_at).not.toBeNull()
    expect((await thread(`booking_id=${b.id}`))[0]).toMatchObject({ id: sent.id, delivered_at: null, failed_at: null })

    const delivered = await status(text.provider_id, "delivered")
    expect(delivered.status).toBe(204)
    expect((await thread(`booking_id=${b.id}`))[0].delivered_at).not.toBeNull()

    ok(await send(b.id, "Second one."), 201)
    await app.advance(1)
    const second = (await textOf("+31620000001")).data.find((t: any) => t.body === "Second one.")
    expect((await status(second.provider_id, "undelivered", { ErrorCode: "30003" })).status).toBe(204)
    const failed = (await thread(`booking_id=${b.id}`)).find((m) => m.body === "Second one.")!
    expect(failed.failed_at).not.toBeNull()
    expect(failed.failure_reason).toContain("30003")
    // A report that is not signed by the account's token changes nothing.
    expectError(
      await post("/texts/twilio/status", { MessageSid: second.provider_id, MessageStatus: "delivered" }, "bm90IGl0"),
      403,
      "bad_signature"
    )
    expect((await thread(`booking_id=${b.id}`)).find((m) => m.body === "Second one.")!.delivered_at).toBeNull()
  })

  it("takes a guest's text into the thread of their latest booking, as message.received with channel text", async () => {
    await bookWith("w2", "+31 6 2000 0002")
    await app.advance(60)
    const latest = await bookWith("w2", "+31 6 2000 0002")
    const res = await inbound("+31620000002", "Can I come 10 minutes late?")
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toMatch(/^text\/xml/)
    expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>')
    const messages = await thread(`booking_id=${latest.id}`)
    expect(messages.map((m) => [m.direction, m.channel, m.body])).toEqual([
      ["inbound", "text", "Can I come 10 minutes late?"]
    ])
    const received = (await org.events("message.received")).filter((e) => e.data.booking_id === latest.id)
    expect(received.map((e) => e.data.channel)).toEqual(["text"])
  })

  it("starts a thread on a guest with no booking", async () => {
    const c = ok(await org.call("POST", "/customers", { email: "nobook@example.com", phone: "+31 6 2000 0003" }), 201)
    expect((await inbound("+31620000003", "What times do you have?")).status).toBe(200)
    expect((await thread(`customer_id=${c.id}`)).map((m) => [m.channel, m.body, m.booking_id])).toEqual([
      ["text", "What times do you have?", null]
    ])
    // A number no guest has is answered with nothing and kept nowhere.
    expect((await inbound("+31620009999", "Who is this?")).status).toBe(200)
  })

  it("refuses unsigned and wrongly signed requests with 403, and keeps nothing", async () => {
    const b = await bookWith("w4", "+31 6 2000 0004")
    expectError(await inbound("+31620000004", "unsigned", null), 403, "bad_signature")
    const params = { From: "+31620000004", To: FROM, Body: "signed with another token", AccountSid: ACCOUNT_SID }
    const other = twilioSignature("another-token-0123456789", `${PUBLIC_URL}/texts/twilio/inbound`, params)
    expectError(await post("/texts/twilio/inbound", params, other), 403, "bad_signature")
    // Signed for one body, sent with another.
    const signed = twilioSignature(AUTH_TOKEN, `${PUBLIC_URL}/texts/twilio/inbound`, params)
    expectError(await post("/texts/twilio/inbound", { ...params, Body: "tampered" }, signed), 403, "bad_signature")
    expect(await thread(`booking_id=${b.id}`)).toEqual([])
  })

  it("STOP ends texts to the guest until START: a send is refused with why, and goes again after START", async () => {
    const b = await bookWith("w5", "+31 6 2000 0005")
    const stop = await inbound("+31620000005", "Stop")
    expect(stop.body).toMatch(/<Message>[^<]*unsubscribed[^<]*START[^<]*<\/Message>/)
    const refused = ok(await send(b.id, "Are you coming?"), 201)
    expect(refused.failed_at).not.toBeNull()
    expect(refused.failure_reason).toMatch(/replied STOP .* until they reply START/)
    await app.advance(1)
    expect(callsTo("+31620000005")).toEqual([])
    expect((await textOf("+31620000005")).opted_out).toMatchObject({ keyword: "STOP" })
    // Booking texts are refused the same way, with the reason on the text.
    ok(await org.call("PATCH", "/org", { text_kinds: ["confirmed"] }))
    try {
      const again = await bookWith("w5", "+31 6 2000 0005")
      const confirmation = (await textOf("+31620000005")).data.find((t: any) => t.booking_id === again.id)
      expect(confirmation).toMatchObject({ kind: "booking.confirmed", sent_at: null })
      expect(confirmation.failure_reason).toMatch(/replied STOP/)
    } finally {
      ok(await org.call("PATCH", "/org", { text_kinds: [] }))
    }

    const help = await inbound("+31620000005", "HELP")
    expect(help.body).toMatch(/<Message>[^<]*Reply STOP to unsubscribe[^<]*<\/Message>/)
    const start = await inbound("+31620000005", "unstop")
    expect(start.body).toMatch(/<Message>[^<]*subscribed again[^<]*<\/Message>/)
    const sent = ok(await send(b.id, "Welcome back."), 201)
    expect(sent.failed_at).toBeNull()
    await app.advance(1)
    expect(callsTo("+31620000005").map((c) => c.form.Body)).toEqual(["Welcome back."])
    // The keywords are the carrier's, not a message to the business.
    expect((await thread(`booking_id=${b.id}`)).filter((m) => m.direction === "inbound")).toEqual([])

    // A synonym works alike.
    await inbound("+31620000005", "UNSUBSCRIBE")
    expect(ok(await send(b.id, "One more?"), 201).failure_reason).toMatch(/replied UNSUBSCRIBE/)
  })

  it("a number the carrier says opted out (Twilio 21610) fails with why, and is not texted again", async () => {
    const b = await bookWith("w6", "+31 6 2000 0006")
    twilio.refuse.set("+31620000006", {
      status: 400,
      code: 21610,
      message: "Attempt to send to unsubscribed recipient"
    })
    ok(await send(b.id, "Hello?"), 201)
    await app.advance(1)
    const [m] = await thread(`booking_id=${b.id}`)
    expect(m.failed_at).not.toBeNull()
    expect(m.failure_reason).toMatch(/opted out.*21610/)
    const calls = callsTo("+31620000006").length
    expect(ok(await send(b.id, "Again?"), 201).failure_reason).toMatch(/replied STOP/)
    await app.advance(1)
    expect(callsTo("+31620000006").length).toBe(calls)
  })
})
