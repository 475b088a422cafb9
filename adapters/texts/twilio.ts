import { Effect, Layer } from "effect"
import twilio from "twilio"
import { Texter, TextFailed } from "../../engine/ports/Texter.ts"
import { traced } from "../../engine/tracing.ts"

export interface TwilioSettings {
  readonly accountSid: string
  readonly authToken: string
  /** The sender: a number of the account (TWILIO_FROM), or a messaging service (TWILIO_MESSAGING_SERVICE_SID). */
  readonly from?: string | undefined
  readonly messagingServiceSid?: string | undefined
  /** Where Twilio's REST API is (tests point the SDK at a local server that speaks its wire format). */
  readonly apiBaseUrl?: string | undefined
}

/** Twilio's error codes that mean this text will never go: the number opted out, or is not one that takes texts. */
const OPTED_OUT = new Set([21610])
const UNDELIVERABLE = new Set([21211, 21212, 21265, 21408, 21612, 21614, 21635])

const failureOf = (e: unknown): TextFailed => {
  const x = e as { status?: unknown; code?: unknown; message?: unknown }
  const status = typeof x.status === "number" ? x.status : undefined
  const code = typeof x.code === "number" ? x.code : undefined
  const message = `${typeof x.message === "string" ? x.message : String(e)}${code === undefined ? "" : ` (Twilio ${code})`}`
  if (code !== undefined && OPTED_OUT.has(code)) return new TextFailed({ message, permanent: true, optedOut: true })
  // A refusal of this text (4xx other than throttling) is not retried; a 5xx, a throttle or no answer is.
  const permanent =
    (code !== undefined && UNDELIVERABLE.has(code)) ||
    (status !== undefined && status >= 400 && status < 500 && status !== 429)
  return new TextFailed({ message, permanent })
}

/** Twilio's Programmable Messaging through its own SDK: a text is a Message resource; inbound requests are signed. */
export const TwilioTexterLive = (settings: TwilioSettings) =>
  Layer.sync(Texter, () => {
    const client = twilio(settings.accountSid, settings.authToken, { timeout: 15_000 })
    if (settings.apiBaseUrl !== undefined) client.api.baseUrl = settings.apiBaseUrl
    const sender =
      settings.messagingServiceSid !== undefined
        ? { messagingServiceSid: settings.messagingServiceSid }
        : { from: settings.from }
    return Texter.of({
      provider: "twilio",
      send: (text) =>
        Effect.tryPromise({
          try: () =>
            client.messages.create({
              to: text.to,
              body: text.body,
              ...sender,
              ...(text.statusCallback === undefined ? {} : { statusCallback: text.statusCallback })
            }),
          catch: failureOf
        }).pipe(
          Effect.map((m) => ({ id: m.sid, delivered: m.status === "delivered" })),
          traced("Texter.send")
        ),
      verify: (signature, url, params) => twilio.validateRequest(settings.authToken, signature, url, params)
    })
  })
