import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Message, MessagePage, MessageSend, MessagesQuery } from "../../../engine/schema/message.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders } from "./common.ts"

export const MessagesGroup = HttpApiGroup.make("messages")
  .add(
    HttpApiEndpoint.get("list", "/messages")
      .setUrlParams(MessagesQuery)
      .addSuccess(MessagePage)
      .annotate(OpenApi.Summary, "A conversation with a guest, about a booking (booking_id) or not (customer_id), oldest first")
  )
  .add(
    HttpApiEndpoint.post("send", "/messages")
      .setPayload(MessageSend)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Message, { status: 201 })
      .annotate(OpenApi.Summary, "Email a guest; their reply comes back into the same conversation")
  )
  .middleware(Authentication)
  .prefix("/api/v1")
