import { Context, type Effect } from "effect"

/** What one POST to an endpoint came to. status is null when no answer came; error is null only for a 2xx. */
export interface SendResult {
  readonly status: number | null
  readonly durationMs: number
  readonly error: string | null
}

/**
 * How the engine reaches webhook receivers. The transport signs the body (Service-Signature), refuses
 * forbidden addresses at connect time, never follows redirects and gives up after the time-out.
 */
export class WebhookSender extends Context.Tag("WebhookSender")<
  WebhookSender,
  {
    /** Why a URL may not be used for an endpoint, or null when it may. */
    readonly check: (url: string) => string | null
    readonly send: (input: {
      readonly url: string
      readonly secret: string
      readonly body: string
    }) => Effect.Effect<SendResult>
  }
>() {}
