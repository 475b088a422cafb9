import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Mail } from "../../../engine/services/mail/Mail.ts"
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

describe("the mail outbox", () => {
  it("sends through the log mailer by default and marks the mail sent", async () => {
    const id = await enqueue(app, org.id, { to: "logged@example.com", subject: "Hello", text: "Hi there", kind: "test" })
    expect(await outbox(app, id)).toMatchObject({ attempts: 0, sent_at: null })
    await app.advance(1)
    expect(await outbox(app, id)).toMatchObject({ attempts: 1, sent_at: expect.any(Date) })
  })

  it("writes in the caller's transaction: a rollback leaves no mail", async () => {
    const attempt = Effect.gen(function*() {
      const s = yield* SqlClient.SqlClient
      const mail = yield* Mail
      yield* Effect.gen(function*() {
        yield* mail.enqueue(org.id, { to: "rolled@example.com", subject: "No", text: "No", kind: "test" })
        return yield* Effect.fail("the booking failed")
      }).pipe(s.withTransaction)
    })
    await expect(runEngine(app, attempt)).rejects.toThrow()
    expect(await rowsTo("rolled@example.com")).toEqual([])
  })

  it("forgets the mail of a customer who is erased", async () => {
    const customer = (await app.call(org.key, "POST", "/api/v1/customers", { email: "Private@example.com" })).body
    await enqueue(app, org.id, { to: "private@example.com", subject: "Pending", text: "Personal", kind: "test" })
    await app.call(org.key, "DELETE", `/api/v1/customers/${customer.id}`)
    expect(await rowsTo("private@example.com")).toEqual([])
  })
})
