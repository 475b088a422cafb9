import { Context, Effect } from "effect"

/** What a drafter is told: the org, the booking the conversation is about (if any) and the conversation so far. */
export interface DraftRequest {
  readonly org: { readonly name: string; readonly timezone: string; readonly locale: string }
  readonly booking: {
    readonly reference: string
    readonly offering: string
    readonly starts_at: string | null
    readonly status: string
  } | null
  readonly guest: { readonly name: string | null }
  /** Oldest first; the last one is the guest's message to answer. */
  readonly conversation: ReadonlyArray<{
    readonly from: "guest" | "business"
    readonly body: string
    readonly at: string
  }>
}

/** Why a draft was not made: `retry` is worth another try later (time-out, 5xx, 429), `give_up` is not. */
export class DraftFailed extends Error {
  readonly _tag = "DraftFailed"
  constructor(
    readonly reason: string,
    readonly retry: boolean
  ) {
    super(reason)
  }
}

/**
 * Drafts a reply to a guest's message (an AI model behind an adapter). Off unless configured: then no draft is asked
 * for and no message.drafted is ever emitted. A draft is only proposed: nothing is sent to the guest.
 */
export class Drafter extends Context.Reference<Drafter>()("Drafter", {
  defaultValue: (): {
    readonly enabled: boolean
    readonly draft: (request: DraftRequest) => Effect.Effect<string, DraftFailed>
  } => ({ enabled: false, draft: () => Effect.fail(new DraftFailed("drafting is off", false)) })
}) {}
