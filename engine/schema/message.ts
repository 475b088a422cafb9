import { Schema } from "effect"
import { strict, Text } from "./common.ts"

export const Message = Schema.Struct({
  id: Schema.String,
  booking_id: Schema.NullOr(Schema.String),
  customer_id: Schema.String,
  direction: Schema.Literal("outbound", "inbound"),
  channel: Schema.Literal("email", "system", "page", "text").annotations({
    description:
      "email, text (SMS), system (an automatic acknowledgement) or page (written on their booking page, or a question asked on the org's booking page before booking)"
  }),
  body: Schema.String,
  created_at: Schema.String,
  delivered_at: Schema.NullOr(Schema.String).annotations({
    description: "When the mail server accepted it (outbound email), or the carrier delivered it (text)"
  }),
  failed_at: Schema.NullOr(Schema.String).annotations({
    description: "When it bounced, or the text failed or was not sent"
  }),
  failure_reason: Schema.NullOr(Schema.String).annotations({
    description: "Why it failed, or why a text was not sent (the guest replied STOP)"
  }),
  segments: Schema.NullOr(Schema.Int).annotations({
    description:
      "A text's segments (each billed): 160 GSM-7 characters or 70 UCS-2 in one, 153 or 67 each once split; null for others"
  })
}).annotations({ identifier: "Message" })
export type Message = typeof Message.Type

export const MessagesQuery = Schema.Struct({
  booking_id: Schema.optional(Schema.UUID),
  customer_id: Schema.optional(Schema.UUID)
})
export const MessageSend = Schema.Struct({
  booking_id: Schema.optional(Schema.UUID),
  customer_id: Schema.optional(Schema.UUID),
  body: Text(1, 10_000),
  channel: Schema.optional(
    Schema.Literal("email", "text").annotations({
      description:
        "email, or text (SMS, to the guest's phone); unset: the org's preferred_channel (email for a guest without a phone)"
    })
  )
}).annotations({
  ...strict,
  identifier: "MessageSend",
  description: "To the guest of a booking, or to a customer: exactly one of booking_id and customer_id",
  examples: [{ booking_id: "5a7c9e1b-3d5f-4a8c-9e2b-4d6f8a0c2e41", body: "See you on Saturday: bring a towel." }]
})
export const MessagePage = Schema.Struct({ data: Schema.Array(Message) })
