import { Config, Option } from "effect"
import type { TwilioSettings } from "../adapters/texts/twilio.ts"
import { toE164 } from "../engine/schema/phone.ts"
import { text } from "./configKinds.ts"

/**
 * TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN, and the sender: TWILIO_FROM (a number of the account, typed any way) or
 * TWILIO_MESSAGING_SERVICE_SID. TWILIO_API_URL points the SDK at another base URL (a proxy, or a test's server).
 * None set: texts are logged (undefined).
 */
export const twilioConfig: Config.Config<TwilioSettings | undefined> = Config.all({
  sid: text("twilio.accountSid"),
  token: text("twilio.authToken"),
  from: text("twilio.from"),
  service: text("twilio.messagingServiceSid"),
  api: text("twilio.apiUrl")
}).pipe(
  Config.validate({
    message: "TWILIO_ACCOUNT_SID must be the account's SID: AC followed by 32 hex digits",
    validation: (c) => Option.isNone(c.sid) || /^AC[0-9a-f]{32}$/i.test(c.sid.value)
  }),
  Config.validate({
    message: "TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN go together: set both, or neither (texts are then logged)",
    validation: (c) => Option.isSome(c.sid) === Option.isSome(c.token)
  }),
  Config.validate({
    message:
      "TWILIO_ACCOUNT_SID needs a sender: TWILIO_FROM (a number of the account, such as +1 415 555 2671) or TWILIO_MESSAGING_SERVICE_SID (MG…)",
    validation: (c) => Option.isNone(c.sid) || Option.isSome(c.from) || Option.isSome(c.service)
  }),
  Config.validate({
    message: "TWILIO_FROM must be a phone number with its country code, such as +1 415 555 2671",
    validation: (c) => Option.isNone(c.from) || toE164(c.from.value) !== undefined
  }),
  Config.validate({
    message: "TWILIO_MESSAGING_SERVICE_SID must be a messaging service's SID: MG followed by 32 hex digits",
    validation: (c) => Option.isNone(c.service) || /^MG[0-9a-f]{32}$/i.test(c.service.value)
  }),
  Config.validate({
    message: "TWILIO_API_URL must be an http(s) URL",
    validation: (c) => Option.isNone(c.api) || /^https?:\/\/\S+$/.test(c.api.value)
  }),
  Config.map((c) =>
    Option.isSome(c.sid) && Option.isSome(c.token)
      ? {
          accountSid: c.sid.value,
          authToken: c.token.value,
          from: Option.isSome(c.from) ? toE164(c.from.value) : undefined,
          messagingServiceSid: Option.getOrUndefined(c.service),
          apiBaseUrl: Option.getOrUndefined(c.api)?.replace(/\/+$/, "")
        }
      : undefined
  )
)
