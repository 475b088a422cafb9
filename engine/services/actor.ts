import { Effect, Option } from "effect"
import type { Actor } from "../schema/event.ts"
import { CurrentOrg } from "./CurrentOrg.ts"

/**
 * Who made a change, from the org the call acts as (known at the request, so naming it costs no query): a person
 * signed in to the console (their user id), an API key (its id, and the member it belongs to), a guest (the booking
 * widget with a publishable key, the guest's own page, the assistant), or the system (jobs, the processor's
 * webhooks: no caller).
 */
export const actorOf = (org: CurrentOrg["Type"] | undefined): Actor => {
  if (org === undefined) return { type: "system" }
  if (org.sessionId !== undefined) return { type: "person", id: org.userId ?? null }
  if (org.apiKeyId === "guest") return { type: "guest", via: "guest_page" }
  if (org.apiKeyId === "assistant") return { type: "guest", via: "assistant" }
  if (org.keyKind === "publishable") return { type: "guest", via: "widget" }
  return { type: "key", id: org.apiKeyId, user_id: org.userId ?? null }
}

/** The actor of the running call: system outside any request. */
export const currentActor = Effect.map(Effect.serviceOption(CurrentOrg), (org) => actorOf(Option.getOrUndefined(org)))
