import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  Availability,
  AvailabilityQuery,
  Entry,
  EntryCreate,
  EntryUpdate,
  SeriesDeleted,
  Session,
  SessionCancel,
  SessionCreate,
  SessionPage,
  SessionsQuery,
  SessionUpdate
} from "../../../engine/schema/calendar.ts"
import { ListOf } from "../../../engine/schema/common.ts"
import { Authentication } from "../security.ts"
import { CancelBookings, IdempotencyHeaders, IdParam } from "./common.ts"

export const AvailabilityGroup = HttpApiGroup.make("availability")
  .annotate(
    OpenApi.Description,
    "Bookable times of an offering, computed from its calendar or hours, capacity, rules and bookings."
  )
  .add(
    HttpApiEndpoint.get("get")`/offerings/${IdParam}/availability`
      .setUrlParams(AvailabilityQuery)
      .addSuccess(Availability)
      .annotate(OpenApi.Summary, "Bookable times between two local dates (default: the next 14 days)")
      .annotate(
        OpenApi.Description,
        "Bookable times of an offering between two local dates of the org's time zone (default: the next 14 days; at most 92 days, and to not before from: 400 invalid_to). Slots are UTC with capacity and remaining places (seats, parallel bookings or items); class slots carry session_id; a course is one slot per calendar entry with series_id, sessions and repeat. Emits nothing."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")

export const SeriesGroup = HttpApiGroup.make("series")
  .annotate(
    OpenApi.Description,
    "Calendar entries: repeating (or one-off) times of a class or an appointment, made about a year ahead."
  )
  .add(
    HttpApiEndpoint.get("list", "/series")
      .setUrlParams(Schema.Struct({ offering_id: Schema.UUID }))
      .addSuccess(ListOf(Entry))
      .annotate(OpenApi.Summary, "An offering's calendar entries")
      .annotate(
        OpenApi.Description,
        "An offering's calendar entries (series), with made_until and teacher. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/series")
      .setPayload(EntryCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Entry, { status: 201 })
      .annotate(OpenApi.Summary, "Add a calendar entry; its times are made about a year ahead")
      .annotate(
        OpenApi.Description,
        "Adds a calendar entry to a class or to an appointment on its calendar (a rental is 409 not_on_calendar; an appointment on hours 409 schedule_is_hours). Local starts_on, start_time and end_time (both null: all day), repeat none, daily, weekly, monthly (that weekday of the month), yearly or weekdays, until ends_on. Its times are made about a year ahead. A course's repeating entry needs ends_on (409 invalid_entry). capacity is for classes only; teacher must be on the team. Emits offering.calendar_updated."
      )
  )
  .add(
    HttpApiEndpoint.patch("update")`/series/${IdParam}`
      .setPayload(EntryUpdate)
      .addSuccess(Entry)
      .annotate(OpenApi.Summary, "Change an entry; future times nobody booked are remade")
      .annotate(
        OpenApi.Description,
        "Changes an entry. Future times nobody booked are remade; booked ones keep their time; a new teacher teaches every time to come. Emits offering.calendar_updated."
      )
  )
  .add(
    HttpApiEndpoint.del("delete")`/series/${IdParam}`
      .setUrlParams(Schema.Struct({ cancel_bookings: Schema.optional(CancelBookings) }))
      .addSuccess(SeriesDeleted)
      .annotate(OpenApi.Summary, "Remove an entry and its future times; cancel_bookings=true when any is booked")
      .annotate(
        OpenApi.Description,
        "Removes an entry and its future times; past ones stay on record. When a future time is booked this needs cancel_bookings=true (409 series_has_bookings otherwise), which cancels those bookings, emails the guests and refunds online payments; cancelled counts the booked times. Emits booking.cancelled for each, then offering.calendar_updated."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")

export const SessionsGroup = HttpApiGroup.make("sessions")
  .annotate(
    OpenApi.Description,
    "Single times on a calendar, with what each has booked; cancelling one handles its bookings."
  )
  .add(
    HttpApiEndpoint.get("list", "/sessions")
      .setUrlParams(SessionsQuery)
      .addSuccess(SessionPage)
      .annotate(OpenApi.Summary, "Times on calendars, with what each has booked")
      .annotate(
        OpenApi.Description,
        "Times on calendars (UTC), scheduled or cancelled, optionally of one offering and between two instants, each with booked (seats of a class, bookings of an appointment), soonest first, paged: next_after as after for the next page (limit default 2000). Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/sessions")
      .setPayload(SessionCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(ListOf(Session), { status: 201 })
      .annotate(
        OpenApi.Summary,
        "Schedule a time on its own (repeat_weeks: that many more weeks at the same local time)"
      )
      .annotate(
        OpenApi.Description,
        "Schedules a time on its own (not from an entry) for a class or an appointment on its calendar: starts_at (UTC), ends_at (default: the offering's length), repeat_weeks for that many more weeks at the same local time (1 makes two times), capacity (classes only), teacher. Emits session.created for each time."
      )
  )
  .add(
    HttpApiEndpoint.patch("update")`/sessions/${IdParam}`
      .setPayload(SessionUpdate)
      .addSuccess(Session)
      .annotate(OpenApi.Summary, "Move a time nobody booked, or change its teacher")
      .annotate(
        OpenApi.Description,
        "Moves a scheduled time nobody booked (starts_at and ends_at together; 409 session_booked when booked, session_cancelled when cancelled), and/or changes its teacher (allowed when booked). Emits no event (the event types have none for it); sessions.list shows the change."
      )
  )
  .add(
    HttpApiEndpoint.post("cancel")`/sessions/${IdParam}/cancel`
      .setPayload(SessionCancel)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Session)
      .annotate(OpenApi.Summary, "Cancel a time: guests refund (default) or choose another time")
      .annotate(
        OpenApi.Description,
        "Cancels a time, scheduled or already cancelled. guests refund (default): every booking is cancelled and what was paid online refunded. guests choose: holds and resellers' bookings are cancelled; every other booking stays confirmed with choose_by (end of the 7th day, org time) while its guest picks another time or cancels; a course booking loses only this time. Again on a cancelled time with refund: cancels whoever is still choosing. Emits session.cancelled, and per booking booking.cancelled, booking.called_off or booking.session_cancelled; waitlist.left for those waiting."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
