import { assertEvent, assign, setup } from "xstate"
import { type Decision, decide, type Refusals, type Row, start } from "./decide.ts"

// Webhook endpoint lifecycle (spec "Webhooks"). `failing` = delivery stopped at an event; the dispatcher retries with
// the next event and every 5 minutes until a 2xx. `off` (active false) only accepts delete. No outbox events.

export interface WebhookEndpointContext {
  readonly last_status: number | null
  readonly last_error: string | null
  readonly failing_since: string | null
  readonly attempts: number
  readonly off_at: string | null
}

/** A failing endpoint is retried this long after its last failure (and on its org's next event). */
export const RETRY_INTERVAL_MS = 5 * 60_000

type At = { readonly at: string }
export type WebhookEndpointEvent =
  | ({ readonly type: "delivered"; readonly status: number } & At)
  | ({ readonly type: "failed"; readonly status: number | null; readonly error: string } & At)
  | ({ readonly type: "gone" } & At)
  | ({ readonly type: "key_revoked" } & At)
  | ({ readonly type: "delete" } & At)

export const webhookEndpointMachine = setup({
  types: { context: {} as WebhookEndpointContext, events: {} as WebhookEndpointEvent },
  actions: {
    recordDelivered: assign(({ event }) => {
      assertEvent(event, "delivered")
      return { last_status: event.status, last_error: null, failing_since: null, attempts: 0 }
    }),
    recordFailure: assign(({ context, event }) => {
      assertEvent(event, "failed")
      return {
        last_status: event.status,
        last_error: event.error,
        failing_since: context.failing_since ?? event.at,
        attempts: context.attempts + 1
      }
    }),
    recordGone: assign({
      last_status: 410,
      last_error: "410 Gone: endpoint switched off",
      off_at: ({ event }) => event.at
    }),
    recordKeyRevoked: assign({ last_error: "API key revoked: endpoint switched off", off_at: ({ event }) => event.at })
  }
}).createMachine({
  id: "webhookEndpoint",
  context: { last_status: null, last_error: null, failing_since: null, attempts: 0, off_at: null },
  initial: "active",
  states: {
    active: {
      on: {
        delivered: { target: "active", actions: "recordDelivered" },
        failed: { target: "failing", actions: "recordFailure" },
        gone: { target: "off", actions: "recordGone" },
        key_revoked: { target: "off", actions: "recordKeyRevoked" },
        delete: { target: "deleted" }
      }
    },
    failing: {
      on: {
        delivered: { target: "active", actions: "recordDelivered" },
        failed: { target: "failing", actions: "recordFailure" },
        gone: { target: "off", actions: "recordGone" },
        key_revoked: { target: "off", actions: "recordKeyRevoked" },
        delete: { target: "deleted" }
      }
    },
    off: { on: { delete: { target: "deleted" } } },
    deleted: { type: "final" }
  }
})

export const webhookEndpointMessages = {
  endpoint_off: "The webhook endpoint is switched off",
  endpoint_deleted: "The webhook endpoint was deleted"
} as const

export type WebhookEndpointCode = keyof typeof webhookEndpointMessages
export const webhookEndpointCodes = Object.keys(webhookEndpointMessages) as ReadonlyArray<WebhookEndpointCode>

export const webhookEndpointRefusals: Refusals<WebhookEndpointCode, WebhookEndpointEvent["type"]> = {
  messages: webhookEndpointMessages,
  guards: {},
  states: { off: { "*": "endpoint_off" }, deleted: { "*": "endpoint_deleted" } },
  otherwise: "endpoint_off"
}

export type WebhookEndpointRow = Row<typeof webhookEndpointMachine>
export type WebhookEndpointState = WebhookEndpointRow["value"]
export type WebhookEndpointDecision = Decision<typeof webhookEndpointMachine, WebhookEndpointCode>

export const startWebhookEndpoint = () => start(webhookEndpointMachine)
export const decideWebhookEndpoint = (row: WebhookEndpointRow, event: WebhookEndpointEvent): WebhookEndpointDecision =>
  decide(webhookEndpointMachine, webhookEndpointRefusals, row, event)

/** The `active` field of the endpoint resource. */
export const webhookEndpointActive = (state: WebhookEndpointState): boolean => state === "active" || state === "failing"
