import { Layer } from "effect"
import { Jobs } from "../../engine/services/Jobs.ts"
import { WebhookDispatch } from "../../engine/services/webhooks/Dispatch.ts"
import { DEFAULT_TIMEOUT_MS, WebhookSettings } from "../../engine/services/webhooks/Settings.ts"
import { Webhooks } from "../../engine/services/webhooks/Webhooks.ts"
import { Deployment } from "../../engine/store/deployment.ts"
import { RelayLive } from "../events/relay.ts"
import { DispatcherLive } from "./dispatcher.ts"
import { WebhookSenderLive } from "./sender.ts"

export const WebhookSettingsLive = (config: { readonly webhookAllowInsecure: boolean }) =>
  Layer.succeed(WebhookSettings, { allowInsecure: config.webhookAllowInsecure, timeoutMs: DEFAULT_TIMEOUT_MS })

/**
 * The Webhooks service (for the handlers) plus the background work started with the app: the relay
 * (outbox -> bus) and the webhook dispatcher (bus wake-ups -> signed POSTs). Needs a database, the
 * engine clock and the bus. Jobs.Default is the app's one Jobs (layers are shared by reference).
 */
export const WebhooksLive = (config: { readonly webhookAllowInsecure: boolean }) =>
  Layer.mergeAll(RelayLive(), DispatcherLive()).pipe(
    Layer.provideMerge(Layer.mergeAll(Webhooks.Default, WebhookDispatch.Default, Deployment.Default)),
    Layer.provide(Jobs.Default),
    Layer.provide(WebhookSenderLive),
    Layer.provide(WebhookSettingsLive(config))
  )
