import { Schema } from "effect"
import { described, Int, strict } from "./common.ts"

/** The engine's clock: its time, and whether it is the test clock (CLOCK=test), which moves only when told. */
export const Clock = Schema.Struct({
  now: Schema.String.annotations({ description: "The engine's time (UTC), the time every rule and job uses" }),
  test: Schema.Boolean.annotations({
    description:
      "true when the deployment runs the test clock (CLOCK=test): time stands still until moved with POST /clock"
  })
}).annotations({ identifier: "Clock" })

export const ClockAdvance = Schema.Struct(
  described(
    { advance_seconds: "How far to move the test clock forward, in seconds (0 to 400 days); it never goes back" },
    { advance_seconds: Int(0, 400 * 86400) }
  )
).annotations({
  ...strict,
  identifier: "ClockAdvance",
  examples: [{ advance_seconds: 3600 }, { advance_seconds: 86400 }]
})
