import { Effect, Layer } from "effect"
import { Mailer } from "../../engine/ports/Mailer.ts"
import { traced } from "../../engine/tracing.ts"

/** Without SMTP_URL: every mail becomes one log line (JSON with the app's JSON logger) and counts as sent. */
export const LogMailerLive = (from: string) =>
  Layer.succeed(Mailer, {
    send: (mail) =>
      Effect.logInfo("mail").pipe(
        Effect.annotateLogs({
          mail_from: from,
          mail_to: mail.to,
          mail_subject: mail.subject,
          mail_reply_to: mail.replyTo ?? null,
          mail_text: mail.text
        }),
        // Below LOG_LEVEL the line is not made at all (its annotations alone copy the fiber's refs).
        Effect.whenLogLevel("Info"),
        Effect.asVoid,
        traced("Mailer.send")
      ),
    // A log line does not wait on anything: mail goes one after another.
    parallel: 1
  })
