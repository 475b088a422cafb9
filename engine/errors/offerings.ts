import { DomainError } from "./define.ts"

export class OfferingRemoved extends DomainError<OfferingRemoved>()("OfferingRemoved") {}
export class OfferingState extends DomainError<OfferingState>()("OfferingState") {}
export class OfferingPaused extends DomainError<OfferingPaused>()("OfferingPaused") {}
export class OfferingHasBookings extends DomainError<OfferingHasBookings>()("OfferingHasBookings") {}
export class InvalidPhoto extends DomainError<InvalidPhoto>()("InvalidPhoto") {}
export class PhotoTooLarge extends DomainError<PhotoTooLarge>()("PhotoTooLarge") {}
export class PhotoUnreachable extends DomainError<PhotoUnreachable>()("PhotoUnreachable") {}
export class InvalidHours extends DomainError<InvalidHours>()("InvalidHours") {}
export class InvalidQuestions extends DomainError<InvalidQuestions>()("InvalidQuestions") {}
export class InvalidDates extends DomainError<InvalidDates>()("InvalidDates") {}
export class DepositConflict extends DomainError<DepositConflict>()("DepositConflict") {}
export class GuestPriceNotSupported extends DomainError<GuestPriceNotSupported>()("GuestPriceNotSupported") {}
export class ScheduleNotSupported extends DomainError<ScheduleNotSupported>()("ScheduleNotSupported") {}
export class NotAClass extends DomainError<NotAClass>()("NotAClass") {}
export class CalendarHasTimes extends DomainError<CalendarHasTimes>()("CalendarHasTimes") {}
export class NotHoursBased extends DomainError<NotHoursBased>()("NotHoursBased") {}
