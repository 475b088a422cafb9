import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Mail } from "../../../engine/services/mail/Mail.ts"
import { BATCH } from "../../../engine/services/mail/outbox.ts"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { runEngine } from "../../support/engine.ts"
import { enqueue, outbox } from "./helpers.ts"

let app: TestApp
let org: { id: string; key: string }
beforeAll(async () => {
  app = await startApp()
  org = await app.newOrg()
})
afterAll(() => app.close())

const rowsTo = (address: string) =>
  sql(app, (s) => s<{ id: string }>`select id from mail_outbox where to_address = ${address}`)
const queued = (id: string) => sql(app, (s) => s<{ due_at: Date }>`select due_at from mail_queue where mail_id = ${id}`)

describe("the mail outbox", () => {
  it("sends through the log mailer by default and marks the mail sent", async () => {
    const id = await enqueue(app, org.id, {
      to: "logged@example.com",
      subject: "Hello",
      text: "Hi there",
      kind: "test"
    })
    expect(await outbox(app, id)).toMatchObject({ attempts: 0, sent_at: null })
    expect(await queued(id)).toHaveLength(1)
    await app.advance(1)
    expect(await outbox(app, id)).toMatchObject({ attempts: 1, sent_at: expect.any(Date), next_at: null })
    expect(await queued(id)).toEqual([])
  })

  it("leaves a mail another instance leased alone until the lease ends, then sends it once", async () => {
    const id = await enqueue(app, org.id, {
      to: "leased@example.com",
      subject: "Leased",
      text: "Held by another",
      kind: "test"
    })
    // What another instance's claim does: the mail is due again when its lease (10 minutes) ends.
    await sql(app, (s) => s`update mail_queue set due_at = due_at + interval '600 seconds' where mail_id = ${id}`)
    await app.advance(1)
    expect(await outbox(app, id)).toMatchObject({ attempts: 0, sent_at: null })
    await app.advance(590)
    expect(await outbox(app, id)).toMatchObject({ attempts: 0, sent_at: null })
    await app.advance(10)
    expect(await outbox(app, id)).toMatchObject({ attempts: 1, sent_at: expect.any(Date) })
    expect(await queued(id)).toEqual([])
    await app.advance(1200)
    expect((await outbox(app, id)).attempts).toBe(1)
  })

  it("sends more than one batch in a pass: what is due goes out, not 50 a pass", async () => {
    const ids = await runEngine(
      app,
      Effect.flatMap(Mail, (m) =>
        Effect.forEach(
          Array.from({ length: 2 * BATCH + 7 }, (_, i) => i),
          (i) => m.enqueue(org.id, { to: `many-${i}@example.com`, subject: "Many", text: "One of many", kind: "test" })
        )
      )
    )
    expect(ids).toHaveLength(2 * BATCH + 7)
    const unsent = () =>
      sql(
        app,
        (s) =>
          s<{
            n: number
          }>`select count(*)::int as n from mail_outbox where to_address like 'many-%' and sent_at is null`
      )
    expect((await unsent())[0].n).toBe(2 * BATCH + 7)
    await app.advance(1)
    expect((await unsent())[0].n).toBe(0)
  })

  it("writes in the caller's transaction: a rollback leaves no mail", async () => {
    const attempt = Effect.gen(function* () {
      const s = yield* SqlClient.SqlClient
      const mail = yield* Mail
      yield* Effect.gen(function* () {
        yield* mail.enqueue(org.id, { to: "rolled@example.com", subject: "No", text: "No", kind: "test" })
        return yield* Effect.fail("the booking failed")
      }).pipe(s.withTransaction)
    })
    await expect(runEngine(app, attempt)).rejects.toThrow()
    expect(await rowsTo("rolled@example.com")).toEqual([])
  })

  it("forgets the mail of a customer who is erased", async () => {
    const customer = (await app.call(org.key, "POST", "/api/v1/customers", { email: "Private@example.com" })).body
    const id = await enqueue(app, org.id, {
      to: "private@example.com",
      subject: "Pending",
      text: "Personal",
      kind: "test"
    })
    await app.call(org.key, "DELETE", `/api/v1/customers/${customer.id}`)
    expect(await rowsTo("private@example.com")).toEqual([])
    expect(await queued(id)).toEqual([])
  })
})
