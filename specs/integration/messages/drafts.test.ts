import { createServer, type Server } from "node:http"
import { ConfigProvider, Effect, Either } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { appConfig } from "../../../app/config.ts"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, guest, ok } from "../bookings/helpers.ts"

/** A stand-in for an OpenAI-compatible chat completions API on loopback: records each request, answers what it is told. */
let model: Server
let modelUrl: string
const asked: Array<{ auth: string | undefined; body: any }> = []
let answer: (n: number) => { status: number; body: unknown } = () => ({
  status: 200,
  body: { choices: [{ message: { content: "Yes, towels are provided." } }] }
})

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  model = createServer((req, res) => {
    let raw = ""
    req.on("data", (c) => (raw += c))
    req.on("end", () => {
      if (req.url !== "/v1/chat/completions" || req.method !== "POST") return res.writeHead(404).end()
      asked.push({ auth: req.headers.authorization, body: JSON.parse(raw) })
      const { status, body } = answer(asked.length)
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
    })
  })
  await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve))
  modelUrl = `http://127.0.0.1:${(model.address() as { port: number }).port}/v1`
  app = await startApp({ drafts: { url: modelUrl, model: "test-model", apiKey: "sk-test" } })
  org = await bookingsOrg(app)
})
afterAll(async () => {
  await app?.close()
  await new Promise((resolve) => model?.close(resolve))
})

const bookAndWrite = async (who: string, text: string) => {
  const { offering, session } = await org.classWithSession({ name: "Surf lesson" })
  const b = ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: guest(who) }), 201)
  ok(await org.call("POST", "/messages", { booking_id: b.id, body: "See you on the beach at nine." }), 201)
  const handle = await org.handle(b.id)
  const written = ok(await app.call(null, "POST", `/api/v1/guest/${handle}/messages`, { body: text }), 201)
  return { booking: b, written }
}
const drafted = async (bookingId: string) =>
  (await org.events("message.drafted")).filter((e) => e.data.booking_id === bookingId)
const draftRow = async (inReplyTo: string) =>
  (
    await sql(
      app,
      (s) =>
        s<{
          status: string
          attempts: number
          error: string | null
        }>`select status, attempts, error from message_drafts where in_reply_to = ${inReplyTo}`
    )
  )[0]

describe("message.drafted (a drafter configured)", () => {
  it("a guest's message gets a reply drafted from the conversation, announced once, and nothing is sent", async () => {
    asked.length = 0
    answer = () => ({ status: 200, body: { choices: [{ message: { content: "  Yes, towels are provided.  " } }] } })
    const { booking, written } = await bookAndWrite("d1", "Do I need to bring a towel?")
    await app.advance(1)
    const events = await drafted(booking.id)
    expect(events).toHaveLength(1)
    expect(events[0].data).toMatchObject({
      in_reply_to: written.id,
      booking_id: booking.id,
      customer_id: booking.customer_id,
      body: "Yes, towels are provided.",
      channel: "email"
    })
    expect(asked).toHaveLength(1)
    expect(asked[0].auth).toBe("Bearer sk-test")
    expect(asked[0].body.model).toBe("test-model")
    const turns = asked[0].body.messages as Array<{ role: string; content: string }>
    expect(turns[0].role).toBe("system")
    expect(turns[0].content).toContain(booking.reference)
    expect(turns[0].content).toContain("Surf lesson")
    expect(turns.slice(1)).toEqual([
      { role: "assistant", content: "See you on the beach at nine." },
      { role: "user", content: "Do I need to bring a towel?" }
    ])
    // Nothing reached the guest: the thread holds only what was written, and no mail carries the draft.
    const thread = ok(await org.call("GET", `/messages?booking_id=${booking.id}`)).data as Array<{ body: string }>
    expect(thread.map((m) => m.body)).toEqual(["See you on the beach at nine.", "Do I need to bring a towel?"])
    const mails = await sql(
      app,
      (s) => s<{ n: number }>`select count(*)::int as n from mail_outbox where body like '%towels are provided%'`
    )
    expect(mails[0].n).toBe(0)
    await app.advance(120)
    expect(await drafted(booking.id)).toHaveLength(1)
    expect(asked).toHaveLength(1)
  })

  it("a failing model is tried again later, then given up; a refusal is given up at once; no event for either", async () => {
    asked.length = 0
    answer = () => ({ status: 503, body: { error: { message: "overloaded" } } })
    const flaky = await bookAndWrite("d2", "Is there parking?")
    await app.advance(1)
    expect(await draftRow(flaky.written.id)).toMatchObject({ status: "pending", attempts: 1 })
    answer = (n) =>
      n < 3
        ? { status: 503, body: {} }
        : { status: 200, body: { choices: [{ message: { content: "There is parking behind the shop." } }] } }
    await app.advance(61)
    expect((await draftRow(flaky.written.id)).attempts).toBe(2)
    await app.advance(301)
    expect(await draftRow(flaky.written.id)).toMatchObject({ status: "drafted", attempts: 3 })
    expect((await drafted(flaky.booking.id)).map((e) => e.data.body)).toEqual(["There is parking behind the shop."])

    asked.length = 0
    answer = () => ({ status: 401, body: { error: { message: "bad key" } } })
    const refused = await bookAndWrite("d3", "Can I bring my dog?")
    await app.advance(1)
    const row = await draftRow(refused.written.id)
    expect(row.status).toBe("failed")
    expect(row.error).toContain("401")
    await app.advance(7200)
    expect(asked).toHaveLength(1)
    expect(await drafted(refused.booking.id)).toHaveLength(0)
  })
})

describe("message.drafted (no drafter)", () => {
  it("is off: no draft is asked for and no event emitted", async () => {
    const plain = await startApp()
    try {
      const o = await bookingsOrg(plain)
      const { offering, session } = await o.classWithSession({})
      const b = ok(await o.book({ offering_id: offering.id, session_id: session.id, customer: guest("d4") }), 201)
      ok(await plain.call(null, "POST", `/api/v1/guest/${await o.handle(b.id)}/messages`, { body: "Hello?" }), 201)
      await plain.advance(1)
      expect(await o.events("message.drafted")).toHaveLength(0)
      const rows = await sql(plain, (s) => s<{ n: number }>`select count(*)::int as n from message_drafts`)
      expect(rows[0].n).toBe(0)
    } finally {
      await plain.close()
    }
  })
})

describe("drafting settings", () => {
  const read = (env: Record<string, string>) =>
    Effect.runSync(
      Effect.either(
        Effect.withConfigProvider(
          Effect.map(appConfig, (c) => c.drafts),
          ConfigProvider.fromMap(new Map(Object.entries(env)))
        )
      )
    )
  it("DRAFTS_URL with DRAFTS_MODEL turns drafting on; either alone or a bad URL is one clear error; nothing is off", () => {
    expect(read({})).toEqual(Either.right(undefined))
    expect(read({ DRAFTS_URL: "http://127.0.0.1:11434/v1", DRAFTS_MODEL: "llama3.2" })).toEqual(
      Either.right({ url: "http://127.0.0.1:11434/v1", model: "llama3.2", apiKey: undefined })
    )
    const noModel = read({ DRAFTS_URL: "https://api.openai.com/v1" })
    expect(Either.isLeft(noModel) && String(noModel.left)).toContain("DRAFTS_URL needs DRAFTS_MODEL")
    const badUrl = read({ DRAFTS_URL: "api.openai.com", DRAFTS_MODEL: "m" })
    expect(Either.isLeft(badUrl) && String(badUrl.left)).toContain("DRAFTS_URL must be an http(s) URL")
  })
})
