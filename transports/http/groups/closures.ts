import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Closure, ClosureCreate, ClosurePreview, ClosuresQuery } from "../../../engine/schema/closure.ts"
import { ListOf } from "../../../engine/schema/common.ts"
import { RequiredRole } from "../roles.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

const WHAT =
  "A local date or range of dates (the org's time zone), for the org or one offering, closed all day or open other hours (open_hours in place of the weekly hours), with a note shown to guests."

export const ClosuresGroup = HttpApiGroup.make("closures")
  .annotate(
    OpenApi.Description,
    `Closures and holidays. ${WHAT} Availability leaves their times out for every kind; a booking into one is 409 closed.`
  )
  .add(
    HttpApiEndpoint.get("list", "/closures")
      .setUrlParams(ClosuresQuery)
      .addSuccess(ListOf(Closure))
      .annotate(OpenApi.Summary, "The org's closures, by date")
      .annotate(
        OpenApi.Description,
        "The org's closures by first date (at most 1000), optionally those that apply to one offering (its own and the org's) and those meeting local dates from and to. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/closures/${IdParam}`
      .addSuccess(Closure)
      .annotate(OpenApi.Summary, "Get a closure")
      .annotate(OpenApi.Description, "One closure. Emits nothing.")
  )
  .add(
    HttpApiEndpoint.post("preview", "/closures/preview")
      .setPayload(ClosureCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(ClosurePreview)
      .annotate(RequiredRole, "owner")
      .annotate(OpenApi.Summary, "What a closure would do: the booked times and bookings inside it")
      .annotate(
        OpenApi.Description,
        "Checks a closure as closures.create would and answers it with the booked times on calendars and the bookings on weekly hours (appointments, rentals picked up or returned) inside it, to choose guests refund or choose before creating it. Changes nothing. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/closures")
      .setPayload(ClosureCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Closure, { status: 201 })
      .annotate(RequiredRole, "owner")
      .annotate(OpenApi.Summary, "Close a date or dates; guests refund or choose when anything inside is booked")
      .annotate(
        OpenApi.Description,
        `${WHAT} ends_on defaults to starts_on (at most 366 days: 400 invalid_dates); open_hours each end after they start (400 invalid_open_hours). When booked times or bookings fall inside it (closures.preview lists them) it needs guests (409 closure_has_bookings otherwise): refund cancels them and refunds online payments; choose lets their guests pick another time by choose_by, as sessions.cancel does (booked times on calendars are cancelled with that choice). Times nobody booked stay on the calendar, left out of availability while the closure stands. Emits session.cancelled and the bookings' events for what was inside, then closure.created.`
      )
  )
  .add(
    HttpApiEndpoint.del("delete")`/closures/${IdParam}`
      .addSuccess(Closure)
      .annotate(RequiredRole, "owner")
      .annotate(OpenApi.Summary, "Open again: delete a closure")
      .annotate(
        OpenApi.Description,
        "Deletes a closure: its dates take bookings again on the weekly hours and calendars (times cancelled when it was made stay cancelled). Emits closure.deleted."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
