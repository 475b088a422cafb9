import { Effect, Layer } from "effect"
import nodemailer from "nodemailer"
import { Mailer, MailFailed } from "../../engine/ports/Mailer.ts"
import { traced } from "../../engine/tracing.ts"

/** SMTP_URL (smtp://user:pass@host:port, smtps:// for TLS from the start) through nodemailer; one pooled transport. */
export const SmtpMailerLive = (url: string, from: string) =>
  Layer.scoped(
    Mailer,
    Effect.gen(function* () {
      const transport = yield* Effect.acquireRelease(
        Effect.sync(() =>
          nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 })
        ),
        (t) => Effect.sync(() => t.close())
      )
      return Mailer.of({
        send: (mail) =>
          Effect.tryPromise({
            try: () =>
              transport.sendMail({
                from,
                to: mail.to,
                subject: mail.subject,
                text: mail.text,
                html: mail.html,
                replyTo: mail.replyTo
              }),
            catch: (e) => new MailFailed({ message: e instanceof Error ? e.message : String(e) })
          }).pipe(Effect.asVoid, traced("Mailer.send"))
      })
    })
  )
