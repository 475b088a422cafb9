import { Context, Data, type Effect } from "effect"

export interface OutgoingMail {
  readonly to: string
  readonly subject: string
  readonly text: string
  /** An HTML part next to the text one. */
  readonly html?: string | undefined
  readonly replyTo?: string | undefined
}

/** The mail server refused or could not be reached; the outbox retries with backoff. */
export class MailFailed extends Data.TaggedError("MailFailed")<{ readonly message: string }> {}

/** Where mail goes once the outbox hands it over: SMTP, or the log (the default). */
export class Mailer extends Context.Tag("Mailer")<
  Mailer,
  {
    readonly send: (mail: OutgoingMail) => Effect.Effect<void, MailFailed>
    /**
     * How many sends the outbox runs at once; default 4, for a mailer that waits on a server. One that returns without
     * waiting (the log) says 1: running sends side by side forks a fiber for each, 30-50 µs of CPU a mail for nothing.
     */
    readonly parallel?: number | undefined
  }
>() {}
