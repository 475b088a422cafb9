import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ListOf } from "../../../engine/schema/common.ts"
import {
  DeleteResult,
  HoursBody,
  HoursList,
  Kind,
  Offering,
  OfferingCreate,
  OfferingUpdate
} from "../../../engine/schema/offering.ts"
import { PHOTO_MAX_BYTES, PhotoSource } from "../../../engine/schema/photo.ts"
import { RequiredRole } from "../roles.ts"
import { Authentication } from "../security.ts"
import { CancelBookings, IdempotencyHeaders, IdParam } from "./common.ts"

/** The photo as the raw body (PUT with Content-Type: image/jpeg); transports/http/photos.ts reads it as bytes. */
const JpegBody = HttpApiSchema.Uint8Array({ contentType: "image/jpeg" }).annotations({
  description: `The JPEG's bytes, at most ${PHOTO_MAX_BYTES / 1024 / 1024} MiB`
})

export const OfferingsGroup = HttpApiGroup.make("offerings")
  .annotate(
    OpenApi.Description,
    "What can be booked: classes (sessions with seats), appointments (from a calendar or weekly hours) and rentals (items over periods), with prices in minor units and rules in the org's local time."
  )
  .add(
    HttpApiEndpoint.get("list", "/offerings")
      .setUrlParams(
        Schema.Struct({ kind: Schema.optional(Kind).annotations({ description: "Only offerings of this kind" }) })
      )
      .addSuccess(ListOf(Offering))
      .annotate(OpenApi.Summary, "List offerings, paused ones included")
      .annotate(
        OpenApi.Description,
        "Every offering of the org, paused ones (active false) included, optionally of one kind. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/offerings")
      .annotate(RequiredRole, "owner")
      .setPayload(OfferingCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Offering, { status: 201 })
      .annotate(OpenApi.Summary, "Create an offering (name and kind required)")
      .annotate(
        OpenApi.Description,
        "Adds an offering of kind class (sessions with seats), appointment (times from a calendar or weekly hours) or rental (items over periods). Only name and kind are required; the rest default by kind. A new appointment takes its times from its calendar (schedule calendar) unless schedule hours is sent; a rental, or an appointment on hours, is open daily 9:00 to 17:00 org time until hours are set; classes need times on a calendar (series or sessions). Emits offering.created."
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/offerings/${IdParam}`
      .addSuccess(Offering)
      .annotate(OpenApi.Summary, "Get an offering")
      .annotate(OpenApi.Description, "One offering with its questions. A deleted offering is 404. Emits nothing.")
  )
  .add(
    HttpApiEndpoint.patch("update")`/offerings/${IdParam}`
      .annotate(RequiredRole, "owner")
      .setPayload(OfferingUpdate)
      .addSuccess(Offering)
      .annotate(OpenApi.Summary, "Update an offering (any field except kind)")
      .annotate(
        OpenApi.Description,
        "Changes any field but kind. active false pauses booking (guests and agents cannot book; the offering stays listed), active true resumes it. An appointment moves to schedule hours only when its calendar has no times to come (409 calendar_has_times). A class becomes a course only when none of its repeating calendar entries is open-ended (409 invalid_entry: give each an ends_on). waitlist_enabled false removes everyone waiting and emails them (waitlist.left, reason closed). questions replaces the whole list. Emits offering.updated."
      )
  )
  .add(
    HttpApiEndpoint.del("delete")`/offerings/${IdParam}`
      .annotate(RequiredRole, "owner")
      .setUrlParams(Schema.Struct({ cancel_bookings: Schema.optional(CancelBookings) }))
      .addSuccess(DeleteResult)
      .annotate(OpenApi.Summary, "Delete an offering; cancel_bookings=true when it has upcoming bookings or live holds")
      .annotate(
        OpenApi.Description,
        "Removes an offering. Upcoming bookings and live holds are cancelled first, guests emailed and online payments refunded in full; this needs cancel_bookings=true when there are any (409 offering_has_bookings says how many). Past bookings stay on record. Answers how many were cancelled and what became of their refunds, taken at the processor at once: refunded, refund_failed (retried with backoff) or refunding (on their way). Emits booking.cancelled for each booking cancelled, then offering.deleted."
      )
  )
  .add(
    HttpApiEndpoint.get("get_hours")`/offerings/${IdParam}/hours`
      .addSuccess(HoursList)
      .annotate(OpenApi.Summary, "Weekly hours in org local time")
      .annotate(
        OpenApi.Description,
        "The weekly hours of a rental or of an appointment on weekly hours, in org local time (weekday 0 is Sunday). A class has no hours (409 not_hours_based). Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.put("set_hours")`/offerings/${IdParam}/hours`
      .annotate(RequiredRole, "owner")
      .setPayload(HoursBody)
      .addSuccess(HoursList)
      .annotate(OpenApi.Summary, "Replace the weekly hours of a rental or an appointment on weekly hours")
      .annotate(
        OpenApi.Description,
        "Replaces all weekly hours (at most 50 entries) of a rental, or of an appointment whose schedule is hours (409 schedule_is_calendar otherwise; a class is 409 not_hours_based). Times are org local; 24:00 ends a day. Emits offering.hours_updated."
      )
  )
  .add(
    HttpApiEndpoint.put("set_photo")`/offerings/${IdParam}/photo`
      .annotate(RequiredRole, "owner")
      .setPayload(Schema.Union(JpegBody, PhotoSource))
      .addSuccess(Offering)
      .annotate(OpenApi.Summary, "Set an offering's photo: a JPEG body, or JSON with its url or base64")
      .annotate(
        OpenApi.Description,
        `Stores the offering's photo and sets its photo_url (PUBLIC_URL/photos/{id}.jpg?v=<hash>, a new one at each upload, served with no key and cached for good). Send the JPEG itself as the body with Content-Type: image/jpeg (at most ${PHOTO_MAX_BYTES / 1024 / 1024} MiB: 413 payload_too_large past it, 415 unsupported_media_type for another type), or JSON with exactly one of url (read once by the server, https only, never a private address) and base64 (the MCP tool's way). It must be a JPEG of at most 10,000 pixels a side (400 invalid_photo). Answers the offering. Emits offering.updated.`
      )
  )
  .add(
    HttpApiEndpoint.del("delete_photo")`/offerings/${IdParam}/photo`
      .annotate(RequiredRole, "owner")
      .addSuccess(Offering)
      .annotate(OpenApi.Summary, "Remove an offering's photo")
      .annotate(
        OpenApi.Description,
        "Removes the photo and sets photo_url null; its old URL answers 404 from then on. Answers the offering. Emits offering.updated when there was a photo, else nothing."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
