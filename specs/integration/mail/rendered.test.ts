import { Option } from "effect"
import { simpleParser } from "mailparser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { formatWhen } from "../../../engine/services/mail/render.ts"
import { startApp, type TestApp } from "../../support/app.ts"
import { startSmtp } from "./smtpServer.ts"

let smtp: Awaited<ReturnType<typeof startSmtp>>
let app: TestApp
beforeAll(async () => {
  smtp = await startSmtp()
  app = await startApp({ smtpUrl: Option.some(smtp.url) })
})
afterAll(async () => {
  await app.close()
  await smtp.close()
})

const book = async (key: string, email: string) => {
  const { body: o } = await app.call(key, "POST", "/api/v1/offerings", {
    name: "Morning flow",
    kind: "class",
    capacity: 5
  })
  const now = new Date((await app.admin("GET", "/clock")).body.now)
  const startsAt = new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000 + 48 * 3_600_000)
  const { body: s } = await app.call(key, "POST", "/api/v1/sessions", {
    offering_id: o.id,
    starts_at: startsAt.toISOString()
  })
  const res = await app.call(key, "POST", "/api/v1/bookings", {
    offering_id: o.id,
    session_id: s.data[0].id,
    customer: { email, name: "Ann" }
  })
  expect(res.status).toBe(201)
  await app.advance(1)
  const raw = smtp.received.find((m) => m.to.includes(email))
  expect(raw, `a mail to ${email}`).toBeDefined()
  return { mail: await simpleParser(raw!.raw), startsAt, booking: res.body }
}

describe("guest mail as sent", () => {
  it("says the time in the org's zone, with a text and an HTML part", async () => {
    const org = await app.newOrg({ timezone: "Europe/Amsterdam" })
    const { mail, startsAt, booking } = await book(org.key, "ann@example.com")
    const when = formatWhen(startsAt, "Europe/Amsterdam", "en")
    expect(mail.subject).toBe(`Booked: Morning flow (${booking.reference})`)
    expect(mail.text).toContain(`When: ${when}`)
    expect(mail.text).not.toContain(startsAt.toISOString())
    expect(mail.html).toContain(`When: ${when}`)
    expect(mail.html).toMatch(/<a href="http:\/\/127\.0\.0\.1\/b\/[^"]+">Your booking page<\/a>/)
  })

  it("speaks the language the org set, and uses its own template where it has one", async () => {
    const org = await app.newOrg({ timezone: "Europe/Amsterdam" })
    const set = await app.call(org.key, "PATCH", "/api/v1/org", { locale: "nl" })
    expect(set.status).toBe(200)
    expect(set.body).toMatchObject({ locale: "nl", mail_templates: {} })
    const dutch = await book(org.key, "bea@example.com")
    expect(dutch.mail.subject).toBe(`Geboekt: Morning flow (${dutch.booking.reference})`)
    expect(dutch.mail.text).toContain(`Wanneer: ${formatWhen(dutch.startsAt, "Europe/Amsterdam", "nl")}`)

    const own = await app.call(org.key, "PATCH", "/api/v1/org", {
      mail_templates: { confirmed: { subject: "Tot {{when}}!", text: "Beheer: {{page_url}}" } }
    })
    expect(own.status).toBe(200)
    const custom = await book(org.key, "cas@example.com")
    expect(custom.mail.subject).toBe(`Tot ${formatWhen(custom.startsAt, "Europe/Amsterdam", "nl")}!`)
    expect(custom.mail.text?.trim()).toMatch(/^Beheer: http:\/\/127\.0\.0\.1\/b\/\S+$/)
  })

  it("refuses a locale that is not a language tag and a template for a mail that does not exist", async () => {
    const org = await app.newOrg()
    const bad = await app.call(org.key, "PATCH", "/api/v1/org", { locale: "not a locale!" })
    expect(bad.status).toBe(400)
    const unknown = await app.call(org.key, "PATCH", "/api/v1/org", { mail_templates: { birthday: { subject: "Hi" } } })
    expect(unknown.status).toBe(400)
    const extra = await app.call(org.key, "PATCH", "/api/v1/org", { mail_templates: { confirmed: { body: "Hi" } } })
    expect(extra.status).toBe(400)
    expect((await app.call(org.key, "GET", "/api/v1/org")).body).toMatchObject({ locale: "en", mail_templates: {} })
  })
})
