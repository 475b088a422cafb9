import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  Availability, AvailabilityQuery, Entry, EntryCreate, EntryUpdate, SeriesDeleted, Session, SessionCancel, SessionCreate,
  SessionsQuery, SessionUpdate
} from "../../../engine/schema/calendar.ts"
import { ListOf } from "../../../engine/schema/common.ts"
import { Authentication } from "../security.ts"
import { BooleanFromString, IdempotencyHeaders, IdParam } from "./common.ts"

export const AvailabilityGroup = HttpApiGroup.make("availability")
  .add(
    HttpApiEndpoint.get("get")`/offerings/${IdParam}/availability`
      .setUrlParams(AvailabilityQuery)
      .addSuccess(Availability)
      .annotate(OpenApi.Summary, "Bookable times between two local dates (default: the next 14 days)")
  )
  .middleware(Authentication)
  .prefix("/api/v1")

export const SeriesGroup = HttpApiGroup.make("series")
  .add(
    HttpApiEndpoint.get("list", "/series")
      .setUrlParams(Schema.Struct({ offering_id: Schema.UUID }))
      .addSuccess(ListOf(Entry))
      .annotate(OpenApi.Summary, "An offering's calendar entries")
  )
  .add(
    HttpApiEndpoint.post("create", "/series")
      .setPayload(EntryCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Entry, { status: 201 })
      .annotate(OpenApi.Summary, "Add a calendar entry; its times are made about a year ahead")
  )
  .add(
    HttpApiEndpoint.patch("update")`/series/${IdParam}`
      .setPayload(EntryUpdate)
      .addSuccess(Entry)
      .annotate(OpenApi.Summary, "Change an entry; future times nobody booked are remade")
  )
  .add(
    HttpApiEndpoint.del("delete")`/series/${IdParam}`
      .setUrlParams(Schema.Struct({ cancel_bookings: Schema.optional(BooleanFromString) }))
      .addSuccess(SeriesDeleted)
      .annotate(OpenApi.Summary, "Remove an entry and its future times; cancel_bookings=true when any is booked")
  )
  .middleware(Authentication)
  .prefix("/api/v1")

export const SessionsGroup = HttpApiGroup.make("sessions")
  .add(
    HttpApiEndpoint.get("list", "/sessions")
      .setUrlParams(SessionsQuery)
      .addSuccess(ListOf(Session))
      .annotate(OpenApi.Summary, "Times on calendars, with what each has booked")
  )
  .add(
    HttpApiEndpoint.post("create", "/sessions")
      .setPayload(SessionCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(ListOf(Session), { status: 201 })
      .annotate(OpenApi.Summary, "Schedule a time on its own (repeat_weeks: that many weeks at the same local time)")
  )
  .add(
    HttpApiEndpoint.patch("update")`/sessions/${IdParam}`
      .setPayload(SessionUpdate)
      .addSuccess(Session)
      .annotate(OpenApi.Summary, "Move a time nobody booked, or change its teacher")
  )
  .add(
    HttpApiEndpoint.post("cancel")`/sessions/${IdParam}/cancel`
      .setPayload(SessionCancel)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Session)
      .annotate(OpenApi.Summary, "Cancel a time: guests refund (default) or choose another time")
  )
  .middleware(Authentication)
  .prefix("/api/v1")
