import { Context } from "effect"
import { RETRY_INTERVAL_MS } from "../../machines/webhookEndpoint.ts"
import { LOG_SIZE } from "../../store/webhooks.ts"

export { LOG_SIZE, RETRY_INTERVAL_MS }

/** Webhook settings from the app's config (WEBHOOK_ALLOW_INSECURE); the time-out is the spec's 5 seconds. */
export class WebhookSettings extends Context.Tag("WebhookSettings")<
  WebhookSettings,
  {
    /** Allows http and loopback/private addresses: development and tests only. */
    readonly allowInsecure: boolean
    /** No answer within this long stops delivery at the event. */
    readonly timeoutMs: number
  }
>() {}

export const DEFAULT_TIMEOUT_MS = 5_000
/** Events per run of one endpoint. */
export const RUN_SIZE = 50
