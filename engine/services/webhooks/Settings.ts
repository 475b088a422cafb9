import { Context } from "effect"

/** Webhook settings from the app's config (WEBHOOK_ALLOW_INSECURE); the time-out is the spec's 5 seconds. */
export class WebhookSettings extends Context.Tag("WebhookSettings")<WebhookSettings, {
  /** Allows http and loopback/private addresses: development and tests only. */
  readonly allowInsecure: boolean
  /** No answer within this long stops delivery at the event. */
  readonly timeoutMs: number
}>() {}

export const DEFAULT_TIMEOUT_MS = 5_000
/** A failing endpoint is retried this long after its last failure (and on its org's next event). */
export const RETRY_INTERVAL_MS = 5 * 60_000
/** Events per run of one endpoint. */
export const RUN_SIZE = 50
/** Delivery attempts kept per endpoint. */
export const LOG_SIZE = 50
