import { Effect, Layer, Schema } from "effect"
import { Drafter, DraftFailed, type DraftRequest } from "../../engine/ports/Drafter.ts"

/** How long one draft may take; a model slower than this is tried again later. */
const TIMEOUT_MS = 30_000

export interface DraftSettings {
  /** Base URL of an OpenAI-compatible API: https://api.openai.com/v1, a local Ollama's http://127.0.0.1:11434/v1, a gateway. */
  readonly url: string
  readonly model: string
  readonly apiKey?: string | undefined
}

// The part of the chat completions answer a draft needs (https://platform.openai.com/docs/api-reference/chat/create).
const Completion = Schema.Struct({
  choices: Schema.NonEmptyArray(Schema.Struct({ message: Schema.Struct({ content: Schema.NullOr(Schema.String) }) }))
})

const instructions = (r: DraftRequest) =>
  [
    `You draft replies for ${r.org.name}, a business that takes bookings, to messages from its guests.`,
    `A person at ${r.org.name} reads every draft and decides whether to send it: write only the reply's text, in the guest's language,`,
    "short and friendly, without a subject line or placeholders. Do not promise refunds, discounts or changes: say a person will confirm them.",
    r.booking === null
      ? "The guest has no booking in this conversation."
      : `The conversation is about booking ${r.booking.reference} for ${r.booking.offering}` +
        (r.booking.starts_at === null ? "" : ` at ${r.booking.starts_at} (UTC; the business is in ${r.org.timezone})`) +
        `, status ${r.booking.status}.`
  ].join(" ")

/** The chat messages for a request: the instructions, then the conversation as user (guest) and assistant (business) turns. */
export const chatMessages = (r: DraftRequest) => [
  { role: "system", content: instructions(r) },
  ...r.conversation.map((m) => ({ role: m.from === "guest" ? "user" : "assistant", content: m.body }))
]

/** Drafts through any OpenAI-compatible chat completions API (DRAFTS_URL, DRAFTS_MODEL, DRAFTS_API_KEY). */
export const OpenAiDrafterLive = (settings: DraftSettings) =>
  Layer.succeed(Drafter, {
    enabled: true,
    draft: (request) =>
      Effect.tryPromise({
        try: async (signal) => {
          const res = await fetch(`${settings.url.replace(/\/+$/, "")}/chat/completions`, {
            method: "POST",
            signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]),
            headers: {
              "content-type": "application/json",
              accept: "application/json",
              ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {})
            },
            body: JSON.stringify({
              model: settings.model,
              messages: chatMessages(request),
              temperature: 0.3,
              max_tokens: 600
            })
          })
          const text = await res.text()
          if (!res.ok) {
            // Time-outs, rate limits and server errors are worth another try; a refused request (bad key, bad model) is not.
            throw new DraftFailed(
              `the drafting API answered ${res.status}: ${text.slice(0, 200)}`,
              res.status === 408 || res.status === 429 || res.status >= 500
            )
          }
          const decoded = Schema.decodeUnknownEither(Completion)(JSON.parse(text))
          if (decoded._tag === "Left")
            throw new DraftFailed("the drafting API answered something that is not a chat completion", false)
          const content = decoded.right.choices[0].message.content?.trim() ?? ""
          if (content === "") throw new DraftFailed("the drafting API answered an empty draft", true)
          return content.slice(0, 10_000)
        },
        catch: (e) =>
          e instanceof DraftFailed
            ? e
            : new DraftFailed(`the drafting API did not answer: ${e instanceof Error ? e.message : String(e)}`, true)
      })
  })
