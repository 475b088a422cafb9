import { Clock, Effect, Layer } from "effect"
import { WebhookSender } from "../../engine/ports/WebhookSender.ts"
import { WebhookSettings } from "../../engine/services/webhooks/Settings.ts"
import { deliver } from "./deliver.ts"
import { validateWebhookUrl } from "./safeAddress.ts"
import { sign } from "./signature.ts"

/** POSTs over node:http(s): signed with the endpoint's secret at the current unix time, guarded at connect time. */
export const WebhookSenderLive = Layer.effect(
  WebhookSender,
  Effect.map(WebhookSettings, (settings) =>
    WebhookSender.of({
      check: (url) => {
        const checked = validateWebhookUrl(url, settings.allowInsecure)
        return checked.ok ? null : checked.message
      },
      send: ({ body, secret, url }) =>
        Clock.currentTimeMillis.pipe(
          Effect.flatMap((ms) =>
            Effect.promise(() =>
              deliver({
                url,
                body,
                headers: { "Service-Signature": sign(secret, body, Math.floor(ms / 1000)) },
                timeoutMs: settings.timeoutMs,
                allowInsecure: settings.allowInsecure
              })
            )
          ),
          Effect.withSpan("WebhookSender.send")
        )
    }))
)
