/** The booking machine's context, input and events (booking.ts). */

export interface Times {
  readonly starts_at: string
  readonly ends_at: string
  readonly session_id: string | null
}

export interface BookingContext extends Times {
  readonly series_id: string | null
  readonly is_reseller: boolean
  readonly expires_at: string | null
  readonly confirmed_at: string | null
  readonly cancelled_at: string | null
  readonly nudged_at: string | null
  readonly choose_by: string | null
  readonly paid_at: string | null
  /**
   * When it was paid other than by hand: the online payment, or a gift card that paid the whole of it as it was
   * booked (absent on bookings paid before it was kept).
   */
  readonly paid_online_at?: string | null
  readonly paid_by_hand: boolean
  readonly checked_in_at: string | null
  readonly no_show_at: string | null
  readonly previous: Times | null
}

/** `hold`: paid online, or held for the guest to confirm (source `assistant`); otherwise confirmed at once. */
export interface BookingInput extends Times {
  readonly at: string
  readonly hold: boolean
  readonly series_id: string | null
  readonly is_reseller: boolean
  readonly expires_at: string | null
  /** Paid as it is booked: a gift card covers the whole of it. */
  readonly paid?: boolean
  /** Paid to the business by hand as it is booked (bookings.create with payment `paid`). */
  readonly paid_by_hand?: boolean
}

type At = { readonly at: string }
type Bare =
  | "confirm"
  | "pay"
  | "lapse"
  | "nudge"
  | "cancel"
  | "choose_expired"
  | "mark_paid"
  | "mark_unpaid"
  | "check_in"
  | "no_show"
  | "clear_attendance"
  | "checkout_opened"
  | "sign_waiver"
export type BookingEvent =
  | { readonly [K in Bare]: { readonly type: K } & At }[Bare]
  | ({ readonly type: "move" } & At & Times)
  | ({ readonly type: "extend_hold"; readonly expires_at: string } & At)
  | ({ readonly type: "call_off"; readonly choose_by: string } & At)
  | ({ readonly type: "time_cancelled"; readonly starts_at: string; readonly session_id: string | null } & At)

export type BookingEventName =
  | "booking.held"
  | "booking.confirmed"
  | "booking.nudged"
  | "booking.moved"
  | "booking.called_off"
  | "booking.session_cancelled"
  | "booking.paid"
  | "booking.unpaid"
  | "booking.checked_in"
  | "booking.no_show"
  | "booking.attendance_cleared"
  | "booking.cancelled"
