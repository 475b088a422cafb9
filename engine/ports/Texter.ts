import { Context, Data, type Effect } from "effect"

export interface OutgoingText {
  /** E.164. */
  readonly to: string
  readonly body: string
  /** Where the provider reports delivery (Twilio's StatusCallback); none for the log. */
  readonly statusCallback?: string | undefined
}

/** What the provider answered for a text it took: its id, and whether it already counts as delivered (the log). */
export interface SentText {
  readonly id: string
  readonly delivered: boolean
}

/**
 * The provider refused the text or could not be reached. permanent: it will never take this one (an invalid number, a
 * number that opted out with the carrier), so it is not retried; optedOut: the carrier says the guest replied STOP.
 */
export class TextFailed extends Data.TaggedError("TextFailed")<{
  readonly message: string
  readonly permanent: boolean
  readonly optedOut?: boolean | undefined
}> {}

/** Where texts go once the outbox hands them over: Twilio, or the log (the default). */
export class Texter extends Context.Tag("Texter")<
  Texter,
  {
    readonly provider: "log" | "twilio"
    readonly send: (text: OutgoingText) => Effect.Effect<SentText, TextFailed>
    /**
     * Whether a request the provider posted (an incoming text, a status report) is really from it: Twilio's
     * X-Twilio-Signature over the URL it called and the form's fields. Undefined: the adapter takes no requests.
     */
    readonly verify?: ((signature: string, url: string, params: Record<string, string>) => boolean) | undefined
  }
>() {}
