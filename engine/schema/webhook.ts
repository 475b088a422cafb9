import { Schema } from "effect"
import { strict, Text } from "./common.ts"

/** Every event type of the spec's event table; an endpoint subscribes to a non-empty set of these. */
export const EVENT_TYPES = [
  "booking.held",
  "booking.nudged",
  "booking.confirmed",
  "booking.moved",
  "booking.called_off",
  "booking.session_cancelled",
  "booking.paid",
  "booking.unpaid",
  "booking.checked_in",
  "booking.no_show",
  "booking.attendance_cleared",
  "booking.cancelled",
  "booking.refunded",
  "booking.refund_failed",
  "message.sent",
  "message.received",
  "message.drafted",
  "session.created",
  "session.cancelled",
  "closure.created",
  "closure.deleted",
  "offering.created",
  "offering.updated",
  "offering.deleted",
  "offering.hours_updated",
  "offering.calendar_updated",
  "waiver.signed",
  "waiver.updated",
  "waitlist.joined",
  "waitlist.left",
  "waitlist.opened",
  "customer.updated",
  "customer.deleted",
  "customers.imported",
  "gift_card.purchased",
  "gift_card.issued",
  "gift_card.adjusted",
  "gift_card.refunded",
  "promo_code.created",
  "promo_code.updated",
  "promo_code.deleted",
  "org.updated",
  "member.invited",
  "member.invite_revoked",
  "member.joined",
  "member.updated",
  "member.removed"
] as const
export const isEventType = (type: string): boolean => (EVENT_TYPES as ReadonlyArray<string>).includes(type)

/** Active webhook endpoints per org (spec Limits). */
export const MAX_ACTIVE_WEBHOOKS = 50

export const WebhookCreate = Schema.Struct({
  url: Text(1, 2048).annotations({
    description: "An https URL (http and private addresses only with WEBHOOK_ALLOW_INSECURE=1)"
  }),
  events: Schema.Array(Text(0, 80))
    .pipe(Schema.minItems(1), Schema.maxItems(EVENT_TYPES.length))
    .annotations({ description: "Event types from the event catalogue (at least one)" })
}).annotations({
  ...strict,
  examples: [{ url: "https://hooks.example.com/booking-engine", events: ["booking.confirmed", "booking.cancelled"] }]
})
export type WebhookCreate = typeof WebhookCreate.Type

export const WebhookEndpoint = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  events: Schema.Array(Schema.String).annotations({ description: "The event types it receives" }),
  active: Schema.Boolean.annotations({
    description: "false once switched off: it answered 410, or the API key that made it was revoked"
  }),
  api_key_id: Schema.NullOr(Schema.String).annotations({
    description:
      "The API key that made it (revoking that key switches it off); null when a person made it in the console"
  }),
  last_status: Schema.NullOr(Schema.Int).annotations({
    description: "HTTP status of the last attempt; null when it had no answer"
  }),
  last_error: Schema.NullOr(Schema.String).annotations({
    description: "Why the last attempt failed, or why it is off; null after a 2xx"
  }),
  last_delivery_at: Schema.NullOr(Schema.String),
  created_at: Schema.String
}).annotations({ identifier: "WebhookEndpoint" })
export type WebhookEndpoint = typeof WebhookEndpoint.Type

/** webhooks.create answers with the signing secret, shown this once. */
export const WebhookCreated = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  events: Schema.Array(Schema.String),
  active: Schema.Boolean,
  secret: Schema.String,
  api_key_id: Schema.NullOr(Schema.String),
  created_at: Schema.String
}).annotations({ identifier: "WebhookCreated" })

export const WebhookDelivery = Schema.Struct({
  event_id: Schema.Int,
  status: Schema.NullOr(Schema.Int),
  duration_ms: Schema.Int,
  error: Schema.NullOr(Schema.String),
  at: Schema.String
}).annotations({ identifier: "WebhookDelivery" })
export type WebhookDelivery = typeof WebhookDelivery.Type

export const Redeliver = Schema.Struct({ event_id: Schema.Int.pipe(Schema.positive()) }).annotations({
  ...strict,
  examples: [{ event_id: 1042 }]
})
export const WebhookDeleted = Schema.Struct({ id: Schema.String, deleted: Schema.Boolean })
