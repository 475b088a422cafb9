import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, expectError, ok } from "../bookings/helpers.ts"

let app: TestApp
let org: BookingsOrg
let pk: string

beforeAll(async () => {
  app = await startApp()
  org = await bookingsOrg(app)
  ok(await app.admin("POST", `/orgs/${org.id}/members`, { email: "owner@ask.test", role: "owner" }), 201)
  pk = ok(await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "publishable", name: "site" }), 201).key
})
afterAll(async () => {
  await app?.close()
})

const ask = (body: unknown, headers: Record<string, string> = {}) =>
  app.call(pk, "POST", "/api/v1/public/questions", body, headers)
const mailTo = async (to: string) => ok(await app.admin("GET", `/mail?to=${encodeURIComponent(to)}`)).data as any[]

describe("a question before booking, on the org's booking page", () => {
  it("needs no account: a thread on the guest, message.received with channel page and no booking, answered by mail", async () => {
    const asked = ok(
      await ask({ name: "Vi Sitor", email: "Visitor1@Example.com", question: "Do you rent wetsuits?" }),
      201
    )
    expect(Object.keys(asked).sort()).toEqual(["created_at", "id"])
    const received = (await org.events("message.received")).filter((e) => e.data.id === asked.id)
    expect(received.map((e) => [e.data.channel, e.data.booking_id, e.data.body])).toEqual([
      ["page", null, "Do you rent wetsuits?"]
    ])
    const customer = ok(await org.call("GET", "/customers?q=visitor1")).data[0]
    expect(customer).toMatchObject({ email: "Visitor1@Example.com", name: "Vi Sitor" })
    expect(received[0].data.customer_id).toBe(customer.id)
    // The owners are told, as for any guest message.
    expect((await mailTo("owner@ask.test")).some((m) => m.text.includes("Do you rent wetsuits?"))).toBe(true)

    // The business answers in the same thread; the answer goes by mail, with the thread's reply address.
    const reply = ok(await org.call("POST", "/messages", { customer_id: customer.id, body: "Yes, 5 a day." }), 201)
    expect(reply.channel).toBe("email")
    const thread = ok(await org.call("GET", `/messages?customer_id=${customer.id}`)).data
    expect(thread.map((m: any) => [m.direction, m.channel, m.body])).toEqual([
      ["inbound", "page", "Do you rent wetsuits?"],
      ["outbound", "email", "Yes, 5 a day."]
    ])
    const answer = (await mailTo("Visitor1@Example.com")).find((m) => m.text.includes("Yes, 5 a day."))
    expect(answer.reply_to).toMatch(/^reply\+[0-9a-f]{24}@/)

    // A second question from the same address joins the same thread.
    ok(await ask({ name: "Vi", email: "visitor1@example.com", question: "And boards?" }), 201)
    expect(ok(await org.call("GET", `/messages?customer_id=${customer.id}`)).data.length).toBe(3)
  })

  it("takes five questions an hour from one address (429 too_many_questions), then more after the hour", async () => {
    for (let i = 0; i < 5; i++) ok(await ask({ name: "Q", email: "often@example.com", question: `Question ${i}` }), 201)
    expectError(await ask({ name: "Q", email: "OFTEN@example.com", question: "One more" }), 429, "too_many_questions")
    // Another address is not held back.
    ok(await ask({ name: "R", email: "other@example.com", question: "Hello" }), 201)
    await app.advance(3601)
    ok(await ask({ name: "Q", email: "often@example.com", question: "Next hour" }), 201)
  })

  it("refuses what is not a question with 400 naming the field, and origins the org has not allowed with 403", async () => {
    expectError(await ask({ name: "A", email: "not-an-email", question: "Hi" }), 400, "invalid_email")
    expectError(await ask({ name: "A", email: "a@example.com", question: "" }), 400, "invalid_question")
    expectError(await ask({ name: "A", email: "a@example.com" }), 400, "invalid_question")
    expectError(await ask({ name: "", email: "a@example.com", question: "Hi" }), 400, "invalid_name")
    expectError(await ask({ name: "A", email: "a@example.com", question: "Hi", phone: "1" }), 400, "unknown_field")
    expectError(await ask({ name: "A", email: "a@example.com", question: "x".repeat(2001) }), 400, "invalid_question")
    expectError(
      await ask({ name: "A", email: "a@example.com", question: "Hi" }, { origin: "https://elsewhere.example" }),
      403,
      "forbidden"
    )
  })
})
