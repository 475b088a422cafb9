import { Schema } from "effect"
import { strict, Text } from "./common.ts"

export const Message = Schema.Struct({
  id: Schema.String,
  booking_id: Schema.NullOr(Schema.String),
  customer_id: Schema.String,
  direction: Schema.Literal("outbound", "inbound"),
  channel: Schema.Literal("email", "system", "page").annotations({
    description: "email, system (an automatic acknowledgement) or page (written by the guest on their booking page)"
  }),
  body: Schema.String,
  created_at: Schema.String,
  delivered_at: Schema.NullOr(Schema.String).annotations({
    description: "When the mail server accepted it (outbound email)"
  }),
  failed_at: Schema.NullOr(Schema.String).annotations({ description: "When it bounced" }),
  failure_reason: Schema.NullOr(Schema.String)
}).annotations({ identifier: "Message" })
export type Message = typeof Message.Type

export const MessagesQuery = Schema.Struct({
  booking_id: Schema.optional(Schema.UUID),
  customer_id: Schema.optional(Schema.UUID)
})
export const MessageSend = Schema.Struct({
  booking_id: Schema.optional(Schema.UUID),
  customer_id: Schema.optional(Schema.UUID),
  body: Text(1, 10_000)
}).annotations({
  ...strict,
  identifier: "MessageSend",
  description: "To the guest of a booking, or to a customer: exactly one of booking_id and customer_id",
  examples: [{ booking_id: "5a7c9e1b-3d5f-4a8c-9e2b-4d6f8a0c2e41", body: "See you on Saturday: bring a towel." }]
})
export const MessagePage = Schema.Struct({ data: Schema.Array(Message) })
