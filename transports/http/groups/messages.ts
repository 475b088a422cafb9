import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Message, MessagePage, MessageSend, MessagesQuery } from "../../../engine/schema/message.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders } from "./common.ts"

export const MessagesGroup = HttpApiGroup.make("messages")
  .annotate(
    OpenApi.Description,
    "Conversations with guests by email and text (SMS); replies, texts and questions from the booking page come back into the same thread."
  )
  .add(
    HttpApiEndpoint.get("list", "/messages")
      .setUrlParams(MessagesQuery)
      .addSuccess(MessagePage)
      .annotate(
        OpenApi.Summary,
        "A conversation with a guest, about a booking (booking_id) or not (customer_id), oldest first"
      )
      .annotate(
        OpenApi.Description,
        "One conversation, oldest first: about a booking (booking_id) or with a customer (customer_id); exactly one of them (400 invalid_conversation). Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("send", "/messages")
      .setPayload(MessageSend)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Message, { status: 201 })
      .annotate(OpenApi.Summary, "Email or text a guest; their reply comes back into the same conversation")
      .annotate(
        OpenApi.Description,
        "Emails or texts the guest of a booking, or a customer; their reply comes back into the same conversation (message.received). channel text goes to the guest's phone (400 no_phone without one); unset, the org's preferred_channel decides (email for a guest without a phone). A text shows its segments; a text to a guest who replied STOP is not sent: the message is answered with failed_at and the reason, and emits nothing. Refused for an erased guest (400 customer_erased). Emits message.sent."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
