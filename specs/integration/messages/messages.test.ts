import { createHmac } from "node:crypto"
import { createServer } from "node:net"
import { Option } from "effect"
import nodemailer from "nodemailer"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { waitFor } from "../../support/receiver.ts"
import { type BookingsOrg, bookingsOrg, expectError, guest, ok } from "../bookings/helpers.ts"
import { startSmtp } from "../mail/smtpServer.ts"

let app: TestApp
let org: BookingsOrg
let smtp: Awaited<ReturnType<typeof startSmtp>>
let inboundPort: number
const SECRET = "inbound-secret-0123456789"

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })

beforeAll(async () => {
  smtp = await startSmtp()
  inboundPort = await freePort()
  app = await startApp({
    smtpUrl: Option.some(smtp.url),
    mailDomain: "replies.example.test",
    inboundSmtpPort: inboundPort,
    inboundEmailSecret: SECRET
  })
  org = await bookingsOrg(app)
  ok(await app.admin("POST", `/orgs/${org.id}/members`, { email: "owner@surf.test", role: "owner" }), 201)
})
afterAll(async () => {
  await app?.close()
  await smtp?.close()
})

/** Sends mail into the engine's inbound listener over SMTP, as a guest's mail server would. */
const deliver = (mail: { from: string; to: string; text?: string; envelopeFrom?: string; raw?: string }) =>
  nodemailer.createTransport({ host: "127.0.0.1", port: inboundPort, secure: false, ignoreTLS: true }).sendMail(
    mail.raw !== undefined
      ? { envelope: { from: mail.envelopeFrom ?? "", to: mail.to }, raw: mail.raw }
      : {
          from: mail.from,
          to: mail.to,
          subject: "Re: your booking",
          text: mail.text,
          ...(mail.envelopeFrom !== undefined ? { envelope: { from: mail.envelopeFrom, to: mail.to } } : {})
        }
  )

/** Runs the mail job until the SMTP server got a mail to `to` containing `text`; returns its raw source. */
const mailTo = async (to: string, text: string) => {
  const find = () => smtp.received.find((m) => m.to.includes(to) && m.raw.includes(text))
  await waitFor(
    async () => {
      await app.advance(1)
      return find() !== undefined
    },
    60_000,
    `mail to ${to} with ${text}`
  )
  return find()!.raw
}
const replyToOf = (raw: string) => /^Reply-To: (.+)$/im.exec(raw)![1].trim()

const thread = async (bookingId: string) =>
  ok(await org.call("GET", `/messages?booking_id=${bookingId}`)).data as Array<Record<string, any>>

/** Runs the mail job until the thread's second message (held back from a guest who complained) has failed. */
const heldBack = (bookingId: string) =>
  waitFor(
    async () => {
      await app.advance(1)
      return (await thread(bookingId))[1]?.failed_at != null
    },
    60_000,
    "the held-back message failed"
  )

