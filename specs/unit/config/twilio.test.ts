import { ConfigProvider, Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { appConfig } from "../../../app/config.ts"

const load = (env: Record<string, string>) => {
  const provider = ConfigProvider.fromMap(new Map(Object.entries(env)))
  return Effect.runSync(Effect.either(Effect.withConfigProvider(appConfig, provider)))
}
/** The one line a start that fails on it would print. */
const problem = (env: Record<string, string>) =>
  Either.match(load(env), { onLeft: (e) => String(e).replace(/\s+/g, " "), onRight: () => "no error" })

const SID = `AC${"ab".repeat(16)}`

describe("TWILIO_*", () => {
  it("unset (or blank): no Twilio, texts are logged", () => {
    expect(Either.map(load({}), (c) => c.twilio)).toEqual(Either.right(undefined))
    expect(Either.map(load({ TWILIO_ACCOUNT_SID: " ", TWILIO_AUTH_TOKEN: "" }), (c) => c.twilio)).toEqual(
      Either.right(undefined)
    )
  })

  it("takes the sender number as people type it, in E.164, or a messaging service", () => {
    expect(
      Either.map(
        load({ TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: "token", TWILIO_FROM: "+1 (415) 555-2671" }),
        (c) => c.twilio
      )
    ).toEqual(
      Either.right({
        accountSid: SID,
        authToken: "token",
        from: "+14155552671",
        messagingServiceSid: undefined,
        apiBaseUrl: undefined
      })
    )
    const service = `MG${"cd".repeat(16)}`
    expect(
      Either.map(
        load({ TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: "t", TWILIO_MESSAGING_SERVICE_SID: service }),
        (c) => c.twilio?.messagingServiceSid
      )
    ).toEqual(Either.right(service))
  })

  it("refuses what cannot work with one line naming the variable", () => {
    expect(problem({ TWILIO_ACCOUNT_SID: "nope", TWILIO_AUTH_TOKEN: "t", TWILIO_FROM: "+14155552671" })).toContain(
      "TWILIO_ACCOUNT_SID must be the account's SID"
    )
    expect(problem({ TWILIO_ACCOUNT_SID: SID, TWILIO_FROM: "+14155552671" })).toContain(
      "TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN go together"
    )
    expect(problem({ TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: "t" })).toContain("needs a sender")
    expect(problem({ TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: "t", TWILIO_FROM: "555-1234" })).toContain(
      "TWILIO_FROM must be a phone number with its country code"
    )
    expect(problem({ TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: "t", TWILIO_MESSAGING_SERVICE_SID: "MG1" })).toContain(
      "TWILIO_MESSAGING_SERVICE_SID must be"
    )
  })
})
