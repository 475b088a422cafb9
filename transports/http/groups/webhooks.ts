import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ListOf } from "../../../engine/schema/common.ts"
import {
  Redeliver,
  WebhookCreate,
  WebhookCreated,
  WebhookDeleted,
  WebhookDelivery,
  WebhookEndpoint
} from "../../../engine/schema/webhook.ts"
import { RequiredRole } from "../roles.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

export const WebhooksGroup = HttpApiGroup.make("webhooks")
  .annotate(RequiredRole, "owner")
  .annotate(OpenApi.Description, "Signed HTTPS deliveries of the org's events, in order, at least once.")
  .add(
    HttpApiEndpoint.post("create", "/webhooks")
      .setPayload(WebhookCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(WebhookCreated, { status: 201 })
      .annotate(
        OpenApi.Summary,
        "Create an HTTPS endpoint for the given event types; the signing secret is returned once"
      )
      .annotate(
        OpenApi.Description,
        "Creates an HTTPS endpoint for a non-empty list of event types (the event catalogue). It receives each as a signed POST (Service-Signature), in order, at least once, starting with the org's next event; the signing secret is in this answer only. At most 50 active endpoints per org (429 too_many_webhooks, no Retry-After). Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/webhooks")
      .addSuccess(ListOf(WebhookEndpoint))
      .annotate(OpenApi.Summary, "Webhook endpoints with their last status and last error")
      .annotate(
        OpenApi.Description,
        "The org's webhook endpoints with active, last_status, last_error and last_delivery_at. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/webhooks/${IdParam}`
      .addSuccess(WebhookEndpoint)
      .annotate(OpenApi.Summary, "Get a webhook endpoint")
      .annotate(OpenApi.Description, "One webhook endpoint. Emits nothing.")
  )
  .add(
    HttpApiEndpoint.del("delete")`/webhooks/${IdParam}`
      .addSuccess(WebhookDeleted)
      .annotate(OpenApi.Summary, "Delete a webhook endpoint and its delivery log")
      .annotate(OpenApi.Description, "Deletes an endpoint (active or off) and its delivery log. Emits nothing.")
  )
  .add(
    HttpApiEndpoint.get("deliveries")`/webhooks/${IdParam}/deliveries`
      .addSuccess(ListOf(WebhookDelivery))
      .annotate(OpenApi.Summary, "The endpoint's last 50 delivery attempts, newest first")
      .annotate(
        OpenApi.Description,
        "The endpoint's last 50 delivery attempts, newest first: event_id, status (null when no answer), duration_ms, error, at. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("redeliver")`/webhooks/${IdParam}/redeliver`
      .setPayload(Redeliver)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(WebhookDelivery)
      .annotate(OpenApi.Summary, "Send one past event of the org that the endpoint subscribes to again")
      .annotate(
        OpenApi.Description,
        "Sends one past event of the org that an active endpoint subscribes to again (404 for another event), between delivery runs, and answers the attempt; the cursor does not move. An endpoint that is off is 409 endpoint_off; one busy for more than 2 s 409 endpoint_busy. Emits nothing."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
