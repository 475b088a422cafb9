import { Context, type Effect } from "effect"

export interface SessionRef {
  readonly id: string
  readonly org_id: string
  readonly offering_id: string
  readonly series_id: string | null
  readonly starts_at: Date
  readonly ends_at: Date
}

/**
 * What the calendar asks of bookings when times go away. Each runs inside the caller's transaction, which
 * already holds the session rows' locks. Implemented by the bookings service.
 */
export class CalendarBookings extends Context.Tag("CalendarBookings")<
  CalendarBookings,
  {
    /** guests refund: cancel and refund all; choose: cancel holds and reseller bookings, call off the rest. */
    readonly sessionCancelled: (
      session: SessionRef,
      guests: "refund" | "choose",
      note: string | null,
      again: boolean
    ) => Effect.Effect<void>
    /** series.delete / removal of booked future times: cancel every booking on them; returns how many. */
    readonly cancelOnSessions: (sessions: ReadonlyArray<SessionRef>, reason: string) => Effect.Effect<number>
    /** closures.create over bookings on weekly hours: refund cancels them all; choose calls them off. */
    readonly closedOn: (
      orgId: string,
      bookingIds: ReadonlyArray<string>,
      guests: "refund" | "choose",
      note: string | null
    ) => Effect.Effect<void>
  }
>() {}
