import { OpenApi } from "@effect/platform"
import { AttendanceBody, MarkPaidBody, MoveBody } from "../../../engine/schema/booking.ts"
import { RequiredRole } from "../roles.ts"
import { post } from "./bookingPost.ts"

/** What else happens to one booking: moves, attendance, payments by hand, mails again. */
export const moveEndpoint = post("move", "/move", "Move to another time of the same offering, in place")
  .setPayload(MoveBody)
  .annotate(
    OpenApi.Description,
    "Moves a booking to another time of the same offering, in place (starts_at, or session_id for a class): a confirmed booking, a hold still keeping its place, or one whose time was called off before its choose_by. Refused for a lapsed hold (hold_lapsed), a cancelled booking, a course booking (course_booking), after choose_by (choose_by_passed), or where the new time has no room. Emits booking.moved with data.previous."
  )

export const setAttendanceEndpoint = post(
  "set_attendance",
  "/attendance",
  "Check in, mark a no-show (once started), or clear"
)
  .setPayload(AttendanceBody)
  .annotate(
    OpenApi.Description,
    "On a confirmed booking: checked_in (rental: picked up), no_show (only once its time has started: 409 not_started), or clear. A held booking is 409 booking_not_confirmed. Emits booking.checked_in, booking.no_show or booking.attendance_cleared."
  )

export const markPaidEndpoint = post("mark_paid", "/mark_paid", "Mark paid by hand")
  .setPayload(MarkPaidBody)
  .annotate(
    OpenApi.Description,
    "Marks a confirmed booking paid by hand (paid_cents: what was paid in all, default the total, at most the total and at least what was paid online and by gift card). Already marked is 409 already_paid. Emits booking.paid."
  )

export const markUnpaidEndpoint = post("mark_unpaid", "/mark_unpaid", "Take back a payment marked by hand").annotate(
  OpenApi.Description,
  "Takes back a payment marked by hand on a confirmed booking (409 not_paid_by_hand otherwise); what was paid online or by gift card stays paid: paid_at and paid_cents go back to it. Emits booking.unpaid."
)

export const resendEndpoint = post("resend", "/resend", "Email the guest their booking page again").annotate(
  OpenApi.Description,
  "Emails the guest the link to their booking page again; changes nothing. Refused for a cancelled booking or an erased guest. Emits nothing."
)

export const nudgeEndpoint = post(
  "nudge",
  "/nudge",
  "Email the guest of a lapsed hold a link to finish booking (once)"
).annotate(
  OpenApi.Description,
  "Emails the guest of a hold that lapsed unpaid a link to finish booking, once (409 already_nudged after; hold_not_lapsed while the hold still keeps its place; booking_not_held once confirmed). Emits booking.nudged."
)

export const retryRefundEndpoint = post(
  "retry_refund",
  "/retry_refund",
  "Try again a refund that failed for good (owners; our extension)"
)
  .annotate(
    OpenApi.Description,
    "Not in the spec, our extension (docs/payments.md). Takes again, at the processor and at once, each refund of this booking's payments that failed for good (booking.refund_failed): exactly the amount that failed (never more than was charged and not refunded), under a new idempotency key. Answers the booking as the processor left it: refunded, or on its way (refund_next_at). Emits what the first tries did: booking.refunded when the processor confirms; booking.refund_failed again (the owners emailed) when it refuses, with no automatic retries after. Nothing failed for good (no refund, one on its way or still retried on its own schedule, or refunded) is 409 no_failed_refund. Of two retries at once, one takes the refund and the other is 409."
  )
  .annotate(RequiredRole, "owner")
