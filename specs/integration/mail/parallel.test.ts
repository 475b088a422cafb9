import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Mailer } from "../../../engine/ports/Mailer.ts"
import { Mail } from "../../../engine/services/mail/Mail.ts"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { runEngine } from "../../support/engine.ts"
import { enqueue } from "./helpers.ts"

let app: TestApp
let org: { id: string; key: string }
beforeAll(async () => {
  app = await startApp()
  org = await app.newOrg()
})
afterAll(() => app.close())

/** A mailer that waits a moment on each send and counts how many sends were in flight at once. */
const counting = (parallel: number | undefined) => {
  const seen = { inFlight: 0, most: 0, sent: [] as Array<string> }
  const layer = Layer.succeed(Mailer, {
    send: (mail) =>
      Effect.gen(function* () {
        seen.inFlight++
        seen.most = Math.max(seen.most, seen.inFlight)
        yield* Effect.sleep("20 millis")
        seen.inFlight--
        seen.sent.push(mail.to)
      }),
    ...(parallel === undefined ? {} : { parallel })
  })
  return { seen, layer }
}

// Its own Mail service (with its own job registry) over the app's database and clock, sending through `layer`.
const sendDue = (layer: Layer.Layer<Mailer>) =>
  runEngine(app, Effect.flatMap(Mail, (m) => m.sendDue).pipe(Effect.provide(Mail.Default.pipe(Layer.provide(layer)))))

describe("how many mails the outbox sends at once", () => {
  it.each([
    { says: "nothing (the default)", parallel: undefined, most: 4 },
    { says: "2", parallel: 2, most: 2 },
    { says: "1 (as the log mailer does)", parallel: 1, most: 1 }
  ])(
    "a mailer that says $says has at most $most sends in flight, and every mail is sent",
    async ({ parallel, most }) => {
      const prefix = `parallel-${parallel ?? "default"}-`
      for (let i = 0; i < 9; i++)
        await enqueue(app, org.id, { to: `${prefix}${i}@example.com`, subject: "Hi", text: "Hello", kind: "test" })
      const { seen, layer } = counting(parallel)
      await sendDue(layer)
      expect(seen.most).toBe(most)
      expect(seen.sent.filter((to) => to.startsWith(prefix)).sort()).toEqual(
        Array.from({ length: 9 }, (_, i) => `${prefix}${i}@example.com`)
      )
      const unsent = await sql(
        app,
        (s) =>
          s<{
            n: number
          }>`select count(*)::int as n from mail_outbox where to_address like ${`${prefix}%`} and sent_at is null`
      )
      expect(unsent[0].n).toBe(0)
    }
  )
})
