import { Agent as HttpAgent } from "node:http"
import { Agent as HttpsAgent } from "node:https"
import { Clock, Effect, Layer } from "effect"
import { WebhookSender } from "../../engine/ports/WebhookSender.ts"
import { WebhookSettings } from "../../engine/services/webhooks/Settings.ts"
import { traced } from "../../engine/tracing.ts"
import { deliver } from "./deliver.ts"
import { validateWebhookUrl } from "./safeAddress.ts"
import { sign } from "./signature.ts"

const MAX_AGENTS = 1_000
/** Idle kept-alive connections close after this, below the usual server keep-alive time-outs (5 s in Node). */
const IDLE_MS = 2_000

/** Keep-alive agents per origin (a few connections each); the least recently made goes when there are too many. */
const agentPool = () => {
  const agents = new Map<string, HttpAgent>()
  const agentFor = (url: string): HttpAgent | undefined => {
    if (!URL.canParse(url)) return undefined
    const { origin, protocol } = new URL(url)
    const found = agents.get(origin)
    if (found) return found
    const options = { keepAlive: true, maxSockets: 8, timeout: IDLE_MS, scheduling: "lifo" as const }
    const agent = protocol === "https:" ? new HttpsAgent(options) : new HttpAgent(options)
    agents.set(origin, agent)
    for (const [key, old] of agents) {
      if (agents.size <= MAX_AGENTS) break
      old.destroy()
      agents.delete(key)
    }
    return agent
  }
  const destroy = () => agents.forEach((a) => a.destroy())
  return { agentFor, destroy }
}

/** POSTs over node:http(s): signed with the endpoint's secret at the current unix time, guarded at connect time. */
export const WebhookSenderLive = Layer.scoped(
  WebhookSender,
  Effect.gen(function* () {
    const settings = yield* WebhookSettings
    const pool = yield* Effect.acquireRelease(Effect.sync(agentPool), (p) => Effect.sync(p.destroy))
    return WebhookSender.of({
      check: (url) => {
        const checked = validateWebhookUrl(url, settings.allowInsecure)
        return checked.ok ? null : checked.message
      },
      send: ({ body, secret, url }) =>
        Clock.currentTimeMillis.pipe(
          Effect.flatMap((ms) =>
            Effect.promise((signal) =>
              deliver({
                signal,
                url,
                body,
                headers: { "Service-Signature": sign(secret, body, Math.floor(ms / 1000)) },
                timeoutMs: settings.timeoutMs,
                allowInsecure: settings.allowInsecure,
                agent: pool.agentFor(url)
              })
            )
          ),
          traced("WebhookSender.send")
        )
    })
  })
)
