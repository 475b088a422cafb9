import { DomainError } from "./define.ts"

export class SessionCancelled extends DomainError<SessionCancelled>()("SessionCancelled") {}
export class SessionRemoved extends DomainError<SessionRemoved>()("SessionRemoved") {}
export class SessionBooked extends DomainError<SessionBooked>()("SessionBooked") {}
export class SessionStarted extends DomainError<SessionStarted>()("SessionStarted") {}
export class InvalidEndsAt extends DomainError<InvalidEndsAt>()("InvalidEndsAt") {}
export class InvalidTimes extends DomainError<InvalidTimes>()("InvalidTimes") {}
export class InvalidTo extends DomainError<InvalidTo>()("InvalidTo") {}
export class InvalidStartTime extends DomainError<InvalidStartTime>()("InvalidStartTime") {}
export class InvalidStartsOn extends DomainError<InvalidStartsOn>()("InvalidStartsOn") {}
export class InvalidEndsOn extends DomainError<InvalidEndsOn>()("InvalidEndsOn") {}
export class InvalidEntry extends DomainError<InvalidEntry>()("InvalidEntry") {}
export class SeriesHasBookings extends DomainError<SeriesHasBookings>()("SeriesHasBookings") {}
export class NotOnCalendar extends DomainError<NotOnCalendar>()("NotOnCalendar") {}
export class ScheduleIsHours extends DomainError<ScheduleIsHours>()("ScheduleIsHours") {}
export class ScheduleIsCalendar extends DomainError<ScheduleIsCalendar>()("ScheduleIsCalendar") {}
export class CapacityNotSupported extends DomainError<CapacityNotSupported>()("CapacityNotSupported") {}
export class Closed extends DomainError<Closed>()("Closed") {}
export class ClosureHasBookings extends DomainError<ClosureHasBookings>()("ClosureHasBookings") {}
export class InvalidOpenHours extends DomainError<InvalidOpenHours>()("InvalidOpenHours") {}
/** An offering's calendar feed without the offering it shows. */
export class InvalidOfferingId extends DomainError<InvalidOfferingId>()("InvalidOfferingId") {}
/** A member's calendar feed without the member, asked by a key that belongs to none. */
export class InvalidUserId extends DomainError<InvalidUserId>()("InvalidUserId") {}
