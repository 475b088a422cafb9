import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ListOf } from "../../../engine/schema/common.ts"
import { Redeliver, WebhookCreate, WebhookCreated, WebhookDeleted, WebhookDelivery, WebhookEndpoint } from "../../../engine/schema/webhook.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

export const WebhooksGroup = HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("create", "/webhooks")
      .setPayload(WebhookCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(WebhookCreated, { status: 201 })
      .annotate(OpenApi.Summary, "Create an HTTPS endpoint for the given event types; the signing secret is returned once")
  )
  .add(
    HttpApiEndpoint.get("list", "/webhooks")
      .addSuccess(ListOf(WebhookEndpoint))
      .annotate(OpenApi.Summary, "Webhook endpoints with their last status and last error")
  )
  .add(HttpApiEndpoint.get("get")`/webhooks/${IdParam}`.addSuccess(WebhookEndpoint).annotate(OpenApi.Summary, "Get a webhook endpoint"))
  .add(
    HttpApiEndpoint.del("delete")`/webhooks/${IdParam}`
      .addSuccess(WebhookDeleted)
      .annotate(OpenApi.Summary, "Delete a webhook endpoint and its delivery log")
  )
  .add(
    HttpApiEndpoint.get("deliveries")`/webhooks/${IdParam}/deliveries`
      .addSuccess(ListOf(WebhookDelivery))
      .annotate(OpenApi.Summary, "The endpoint's last 50 delivery attempts, newest first")
  )
  .add(
    HttpApiEndpoint.post("redeliver")`/webhooks/${IdParam}/redeliver`
      .setPayload(Redeliver)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(WebhookDelivery)
      .annotate(OpenApi.Summary, "Send one past event of the org that the endpoint subscribes to again")
  )
  .middleware(Authentication)
  .prefix("/api/v1")
