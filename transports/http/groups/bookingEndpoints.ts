import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Booking, BookingCreate, BookingPage, BookingsQuery, CancelBody } from "../../../engine/schema/booking.ts"
import { post } from "./bookingPost.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

/** Bookings listed, read, made, confirmed and cancelled. */
export const listEndpoint = HttpApiEndpoint.get("list", "/bookings")
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

export const getEndpoint = HttpApiEndpoint.get("get")`/bookings/${IdParam}`
  .addSuccess(Booking)
  .annotate(OpenApi.Summary, "A booking with its offering and customer")
  .annotate(OpenApi.Description, "One booking with its offering and customer. Emits nothing.")

export const createEndpoint = HttpApiEndpoint.post("create", "/bookings")
  .setPayload(BookingCreate)
  .setHeaders(IdempotencyHeaders)
  .addSuccess(Booking, { status: 201 })
  .annotate(OpenApi.Summary, "Book: free is confirmed at once, priced is held until paid or confirmed")
  .annotate(
    OpenApi.Description,
    "Books a time: starts_at for appointments and rentals (periods for a rental's length), session_id for a class, series_id for a whole course. A free booking is confirmed at once (booking.confirmed); a priced one is held (booking.held) until paid at its checkout_url or confirmed, keeping its place until expires_at (hold_minutes). A promo code takes its discount off total_cents; a gift card pays part (gift_cents). Answers are keyed by question id; an offering asking for a waiver can be signed here (waiver). The customer is found or added by email (customer.updated). Capacity is never oversold (409 sold_out); past the plan's monthly quota is 402 plan_quota_exceeded. Emits booking.held or booking.confirmed, waiver.signed per signature."
  )

export const confirmEndpoint = post(
  "confirm",
  "/confirm",
  "Confirm a hold (a lapsed hold only if its place is still free)"
).annotate(
  OpenApi.Description,
  "Confirms a held booking (state held; a lapsed hold only if its place is still free). A confirmed booking is 409 booking_not_held, a cancelled one booking_cancelled. The hold's checkout closes at the processor; a payment that still lands on it pays the booking (booking.paid). Emits booking.confirmed."
)

export const cancelEndpoint = post(
  "cancel",
  "/cancel",
  "Cancel; refund_cents: null refunds the whole online payment, 0 none, otherwise that part"
)
  .setPayload(CancelBody)
  .annotate(
    OpenApi.Description,
    "Cancels a held or confirmed booking (a cancelled one is 409 booking_cancelled); the guest is emailed. What was paid online is refunded: refund_cents null the whole payment, 0 none, otherwise that part (at most charged_cents: above it, or above 0 for a booking not paid online, is 400 invalid_refund_cents and changes nothing). A held booking's checkout closes at the processor; a payment that still lands on it is refunded in full. A gift card's part goes back to the card. Emits booking.cancelled, then booking.refunded or booking.refund_failed when the processor answers, gift_card.refunded, and waitlist.opened when a place opens for people waiting."
  )