describe("messages with a guest by email", () => {
  it("sends with a reply address; the guest's reply comes back threaded, stripped of the quote; owners are told", async () => {
    const { offering, session } = await org.classWithSession({})
    const b = ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: guest("m1") }), 201)
    const sent = ok(
      await org.call("POST", "/messages", { booking_id: b.id, body: "Bring a towel, the water is cold." }),
      201
    )
    expect(sent).toMatchObject({
      direction: "outbound",
      channel: "email",
      booking_id: b.id,
      customer_id: b.customer_id,
      delivered_at: null
    })

    const raw = await mailTo("guestm1@example.com", "Bring a towel")
    const replyTo = replyToOf(raw)
    expect(replyTo).toMatch(/^reply\+[a-f0-9]{24}@replies\.example\.test$/)
    expect(raw).toContain("Bring a towel")
    await waitFor(async () => (await thread(b.id))[0].delivered_at !== null, 60_000, "delivered_at")

    await deliver({
      from: "Guest M1 <GuestM1@example.com>",
      to: replyTo,
      text: "Thanks, I will!\n\nOn Tue, 24 Nov 2026 at 09:00, Surf <bookings@localhost> wrote:\n> Bring a towel, the water is cold.\n> \n"
    })
    const messages = await thread(b.id)
    expect(messages.map((m) => [m.direction, m.body])).toEqual([
      ["outbound", "Bring a towel, the water is cold."],
      ["inbound", "Thanks, I will!"]
    ])
    const received = (await org.events("message.received")).filter((e) => e.data.booking_id === b.id)
    expect(received.map((e) => [e.data.body, e.data.channel])).toEqual([["Thanks, I will!", "email"]])
    expect((await org.events("message.sent")).some((e) => e.data.id === sent.id && e.data.channel === "email")).toBe(
      true
    )
    await mailTo("owner@surf.test", "Thanks, I will!")

    // The same guest and booking keep one address; a message about nothing in particular has its own.
    ok(await org.call("POST", "/messages", { booking_id: b.id, body: "See you." }), 201)
    expect(replyToOf(await mailTo("guestm1@example.com", "See you."))).toBe(replyTo)
    ok(await org.call("POST", "/messages", { customer_id: b.customer_id, body: "News for you." }), 201)
    expect(replyToOf(await mailTo("guestm1@example.com", "News for you."))).not.toBe(replyTo)
    expect(
      ok(await org.call("GET", `/messages?customer_id=${b.customer_id}`)).data.map((m: { body: string }) => m.body)
    ).toEqual(["News for you."])
  })

  it("drops mail from anyone but the guest, refuses unknown addresses, and marks a bounced message failed", async () => {
    const { offering, session } = await org.classWithSession({})
    const b = ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: guest("m2") }), 201)
    ok(await org.call("POST", "/messages", { booking_id: b.id, body: "Hello" }), 201)
    const replyTo = replyToOf(await mailTo("guestm2@example.com", "Hello"))

    await deliver({ from: "stranger@example.com", to: replyTo, text: "Let me in" })
    expect((await thread(b.id)).map((m) => m.direction)).toEqual(["outbound"])
    await expect(
      deliver({ from: "guestm2@example.com", to: "someone@replies.example.test", text: "hi" })
    ).rejects.toThrow(/550/)
    await expect(
      deliver({ from: "guestm2@example.com", to: "reply+000000000000000000000000@replies.example.test", text: "hi" })
    ).resolves.toBeDefined()

    const dsn = [
      "From: Mail Delivery System <MAILER-DAEMON@mx.example.com>",
      `To: ${replyTo}`,
      "Subject: Undelivered Mail Returned to Sender",
      "MIME-Version: 1.0",
      'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
      "",
      "--B",
      "Content-Type: text/plain",
      "",
      "Your message could not be delivered.",
      "--B",
      "Content-Type: message/delivery-status",
      "",
      "Reporting-MTA: dns; mx.example.com",
      "",
      "Final-Recipient: rfc822; guestm2@example.com",
      "Action: failed",
      "Status: 5.1.1",
      "Diagnostic-Code: smtp; 550 5.1.1 user unknown",
      "--B--",
      ""
    ].join("\r\n")
    await deliver({ from: "", to: replyTo, raw: dsn, envelopeFrom: "" })
    const [out] = await thread(b.id)
    expect(out.failed_at).not.toBeNull()
    expect(out.failure_reason).toContain("5.1.1")
  })

  it("acknowledges a guest who writes when the org asks, and refuses bad requests", async () => {
    const other = await bookingsOrg(app)
    expect(
      ok(await other.call("PATCH", "/org", { auto_acknowledge: true, reply_to_domain: "Mail.Surf.Example" }))
    ).toMatchObject({ auto_acknowledge: true, reply_to_domain: "mail.surf.example" })
    const { offering, session } = await other.classWithSession({})
    const b = ok(await other.book({ offering_id: offering.id, session_id: session.id, customer: guest("m3") }), 201)
    ok(await other.call("POST", "/messages", { booking_id: b.id, body: "Welcome" }), 201)
    const replyTo = replyToOf(await mailTo("guestm3@example.com", "Welcome"))
    expect(replyTo).toMatch(/@mail\.surf\.example$/)
    await deliver({ from: "guestm3@example.com", to: replyTo, text: "Is parking free?" })
    const messages = ok(await other.call("GET", `/messages?booking_id=${b.id}`)).data
    expect(messages.map((m: { direction: string; channel: string }) => `${m.direction}/${m.channel}`)).toEqual([
      "outbound/email",
      "inbound/email",
      "outbound/system"
    ])

    expectError(
      await other.call("POST", "/messages", { booking_id: b.id, customer_id: b.customer_id, body: "x" }),
      400,
      "invalid_conversation"
    )
    expectError(await other.call("GET", "/messages"), 400, "invalid_conversation")
    expect((await other.call("POST", "/messages", { booking_id: b.id, body: "" })).status).toBe(400)
    expectError(await org.call("POST", "/messages", { booking_id: b.id, body: "not yours" }), 404, "not_found")
    expectError(await org.call("GET", `/messages?booking_id=${b.id}`), 404, "not_found")
    expect((await other.call("PATCH", "/org", { reply_to_domain: "not a domain" })).status).toBe(400)
  })

  it("takes mail posted by a provider over HTTP, signed with the shared secret, through the same path", async () => {
    const { offering, session } = await org.classWithSession({})
    const b = ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: guest("m4") }), 201)
    ok(await org.call("POST", "/messages", { booking_id: b.id, body: "Over HTTP?" }), 201)
    const replyTo = replyToOf(await mailTo("guestm4@example.com", "Over HTTP?"))
    const post = (body: unknown, signature?: string) => {
      const raw = JSON.stringify(body)
      return fetch(`${app.url}/inbound/email`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-inbound-signature": signature ?? `sha256=${createHmac("sha256", SECRET).update(raw).digest("hex")}`
        },
        body: raw
      })
    }
    const stored = await post({ to: replyTo, from: "guestm4@example.com", text: "Yes!\n\n> Over HTTP?" })
    expect(stored.status).toBe(200)
    expect(await stored.json()).toEqual({ outcome: "stored" })
    expect((await thread(b.id)).map((m) => m.body)).toEqual(["Over HTTP?", "Yes!"])
    expect((await post({ to: replyTo, from: "guestm4@example.com", text: "forged" }, "sha256=00")).status).toBe(401)
    expect(await (await post({ to: replyTo, from: "other@example.com", text: "hi" })).json()).toEqual({
      outcome: "foreign_sender"
    })
    expect((await post({ to: "nobody@example.com", from: "guestm4@example.com", text: "hi" })).status).toBe(400)
    expect(await (await post({ to: replyTo, bounce: true, reason: "5.1.1 user unknown" })).json()).toEqual({
      outcome: "bounced"
    })
    expect((await thread(b.id))[0].failure_reason).toBe("5.1.1 user unknown")
  })

  it("a spam complaint fails the message like a bounce; the guest gets no mail until they write in", async () => {
    const { offering, session } = await org.classWithSession({})
    const b = ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: guest("m5") }), 201)
    ok(await org.call("POST", "/messages", { booking_id: b.id, body: "Our autumn offers" }), 201)
    const replyTo = replyToOf(await mailTo("guestm5@example.com", "Our autumn offers"))
    // An abuse report through a mailbox provider's feedback loop (ARF, RFC 5965).
    const arf = [
      "From: Feedback Loop <fbl@mailbox.example.net>",
      `To: ${replyTo}`,
      "Subject: Abuse report",
      "MIME-Version: 1.0",
      'Content-Type: multipart/report; report-type=feedback-report; boundary="F"',
      "",
      "--F",
      "Content-Type: text/plain",
      "",
      "This is an email abuse report.",
      "--F",
      "Content-Type: message/feedback-report",
      "",
      "Feedback-Type: abuse",
      "User-Agent: ExampleFBL/1.0",
      "Version: 1",
      "--F",
      "Content-Type: message/rfc822",
      "",
      "Subject: Our autumn offers",
      "",
      "Our autumn offers",
      "--F--",
      ""
    ].join("\r\n")
    await deliver({ from: "fbl@mailbox.example.net", to: replyTo, raw: arf, envelopeFrom: "fbl@mailbox.example.net" })
    const [complained] = await thread(b.id)
    expect(complained.failed_at).not.toBeNull()
    expect(complained.failure_reason).toContain("spam complaint: abuse")
    expect((await thread(b.id)).map((m) => m.direction)).toEqual(["outbound"])

    // Neither a message nor the guest's booking mail goes out now; the message says why.
    ok(await org.call("POST", "/messages", { booking_id: b.id, body: "Are you still there?" }), 201)
    const again = ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: guest("m5") }), 201)
    await heldBack(b.id)
    expect((await thread(b.id))[1].failure_reason).toContain("reported this org's mail as spam")
    await app.advance(5)
    const toGuest = () => smtp.received.filter((m) => m.to.includes("guestm5@example.com"))
    expect(toGuest().some((m) => m.raw.includes("Are you still there?") || m.raw.includes(again.reference))).toBe(false)

    // The guest writes in: mailed again.
    await deliver({ from: "guestm5@example.com", to: replyTo, text: "Sorry, wrong button. Yes I am." })
    ok(await org.call("POST", "/messages", { booking_id: b.id, body: "Welcome back" }), 201)
    await mailTo("guestm5@example.com", "Welcome back")
    expect(toGuest().some((m) => m.raw.includes("Are you still there?"))).toBe(false)
  })

  it("takes a spam complaint posted over HTTP", async () => {
    const { offering, session } = await org.classWithSession({})
    const b = ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: guest("m6") }), 201)
    ok(await org.call("POST", "/messages", { booking_id: b.id, body: "Newsletter" }), 201)
    const replyTo = replyToOf(await mailTo("guestm6@example.com", "Newsletter"))
    const raw = JSON.stringify({ to: replyTo, complaint: true, reason: "abuse" })
    const res = await fetch(`${app.url}/inbound/email`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-inbound-signature": `sha256=${createHmac("sha256", SECRET).update(raw).digest("hex")}`
      },
      body: raw
    })
    expect(await res.json()).toEqual({ outcome: "complained" })
    expect((await thread(b.id))[0].failure_reason).toBe("spam complaint: abuse")
    ok(await org.call("POST", "/messages", { booking_id: b.id, body: "Still here?" }), 201)
    await heldBack(b.id)
  })
})
