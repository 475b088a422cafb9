import type { WebhookEndpointContext, WebhookEndpointRow } from "../../machines/webhookEndpoint.ts"
import type { WebhookDelivery, WebhookEndpoint } from "../../schema/webhook.ts"

export type StoredState = "active" | "failing" | "off"

export interface EndpointRow {
  readonly id: string
  readonly org_id: string
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly secret: string
  readonly api_key_id: string
  readonly state: StoredState
  readonly context: WebhookEndpointContext
  /** The last event id delivered (2xx) or skipped at creation; delivery resumes after it. */
  readonly cursor_id: number
  readonly retry_at: Date | null
  readonly last_delivery_at: Date | null
  readonly created_at: Date
}

export interface DeliveryRow {
  readonly event_id: number
  readonly status: number | null
  readonly duration_ms: number
  readonly error: string | null
  readonly at: Date
}

export interface EventRow {
  readonly id: number
  readonly type: string
  readonly data: unknown
  readonly created_at: Date
}

export const machineRow = (r: Pick<EndpointRow, "state" | "context">): WebhookEndpointRow => ({ value: r.state, context: r.context })

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
