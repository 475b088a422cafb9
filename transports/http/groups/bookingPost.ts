import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Booking } from "../../../engine/schema/booking.ts"
import { IdempotencyHeaders } from "./common.ts"

const BookingPath = Schema.Struct({ id: Schema.UUID })

/**
 * Operations on one booking. Those without input fields (confirm, mark_unpaid, resend, nudge) take no payload, so
 * they answer a POST with no body, with `{}`, and from an MCP tool call (which sends no body when there are no fields).
 */
export const post = <const Name extends string>(name: Name, path: `/${string}`, summary: string) =>
  HttpApiEndpoint.post(name, `/bookings/:id${path}`)
    .setPath(BookingPath)
    .setHeaders(IdempotencyHeaders)
    .addSuccess(Booking)
    .annotate(OpenApi.Summary, summary)
