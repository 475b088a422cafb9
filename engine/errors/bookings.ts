import { DomainError } from "./define.ts"

export class SoldOut extends DomainError<SoldOut>()("SoldOut") {}
export class TimeNotAvailable extends DomainError<TimeNotAvailable>()("TimeNotAvailable") {}
export class OutsideBookingWindow extends DomainError<OutsideBookingWindow>()("OutsideBookingWindow") {}
export class CourseBooking extends DomainError<CourseBooking>()("CourseBooking") {}
export class BookingBusy extends DomainError<BookingBusy>()("BookingBusy") {}
export class InvalidQuantity extends DomainError<InvalidQuantity>()("InvalidQuantity") {}
export class InvalidPeriods extends DomainError<InvalidPeriods>()("InvalidPeriods") {}
export class InvalidSeriesId extends DomainError<InvalidSeriesId>()("InvalidSeriesId") {}
export class InvalidSessionId extends DomainError<InvalidSessionId>()("InvalidSessionId") {}
export class InvalidStartsAt extends DomainError<InvalidStartsAt>()("InvalidStartsAt") {}
export class InvalidAnswers extends DomainError<InvalidAnswers>()("InvalidAnswers") {}
export class InvalidPaidCents extends DomainError<InvalidPaidCents>()("InvalidPaidCents") {}
/** bookings.create with `payment` it cannot take (free with a promo code or a gift card). */
export class InvalidPayment extends DomainError<InvalidPayment>()("InvalidPayment") {}
export class InvalidRefundCents extends DomainError<InvalidRefundCents>()("InvalidRefundCents") {}
/** bookings.retry_refund on a booking none of whose refunds failed for good (none, on its way, or refunded). */
export class NoFailedRefund extends DomainError<NoFailedRefund>()("NoFailedRefund") {}
export class CustomerErased extends DomainError<CustomerErased>()("CustomerErased") {}
/** Writing to a guest whose email was erased (a 400 where a booking's resend is a 409, both `customer_erased`). */
export class RecipientErased extends DomainError<RecipientErased>()("RecipientErased", "customer_erased") {}
export class GuestCannotCancel extends DomainError<GuestCannotCancel>()("GuestCannotCancel") {}
export class GuestCannotConfirm extends DomainError<GuestCannotConfirm>()("GuestCannotConfirm") {}
export class GuestCannotMove extends DomainError<GuestCannotMove>()("GuestCannotMove") {}
/** The plan's monthly booking quota is used up: upgrade the plan or wait for next month. */
export class PlanQuotaExceeded extends DomainError<PlanQuotaExceeded>()("PlanQuotaExceeded") {}
export class TooManyHolds extends DomainError<TooManyHolds>()("TooManyHolds") {}
export class PlacesOnHold extends DomainError<PlacesOnHold>()("PlacesOnHold") {}
export class NotPaidOnline extends DomainError<NotPaidOnline>()("NotPaidOnline") {}
export class CheckoutUnavailable extends DomainError<CheckoutUnavailable>()("CheckoutUnavailable") {}
export class TotalTooLarge extends DomainError<TotalTooLarge>()("TotalTooLarge") {}
export class BookingCancelled extends DomainError<BookingCancelled>()("BookingCancelled") {}
export class BookingNotHeld extends DomainError<BookingNotHeld>()("BookingNotHeld") {}
export class BookingNotConfirmed extends DomainError<BookingNotConfirmed>()("BookingNotConfirmed") {}
export class HoldLapsed extends DomainError<HoldLapsed>()("HoldLapsed") {}
export class HoldNotLapsed extends DomainError<HoldNotLapsed>()("HoldNotLapsed") {}
export class HoldNotExpired extends DomainError<HoldNotExpired>()("HoldNotExpired") {}
export class AlreadyNudged extends DomainError<AlreadyNudged>()("AlreadyNudged") {}
export class NotChoosing extends DomainError<NotChoosing>()("NotChoosing") {}
export class AlreadyCalledOff extends DomainError<AlreadyCalledOff>()("AlreadyCalledOff") {}
export class ResellerBooking extends DomainError<ResellerBooking>()("ResellerBooking") {}
export class ChooseByPassed extends DomainError<ChooseByPassed>()("ChooseByPassed") {}
export class ChooseByNotPassed extends DomainError<ChooseByNotPassed>()("ChooseByNotPassed") {}
export class NotACourse extends DomainError<NotACourse>()("NotACourse") {}
export class AlreadyPaid extends DomainError<AlreadyPaid>()("AlreadyPaid") {}
export class NotPaidByHand extends DomainError<NotPaidByHand>()("NotPaidByHand") {}
export class NotStarted extends DomainError<NotStarted>()("NotStarted") {}
