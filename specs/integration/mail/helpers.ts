import { Effect } from "effect"
import { Mail, type NewMail } from "../../../engine/services/mail/Mail.ts"
import { sql, type TestApp } from "../../support/app.ts"
import { runEngine } from "../../support/engine.ts"

export const enqueue = (app: TestApp, orgId: string, mail: NewMail) =>
  runEngine(
    app,
    Effect.flatMap(Mail, (m) => m.enqueue(orgId, mail))
  )

export interface OutboxState {
  readonly attempts: number
  readonly sent_at: Date | null
  readonly failed_at: Date | null
  readonly next_at: Date | null
  readonly last_error: string | null
}

export const outbox = (app: TestApp, id: string) =>
  sql(
    app,
    (s) => s<OutboxState>`select attempts, sent_at, failed_at, next_at, last_error from mail_outbox where id = ${id}`
  ).then((r) => r[0])
