import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  AttendanceBody, Booking, BookingCreate, BookingPage, BookingsQuery, CancelBody, MarkPaidBody, MoveBody
} from "../../../engine/schema/booking.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

const BookingPath = Schema.Struct({ id: Schema.UUID })

/**
 * Operations on one booking. Those without input fields (confirm, mark_unpaid, resend, nudge) take no payload, so
 * they answer a POST with no body, with `{}`, and from an MCP tool call (which sends no body when there are no fields).
 */
const post = <const Name extends string>(name: Name, path: `/${string}`, summary: string) =>
  HttpApiEndpoint.post(name, `/bookings/:id${path}`)
    .setPath(BookingPath)
    .setHeaders(IdempotencyHeaders)
    .addSuccess(Booking)
    .annotate(OpenApi.Summary, summary)

export const BookingsGroup = HttpApiGroup.make("bookings")
  .add(
    HttpApiEndpoint.get("list", "/bookings")
      .setUrlParams(BookingsQuery)
      .addSuccess(BookingPage)
      .annotate(OpenApi.Summary, "Bookings soonest first (order=desc: latest first), each with its customer; page with after=next_after")
  )
  .add(HttpApiEndpoint.get("get")`/bookings/${IdParam}`.addSuccess(Booking).annotate(OpenApi.Summary, "A booking with its offering and customer"))
  .add(
    HttpApiEndpoint.post("create", "/bookings")
      .setPayload(BookingCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Booking, { status: 201 })
      .annotate(OpenApi.Summary, "Book: free is confirmed at once, priced is held until paid or confirmed")
  )
  .add(post("confirm", "/confirm", "Confirm a hold (a lapsed hold only if its place is still free)"))
  .add(post("cancel", "/cancel", "Cancel; refund_cents: null refunds the whole online payment, 0 none, otherwise that part").setPayload(CancelBody))
  .add(post("move", "/move", "Move to another time of the same offering, in place").setPayload(MoveBody))
  .add(post("set_attendance", "/attendance", "Check in, mark a no-show (once started), or clear").setPayload(AttendanceBody))
  .add(post("mark_paid", "/mark_paid", "Mark paid by hand").setPayload(MarkPaidBody))
  .add(post("mark_unpaid", "/mark_unpaid", "Take back a payment marked by hand"))
  .add(post("resend", "/resend", "Email the guest their booking page again"))
  .add(post("nudge", "/nudge", "Email the guest of a lapsed hold a link to finish booking (once)"))
  .middleware(Authentication)
  .prefix("/api/v1")
