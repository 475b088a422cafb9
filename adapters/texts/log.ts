import { randomUUID } from "node:crypto"
import { Effect, Layer } from "effect"
import { Texter } from "../../engine/ports/Texter.ts"
import { traced } from "../../engine/tracing.ts"

/**
 * Without Twilio: every text becomes one log line and counts as delivered at once. The texts stay readable in the
 * outbox (GET /admin/v1/texts?to=+31…), as logged mail does at /admin/v1/mail.
 */
export const LogTexterLive = Layer.succeed(Texter, {
  provider: "log",
  send: (text) =>
    Effect.logInfo("text").pipe(
      Effect.annotateLogs({ text_to: text.to, text_body: text.body }),
      Effect.whenLogLevel("Info"),
      Effect.as({ id: `log_${randomUUID()}`, delivered: true }),
      traced("Texter.send")
    )
})
