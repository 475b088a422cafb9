import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { enqueue, outbox } from "./helpers.ts"
import { startSmtp } from "./smtpServer.ts"

let smtp: Awaited<ReturnType<typeof startSmtp>>
let app: TestApp
let org: { id: string; key: string }
beforeAll(async () => {
  smtp = await startSmtp()
  app = await startApp({ smtpUrl: Option.some(smtp.url), mailFrom: "desk@bookings.test" })
  org = await app.newOrg()
})
afterAll(async () => {
  await app.close()
  await smtp.close()
})

const to = (address: string) => smtp.received.filter((m) => m.to.includes(address))

describe("mail through a real SMTP server", () => {
  it("delivers an enqueued mail once its job runs, with subject, recipient, reply-to and body", async () => {
    const id = await enqueue(app, org.id, {
      to: "guest@example.com",
      subject: "Your booking is confirmed",
      text: "See you on Saturday at 10:00.",
      replyTo: "reply+abc@bookings.test",
      kind: "booking.confirmed"
    })
    expect(to("guest@example.com")).toEqual([])
    await app.advance(1)
    const [mail] = to("guest@example.com")
    expect(mail.from).toBe("desk@bookings.test")
    expect(mail.raw).toContain("Subject: Your booking is confirmed")
    expect(mail.raw).toContain("To: guest@example.com")
    expect(mail.raw).toContain("Reply-To: reply+abc@bookings.test")
    expect(mail.raw).toContain("See you on Saturday at 10:00.")
    expect(await outbox(app, id)).toMatchObject({ attempts: 1, sent_at: expect.any(Date), last_error: null })
    await app.advance(3600)
    expect(to("guest@example.com")).toHaveLength(1)
  })

  it("keeps a refused mail, records the attempt, and retries after the backoff until it goes through", async () => {
    smtp.state.reject = true
    const id = await enqueue(app, org.id, {
      to: "later@example.com",
      subject: "Reminder",
      text: "Tomorrow!",
      kind: "booking.reminder"
    })
    await app.advance(1)
    const first = await outbox(app, id)
    expect(first).toMatchObject({ attempts: 1, sent_at: null, failed_at: null })
    const [due] = await sql(app, (s) => s<{ due_at: Date }>`select due_at from mail_queue where mail_id = ${id}`)
    expect(due.due_at).toEqual(first.next_at)
    expect(first.last_error).toContain("451")
    await app.advance(30)
    expect((await outbox(app, id)).attempts).toBe(1)
    await app.advance(31)
    expect((await outbox(app, id)).attempts).toBe(2)
    smtp.state.reject = false
    await app.advance(299)
    expect(to("later@example.com")).toEqual([])
    await app.advance(2)
    expect(to("later@example.com")).toHaveLength(1)
    expect(await outbox(app, id)).toMatchObject({ attempts: 3, sent_at: expect.any(Date), last_error: null })
  })

  it("gives up after five attempts (1m, 5m, 30m, 2h apart) and keeps the row with the last error", async () => {
    smtp.state.reject = true
    const id = await enqueue(app, org.id, {
      to: "never@example.com",
      subject: "Receipt",
      text: "Paid.",
      kind: "booking.receipt"
    })
    for (const wait of [1, 61, 301, 1801, 7201]) await app.advance(wait)
    const last = await outbox(app, id)
    expect(last).toMatchObject({ attempts: 5, sent_at: null, failed_at: expect.any(Date), next_at: null })
    expect(last.last_error).toContain("451")
    expect(await sql(app, (s) => s`select 1 from mail_queue where mail_id = ${id}`)).toEqual([])
    smtp.state.reject = false
    await app.advance(86400)
    expect((await outbox(app, id)).attempts).toBe(5)
    expect(to("never@example.com")).toEqual([])
  })
})
