import { Schema } from "effect"
import { Instant, Int, strict, Text } from "./common.ts"
import { Email } from "./customer.ts"

export const WaitlistEntry = Schema.Struct({
  id: Schema.String,
  offering_id: Schema.String,
  session_id: Schema.String,
  starts_at: Schema.String,
  customer: Schema.Struct({
    id: Schema.String,
    name: Schema.NullOr(Schema.String),
    email: Schema.NullOr(Schema.String)
  }),
  places: Schema.Int,
  created_at: Schema.String,
  told_at: Schema.NullOr(Schema.String).annotations({ description: "When the guest was told of the latest opening" }),
  ended_at: Schema.NullOr(Schema.String),
  end_reason: Schema.NullOr(Schema.Literal("removed", "left", "booked", "called_off", "closed"))
}).annotations({ identifier: "WaitlistEntry" })
export type WaitlistEntry = typeof WaitlistEntry.Type

export const WaitlistJoin = Schema.Struct({
  session_id: Schema.optional(Schema.UUID),
  offering_id: Schema.optional(Schema.UUID),
  starts_at: Schema.optional(Instant),
  places: Schema.optional(Int(1, 10000)),
  customer: Schema.Struct({ email: Email, name: Text(1, 120) }).annotations({
    ...strict,
    description: "Who waits: found in the org by email or added"
  })
}).annotations({
  ...strict,
  identifier: "WaitlistJoin",
  description: "A time by session_id, or by offering_id and starts_at",
  examples: [
    {
      session_id: "0b7e6c1a-3d2f-4c5e-9a8b-7c6d5e4f3a21",
      places: 2,
      customer: { email: "ada@example.com", name: "Ada Lovelace" }
    }
  ]
})

export const WaitlistQuery = Schema.Struct({
  offering_id: Schema.optional(Schema.UUID),
  session_id: Schema.optional(Schema.UUID)
})
export const WaitlistPage = Schema.Struct({ data: Schema.Array(WaitlistEntry) })
