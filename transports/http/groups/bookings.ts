import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  AlreadyCalledOff,
  AlreadyNudged,
  AlreadyPaid,
  BookingBusy,
  BookingCancelled,
  BookingNotConfirmed,
  BookingNotHeld,
  ChooseByNotPassed,
  ChooseByPassed,
  CourseBooking,
  CustomerErased,
  GiftCardEmpty,
  GiftCardUnknown,
  HoldLapsed,
  HoldNotExpired,
  HoldNotLapsed,
  InvalidAfter,
  InvalidAnswers,
  InvalidBody,
  InvalidPaidCents,
  InvalidPeriods,
  InvalidPhone,
  InvalidQuantity,
  InvalidRefundCents,
  InvalidSeriesId,
  InvalidSessionId,
  InvalidStartsAt,
  NotACourse,
  NotChoosing,
  NotFound,
  NotPaidByHand,
  NotStarted,
  OfferingPaused,
  OutsideBookingWindow,
  PlacesOnHold,
  PlanQuotaExceeded,
  PromoCodeExpired,
  PromoCodeInactive,
  PromoCodeNotForOffering,
  PromoCodeNotStarted,
  PromoCodeUnknown,
  PromoCodeUsedUp,
  ResellerBooking,
  SoldOut,
  TimeNotAvailable,
  TooManyHolds,
  TooManySignatures,
  TotalTooLarge,
  WaiverMissing,
  WaiverNotAsked
} from "../../../engine/errors/index.ts"
import {
  AttendanceBody,
  Booking,
  BookingCreate,
  BookingPage,
  BookingsQuery,
  CancelBody,
  MarkPaidBody,
  MoveBody
} from "../../../engine/schema/booking.ts"
import { raises } from "../errors.ts"
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
  .annotate(
    OpenApi.Description,
    "Bookings and their lifecycle: held, confirmed, cancelled; moves, attendance, payments by hand, refunds."
  )
  .add(
    HttpApiEndpoint.get("list", "/bookings")
      .setUrlParams(BookingsQuery)
      .addSuccess(BookingPage)
      .annotate(
        OpenApi.Summary,
        "Bookings soonest first (order=desc: latest first), each with its customer; page with after=next_after"
      )
      .annotate(
        OpenApi.Description,
        "Bookings with their customer, soonest first (order=desc: latest first), filtered by time (instants), status, offering, customer, session, reference or q (any part of a guest's name or email, or a reference, any case). Page with after=next_after. Emits nothing."
      )
      .pipe(raises(InvalidAfter))
  )
  .add(
    HttpApiEndpoint.get("get")`/bookings/${IdParam}`
      .addSuccess(Booking)
      .annotate(OpenApi.Summary, "A booking with its offering and customer")
      .annotate(OpenApi.Description, "One booking with its offering and customer. Emits nothing.")
      .pipe(raises(NotFound))
  )
  .add(
    HttpApiEndpoint.post("create", "/bookings")
      .setPayload(BookingCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Booking, { status: 201 })
      .annotate(OpenApi.Summary, "Book: free is confirmed at once, priced is held until paid or confirmed")
      .annotate(
        OpenApi.Description,
        "Books a time: starts_at for appointments and rentals (periods for a rental's length), session_id for a class, series_id for a whole course. A free booking is confirmed at once (booking.confirmed); a priced one is held (booking.held) until paid at its checkout_url or confirmed, keeping its place until expires_at (hold_minutes). A promo code takes its discount off total_cents; a gift card pays part (gift_cents). Answers are keyed by question id; an offering asking for a waiver can be signed here (waiver). The customer is found or added by email (customer.updated). Capacity is never oversold (409 sold_out); past the plan's monthly quota is 402 plan_quota_exceeded. Emits booking.held or booking.confirmed, waiver.signed per signature."
      )
      .pipe(
        raises(
          BookingBusy,
          GiftCardEmpty,
          GiftCardUnknown,
          InvalidAnswers,
          InvalidPeriods,
          InvalidPhone,
          InvalidQuantity,
          InvalidSeriesId,
          InvalidSessionId,
          InvalidStartsAt,
          NotFound,
          OfferingPaused,
          OutsideBookingWindow,
          PlacesOnHold,
          PlanQuotaExceeded,
          PromoCodeExpired,
          PromoCodeInactive,
          PromoCodeNotForOffering,
          PromoCodeNotStarted,
          PromoCodeUnknown,
          PromoCodeUsedUp,
          SoldOut,
          TimeNotAvailable,
          TooManyHolds,
          TooManySignatures,
          TotalTooLarge,
          WaiverMissing,
          WaiverNotAsked
        )
      )
  )
  .add(
    post("confirm", "/confirm", "Confirm a hold (a lapsed hold only if its place is still free)")
      .annotate(
        OpenApi.Description,
        "Confirms a held booking (state held; a lapsed hold only if its place is still free). A confirmed booking is 409 booking_not_held, a cancelled one booking_cancelled. The hold's checkout closes at the processor; a payment that still lands on it pays the booking (booking.paid). Emits booking.confirmed."
      )
      .pipe(
        raises(
          AlreadyCalledOff,
          AlreadyNudged,
          AlreadyPaid,
          BookingBusy,
          BookingCancelled,
          BookingNotConfirmed,
          BookingNotHeld,
          ChooseByNotPassed,
          ChooseByPassed,
          HoldLapsed,
          HoldNotExpired,
          HoldNotLapsed,
          InvalidPeriods,
          InvalidSeriesId,
          InvalidSessionId,
          InvalidStartsAt,
          NotACourse,
          NotChoosing,
          NotFound,
          NotPaidByHand,
          NotStarted,
          OutsideBookingWindow,
          PlacesOnHold,
          ResellerBooking,
          SoldOut,
          TimeNotAvailable,
          TooManyHolds
        )
      )
  )
  .add(
    post(
      "cancel",
      "/cancel",
      "Cancel; refund_cents: null refunds the whole online payment, 0 none, otherwise that part"
    )
      .setPayload(CancelBody)
      .annotate(
        OpenApi.Description,
        "Cancels a held or confirmed booking (a cancelled one is 409 booking_cancelled); the guest is emailed. What was paid online is refunded: refund_cents null the whole payment, 0 none, otherwise that part (at most charged_cents: above it, or above 0 for a booking not paid online, is 400 invalid_refund_cents and changes nothing). A held booking's checkout closes at the processor; a payment that still lands on it is refunded in full. A gift card's part goes back to the card. Emits booking.cancelled, then booking.refunded or booking.refund_failed when the processor answers, gift_card.refunded, and waitlist.opened when a place opens for people waiting."
      )
      .pipe(
        raises(
          AlreadyCalledOff,
          AlreadyNudged,
          AlreadyPaid,
          BookingBusy,
          BookingCancelled,
          BookingNotConfirmed,
          BookingNotHeld,
          ChooseByNotPassed,
          ChooseByPassed,
          HoldLapsed,
          HoldNotExpired,
          HoldNotLapsed,
          InvalidRefundCents,
          NotACourse,
          NotChoosing,
          NotFound,
          NotPaidByHand,
          NotStarted,
          PlacesOnHold,
          ResellerBooking,
          SoldOut,
          TimeNotAvailable,
          TooManyHolds
        )
      )
  )
  .add(
    post("move", "/move", "Move to another time of the same offering, in place")
      .setPayload(MoveBody)
      .annotate(
        OpenApi.Description,
        "Moves a booking to another time of the same offering, in place (starts_at, or session_id for a class): a confirmed booking, a hold still keeping its place, or one whose time was called off before its choose_by. Refused for a lapsed hold (hold_lapsed), a cancelled booking, a course booking (course_booking), after choose_by (choose_by_passed), or where the new time has no room. Emits booking.moved with data.previous."
      )
      .pipe(
        raises(
          AlreadyCalledOff,
          AlreadyNudged,
          AlreadyPaid,
          BookingBusy,
          BookingCancelled,
          BookingNotConfirmed,
          BookingNotHeld,
          ChooseByNotPassed,
          ChooseByPassed,
          CourseBooking,
          HoldLapsed,
          HoldNotExpired,
          HoldNotLapsed,
          InvalidBody,
          InvalidPeriods,
          InvalidSeriesId,
          InvalidSessionId,
          InvalidStartsAt,
          NotACourse,
          NotChoosing,
          NotFound,
          NotPaidByHand,
          NotStarted,
          OutsideBookingWindow,
          PlacesOnHold,
          ResellerBooking,
          SoldOut,
          TimeNotAvailable,
          TooManyHolds
        )
      )
  )
  .add(
    post("set_attendance", "/attendance", "Check in, mark a no-show (once started), or clear")
      .setPayload(AttendanceBody)
      .annotate(
        OpenApi.Description,
        "On a confirmed booking: checked_in (rental: picked up), no_show (only once its time has started: 409 not_started), or clear. A held booking is 409 booking_not_confirmed. Emits booking.checked_in, booking.no_show or booking.attendance_cleared."
      )
      .pipe(
        raises(
          AlreadyCalledOff,
          AlreadyNudged,
          AlreadyPaid,
          BookingBusy,
          BookingCancelled,
          BookingNotConfirmed,
          BookingNotHeld,
          ChooseByNotPassed,
          ChooseByPassed,
          HoldLapsed,
          HoldNotExpired,
          HoldNotLapsed,
          NotACourse,
          NotChoosing,
          NotFound,
          NotPaidByHand,
          NotStarted,
          PlacesOnHold,
          ResellerBooking,
          SoldOut,
          TimeNotAvailable,
          TooManyHolds
        )
      )
  )
  .add(
    post("mark_paid", "/mark_paid", "Mark paid by hand")
      .setPayload(MarkPaidBody)
      .annotate(
        OpenApi.Description,
        "Marks a confirmed booking paid by hand (paid_cents: what was paid in all, default the total, at most the total and at least what was paid online and by gift card). Already marked is 409 already_paid. Emits booking.paid."
      )
      .pipe(
        raises(
          AlreadyCalledOff,
          AlreadyNudged,
          AlreadyPaid,
          BookingBusy,
          BookingCancelled,
          BookingNotConfirmed,
          BookingNotHeld,
          ChooseByNotPassed,
          ChooseByPassed,
          HoldLapsed,
          HoldNotExpired,
          HoldNotLapsed,
          InvalidPaidCents,
          NotACourse,
          NotChoosing,
          NotFound,
          NotPaidByHand,
          NotStarted,
          PlacesOnHold,
          ResellerBooking,
          SoldOut,
          TimeNotAvailable,
          TooManyHolds
        )
      )
  )
  .add(
    post("mark_unpaid", "/mark_unpaid", "Take back a payment marked by hand")
      .annotate(
        OpenApi.Description,
        "Takes back a payment marked by hand on a confirmed booking (409 not_paid_by_hand otherwise); what was paid online or by gift card stays paid: paid_at and paid_cents go back to it. Emits booking.unpaid."
      )
      .pipe(
        raises(
          AlreadyCalledOff,
          AlreadyNudged,
          AlreadyPaid,
          BookingBusy,
          BookingCancelled,
          BookingNotConfirmed,
          BookingNotHeld,
          ChooseByNotPassed,
          ChooseByPassed,
          HoldLapsed,
          HoldNotExpired,
          HoldNotLapsed,
          NotACourse,
          NotChoosing,
          NotFound,
          NotPaidByHand,
          NotStarted,
          PlacesOnHold,
          ResellerBooking,
          SoldOut,
          TimeNotAvailable,
          TooManyHolds
        )
      )
  )
  .add(
    post("resend", "/resend", "Email the guest their booking page again")
      .annotate(
        OpenApi.Description,
        "Emails the guest the link to their booking page again; changes nothing. Refused for a cancelled booking or an erased guest. Emits nothing."
      )
      .pipe(raises(BookingCancelled, CustomerErased, NotFound, PlacesOnHold, SoldOut, TimeNotAvailable, TooManyHolds))
  )
  .add(
    post("nudge", "/nudge", "Email the guest of a lapsed hold a link to finish booking (once)")
      .annotate(
        OpenApi.Description,
        "Emails the guest of a hold that lapsed unpaid a link to finish booking, once (409 already_nudged after; hold_not_lapsed while the hold still keeps its place; booking_not_held once confirmed). Emits booking.nudged."
      )
      .pipe(
        raises(
          AlreadyCalledOff,
          AlreadyNudged,
          AlreadyPaid,
          BookingBusy,
          BookingCancelled,
          BookingNotConfirmed,
          BookingNotHeld,
          ChooseByNotPassed,
          ChooseByPassed,
          HoldLapsed,
          HoldNotExpired,
          HoldNotLapsed,
          NotACourse,
          NotChoosing,
          NotFound,
          NotPaidByHand,
          NotStarted,
          PlacesOnHold,
          ResellerBooking,
          SoldOut,
          TimeNotAvailable,
          TooManyHolds
        )
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
