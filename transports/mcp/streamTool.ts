import type { JsonSchema } from "./tools.ts"

/** The longest a call of events_stream waits for its first event, in seconds (under common 30 s client time-outs). */
export const STREAM_WAIT_MAX_SECONDS = 25
/** How often a waiting call looks for events, in milliseconds. */
export const STREAM_POLL_MS = 1000

/**
 * events.stream as a tool: a tool call answers once, so it is a long poll over events.list: the events after a
 * cursor, as soon as there is one, waiting up to wait_seconds (at most 25) for the first. Pass next_after back as
 * after for what comes next; an empty page after the wait means nothing happened.
 */
export const STREAM_TOOL = {
  name: "events_stream",
  operationId: "events.stream",
  title: "Wait for the org's next events",
  description:
    `The org's events after a cursor, as events.list serves them (each once 2 seconds old, in id order), waiting up to wait_seconds (default and at most ${STREAM_WAIT_MAX_SECONDS}) for the first: a long poll, the tool form of the live event stream. ` +
    "Answers { data, next_after } as soon as there is an event; an empty data after the wait means nothing happened. Pass next_after back as after. Reading emits nothing.",
  inputSchema: {
    type: "object",
    properties: {
      after: {
        type: "integer",
        minimum: 0,
        description: "Events after this event id (next_after of the last answer); 0, the default, from the beginning"
      },
      type: { type: "string", description: "Only events of this type, e.g. booking.confirmed" },
      limit: {
        type: "integer",
        minimum: 1,
        maximum: 200,
        description: "At most this many events in the answer (default 50)"
      },
      wait_seconds: {
        type: "integer",
        minimum: 0,
        maximum: STREAM_WAIT_MAX_SECONDS,
        description: `How long to wait for the first event when there is none yet (default and at most ${STREAM_WAIT_MAX_SECONDS}; 0 answers at once)`
      }
    },
    additionalProperties: false
  } satisfies JsonSchema,
  annotations: {
    title: "Wait for the org's next events",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true
  }
} as const

type Refusal = { readonly code: string; readonly message: string }
type Page = { readonly status: number; readonly body: string }

/** The arguments checked as REST checks a query: an unknown one, or a wait out of its bounds, is refused. */
export const streamArguments = (
  args: Record<string, unknown>
): { readonly query: string; readonly waitMs: number } | Refusal => {
  const known = new Set(Object.keys(STREAM_TOOL.inputSchema.properties))
  const unknown = Object.keys(args).filter((k) => !known.has(k))
  if (unknown.length > 0) return { code: "unknown_field", message: `unknown argument ${unknown[0].slice(0, 40)}` }
  const wait = args.wait_seconds ?? STREAM_WAIT_MAX_SECONDS
  if (typeof wait !== "number" || !Number.isInteger(wait) || wait < 0 || wait > STREAM_WAIT_MAX_SECONDS)
    return {
      code: "invalid_wait_seconds",
      message: `wait_seconds: a whole number of seconds, 0 to ${STREAM_WAIT_MAX_SECONDS}`
    }
  const query = new URLSearchParams()
  for (const k of ["after", "type", "limit"] as const)
    if (args[k] !== undefined) query.set(k, typeof args[k] === "string" ? args[k] : JSON.stringify(args[k]))
  return { query: query.toString(), waitMs: wait * 1000 }
}

/** Calls events.list until it serves an event, or the wait is over: its last answer (an error as it came). */
export const longPoll = async (
  list: (query: string) => Promise<Page>,
  query: string,
  waitMs: number,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
): Promise<Page> => {
  const deadline = Date.now() + waitMs
  for (;;) {
    const page = await list(query)
    if (page.status >= 400) return page
    const served = (JSON.parse(page.body) as { data?: ReadonlyArray<unknown> }).data ?? []
    const left = deadline - Date.now()
    if (served.length > 0 || left <= 0) return page
    await sleep(Math.min(STREAM_POLL_MS, left))
  }
}
