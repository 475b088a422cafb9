import { JSONSchema } from "effect"
import { SETTLE_MS } from "../../engine/services/Events.ts"
import { STREAM_RETRY_SECONDS } from "../shared/streams.ts"
import { CURSOR, KEEPALIVE_MS, STREAM_CODES, STREAM_MS, STREAM_PATH, StreamQuery } from "./sse.ts"

type Json = Record<string, any>

/** What the event stream is as an MCP tool: a tool call answers once, so it is a long poll (transports/mcp/streamTool.ts). */
export const STREAM_AS_A_TOOL =
  "As an MCP tool (events_stream) it is a long poll: a tool call answers once, with the events after `after` as soon as there is one, waiting up to wait_seconds (at most 25) for the first. MCP clients in a session are also told of changes by resources/subscribe to booking-engine://bookings/{id} or booking-engine://offerings/{id} (notifications/resources/updated)."

/**
 * GET /api/v1/events/stream (transports/http/sse.ts) as an OpenAPI operation, `events.stream`: it is served outside
 * the contract because its answer is a stream, so its path, parameters, codes and times are read here from the
 * constants the route uses. Its error codes are its own (the document's derived ones are a JSON operation's).
 */
export const streamOperation = (): { readonly path: string; readonly item: Json; readonly codes: Json } => {
  const type = (JSONSchema.make(StreamQuery) as Json).properties.type
  const cursor = { type: "string", pattern: CURSOR.source }
  const codes: Record<number, Array<string>> = {
    400: [STREAM_CODES.invalid],
    401: [STREAM_CODES.unauthorized],
    403: [STREAM_CODES.forbidden],
    429: ["rate_limited", STREAM_CODES.full]
  }
  const get = {
    tags: ["events"],
    operationId: "events.stream",
    summary: "The org's events live, as Server-Sent Events (text/event-stream), resumable with Last-Event-ID",
    description:
      `The events events.list serves (each once ${SETTLE_MS / 1000} seconds old, so ids never arrive out of order), ` +
      "in id order, as they are written: one frame per event, `id: <event id>`, `event: <type>`, `data: <the event as events.list shows it, one line of JSON>`. " +
      `The stream opens with \`retry: 1000\` and ends after ${STREAM_MS / 1000} seconds; EventSource reconnects with Last-Event-ID and misses nothing. ` +
      `A comment line (\`: keep-alive\`) every ${KEEPALIVE_MS / 1000} seconds of quiet keeps proxies from closing it. ` +
      `Streams are budgeted per key and per org: past the budget 429 too_many_streams with Retry-After: ${STREAM_RETRY_SECONDS}. ` +
      "A secret key as Bearer, or (no Bearer) a person's session cookie. " +
      `${STREAM_AS_A_TOOL} Reading emits nothing.`,
    parameters: [
      {
        name: "type",
        in: "query",
        required: false,
        description: "Only events of this type, e.g. booking.confirmed",
        schema: type
      },
      {
        name: "after",
        in: "query",
        required: false,
        description:
          "Resume after this event id (0, the default: from the beginning); Last-Event-ID wins when both are sent",
        schema: cursor
      },
      {
        name: "Last-Event-ID",
        in: "header",
        required: false,
        description: "The id of the last event received: EventSource sends it when it reconnects",
        schema: cursor
      }
    ],
    security: [{ bearer: [] }],
    responses: {
      "200": {
        description: "The stream of frames, until the stream ends or the client closes it",
        content: {
          "text/event-stream": {
            schema: { type: "string" },
            example:
              'retry: 1000\n\nid: 1042\nevent: booking.confirmed\ndata: {"id":1042,"type":"booking.confirmed","data":{…},"created_at":"2026-06-01T09:00:00.000Z"}\n\n'
          }
        }
      }
    },
    "x-required-role": "staff"
  }
  return { path: STREAM_PATH, item: { get }, codes }
}
