import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js"
import { EVENT_TYPES } from "../../engine/schema/webhook.ts"
import { EVENT_CATALOGUE } from "./catalogue.ts"

/** Resource addresses: an offering, a booking (both as the REST get answers them, for the caller's org) and the event catalogue. */
export const OFFERING_TEMPLATE = "booking-engine://offerings/{id}"
export const BOOKING_TEMPLATE = "booking-engine://bookings/{id}"
export const EVENTS_URI = "booking-engine://events"

export const offeringUri = (id: string) => `booking-engine://offerings/${encodeURIComponent(id)}`
export const bookingUri = (id: string) => `booking-engine://bookings/${encodeURIComponent(id)}`

export type Addressed = { readonly kind: "offering" | "booking"; readonly id: string } | { readonly kind: "events" }

/** What a resource URI names, or undefined for a URI this server has no resource at. */
export const parseUri = (uri: string): Addressed | undefined => {
  if (uri === EVENTS_URI) return { kind: "events" }
  const m = /^booking-engine:\/\/(offerings|bookings)\/([^/?#]+)$/.exec(uri)
  if (m === null) return undefined
  let id: string
  try {
    id = decodeURIComponent(m[2])
  } catch {
    return undefined
  }
  return id === "" ? undefined : { kind: m[1] === "offerings" ? "offering" : "booking", id }
}

export const TEMPLATES = [
  {
    uriTemplate: OFFERING_TEMPLATE,
    name: "offering",
    title: "An offering",
    description: "An offering of this org, as offerings_get answers it (id from offerings_list).",
    mimeType: "application/json"
  },
  {
    uriTemplate: BOOKING_TEMPLATE,
    name: "booking",
    title: "A booking",
    description:
      "A booking of this org with its offering and customer, as bookings_get answers it. Subscribe to it (in a session) to be told when it changes.",
    mimeType: "application/json"
  }
]

export const EVENTS_RESOURCE = {
  uri: EVENTS_URI,
  name: "events",
  title: "Event catalogue",
  description:
    "Every event type: when it is written and what its data is (events_list, webhooks, GET /api/v1/events/stream).",
  mimeType: "application/json"
}

/** The catalogue as read: the envelope every event has, and each type. */
export const catalogue = () => ({
  envelope: {
    id: "integer, increasing (not consecutive)",
    type: "the event type",
    data: "the resource after the change, except where a type says otherwise",
    created_at: "ISO 8601 UTC instant"
  },
  read_with: [
    "events_list (after, type, limit)",
    "GET /api/v1/events/stream (Server-Sent Events)",
    "webhooks_create (signed POSTs)",
    "resources/subscribe to a booking (in an MCP session)"
  ],
  types: EVENT_TYPES.map((type) => ({ type, ...EVENT_CATALOGUE[type] }))
})

/** MCP's "resource not found" (the spec's -32002); another org's id is not found, as in REST. */
export const RESOURCE_NOT_FOUND = -32002

/** The REST answer to reading a resource, as resources/read contents, or the MCP error REST's error becomes. */
export const contentsOf = (uri: string, status: number, body: string) => {
  if (status >= 400) {
    const error = safeJson(body)
    throw new McpError(
      status === 404 ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams,
      status === 404 ? `Resource not found: ${uri}` : `Resource could not be read: ${uri}`,
      error
    )
  }
  return { contents: [{ uri, mimeType: "application/json", text: body }] }
}

const safeJson = (s: string): unknown => {
  try {
    return JSON.parse(s)
  } catch {
    return undefined
  }
}
