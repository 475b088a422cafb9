import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, guest, ok } from "../bookings/helpers.ts"
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
let close = async () => {}

beforeAll(async () => {
  ;({ app, close } = await startTwilioApp())
  org = await bookingsOrg(app)
})
afterAll(() => close())

const post = (path: string, params: Record<string, string>) =>
  app.call(null, "POST", path, new URLSearchParams(params).toString(), {
    "content-type": "application/x-www-form-urlencoded",
    "x-twilio-signature": twilioSignature(AUTH_TOKEN, `${PUBLIC_URL}${path}`, params)
  })
const thread = async (q: string) => ok(await org.call("GET", `/messages?${q}`)).data as Array<Record<string, any>>
const bookWith = async (n: string, phone: string) => {
  const { offering, session } = await org.classWithSession({})
  return ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: { ...guest(n), phone } }), 201)
}

describe("Twilio's retries (the same signed request twice)", () => {
  it("a guest's text posted twice with one MessageSid is stored once; the repeat is answered 200", async () => {
    const b = await bookWith("r1", "+31 6 3000 0001")
    const form = {
      MessageSid: `SM${"ab12".repeat(8)}`,
      AccountSid: ACCOUNT_SID,
      From: "+31630000001",
      To: FROM,
      Body: "Running late, sorry",
      NumSegments: "1"
    }
    const first = await post("/texts/twilio/inbound", form)
    const again = await post("/texts/twilio/inbound", form)
    expect([first.status, again.status]).toEqual([200, 200])
    expect(again.headers.get("content-type")).toMatch(/^text\/xml/)
    const inbound = (await thread(`booking_id=${b.id}`)).filter((m) => m.direction === "inbound")
    expect(inbound.map((m) => m.body)).toEqual(["Running late, sorry"])
    const received = (await org.events("message.received")).filter((e) => e.data.booking_id === b.id)
    expect(received).toHaveLength(1)
    // Another text (another MessageSid) with the same words is a text of its own.
    expect((await post("/texts/twilio/inbound", { ...form, MessageSid: `SM${"cd34".repeat(8)}` })).status).toBe(200)
    expect((await thread(`booking_id=${b.id}`)).filter((m) => m.direction === "inbound")).toHaveLength(2)
  })

  it("a status callback posted again does not apply twice: the first report's time and reason stay", async () => {
    const b = await bookWith("r2", "+31 6 3000 0002")
    ok(await org.call("POST", "/messages", { booking_id: b.id, body: "See you at 9.", channel: "text" }), 201)
    await app.advance(1)
    const texts = ok(await app.admin("GET", `/texts?to=${encodeURIComponent("+31630000002")}`)).data
    const sid = texts.find((t: any) => t.body === "See you at 9.").provider_id
    const report = { MessageSid: sid, MessageStatus: "undelivered", ErrorCode: "30003", AccountSid: ACCOUNT_SID }
    expect((await post("/texts/twilio/status", report)).status).toBe(204)
    const first = (await thread(`booking_id=${b.id}`)).find((m) => m.body === "See you at 9.")!
    await app.advance(60)
    expect((await post("/texts/twilio/status", report)).status).toBe(204)
    expect((await post("/texts/twilio/status", { ...report, ErrorCode: "30005" })).status).toBe(204)
    const after = (await thread(`booking_id=${b.id}`)).find((m) => m.body === "See you at 9.")!
    expect([after.failed_at, after.failure_reason]).toEqual([first.failed_at, first.failure_reason])
    expect(after.failure_reason).toContain("30003")
    const [text] = ok(await app.admin("GET", `/texts?to=${encodeURIComponent("+31630000002")}`)).data
    expect(text.failure_reason).toContain("30003")
  })
})
