import type { WebhookDelivery, WebhookEndpoint } from "../../schema/webhook.ts"
import type { DeliveryRow, EndpointRow, EventRow } from "../../store/webhooks.ts"

export type { DeliveryRow, EndpointRow, EventRow }

export const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  events: r.events,
  active: r.state !== "off",
  api_key_id: r.api_key_id,
  last_status: r.context.last_status,
  last_error: r.context.last_error,
  last_delivery_at: r.last_delivery_at?.toISOString() ?? null,
  created_at: r.created_at.toISOString()
})

export const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  event_id: r.event_id,
  status: r.status,
  duration_ms: r.duration_ms,
  error: r.error,
  at: r.at.toISOString()
})

/** The body POSTed to an endpoint: `{ id, type, created_at, data }`. */
export const payloadOf = (e: EventRow): string =>
  JSON.stringify({ id: e.id, type: e.type, created_at: e.created_at.toISOString(), data: e.data })
