/**
 * What a guest may do on their own page, as a pure rule of the booking's facts and the clock.
 *
 * - A hold that still keeps its place can be let go (nothing was paid) and, with something left to pay, paid; with
 *   nothing to pay (an assistant held it for the guest), confirmed.
 * - A confirmed booking can be cancelled or moved until `hours` before its start, where `hours` is the rule the
 *   booking was made under (guest_cancel_hours) or the org's rule now if that is kinder (fewer hours). With neither
 *   set, only the business can. A course booking holds every time of its course and never moves.
 * - While a called-off booking's choose_by runs, its guest may take another time or cancel, whatever the hours.
 */
export interface GuestFacts {
  readonly status: "held" | "confirmed" | "cancelled"
  readonly keeps_place: boolean
  readonly expires_at: Date | null
  readonly starts_at: Date
  readonly choose_by: Date | null
  readonly series_id: string | null
  readonly guest_cancel_hours: number | null
  readonly due_online_cents: number
  /** Nothing is left to pay (free, or a gift card covers it): a hold is the guest's to confirm. */
  readonly nothing_to_pay: boolean
}

export interface GuestActions {
  /** Until when the guest may cancel; null: not now. */
  readonly cancel_until: Date | null
  /** Until when the guest may move to another time; null: not now. */
  readonly move_until: Date | null
  /** The guest's hold waits for a payment they can make now. */
  readonly pay: boolean
  /** The guest's hold (an assistant made it for them) waits for them to confirm it: nothing to pay. */
  readonly confirm: boolean
  /** Why cancel or move is not offered, in the guest's words; null when both are. */
  readonly why_not: string | null
}

const HOUR_MS = 3_600_000

/** The booking's rule, or the org's now if kinder; null when neither lets the guest act. */
export const guestHours = (booking: number | null, org: number | null): number | null =>
  booking === null ? org : org === null ? booking : Math.min(booking, org)

export const guestActions = (b: GuestFacts, orgHours: number | null, now: Date): GuestActions => {
  const t = now.getTime()
  const none = (why: string): GuestActions => ({
    cancel_until: null,
    move_until: null,
    pay: false,
    confirm: false,
    why_not: why
  })
  if (b.status === "cancelled") return none("This booking is cancelled.")
  if (b.status === "held") {
    // A hold can be let go until it lapses (or, with no expiry, until the start).
    const until = Math.min(b.expires_at?.getTime() ?? Infinity, b.starts_at.getTime())
    return b.keeps_place && until > t
      ? {
          cancel_until: new Date(until),
          move_until: null,
          pay: b.due_online_cents > 0,
          confirm: b.nothing_to_pay,
          why_not: null
        }
      : {
          ...none(b.starts_at.getTime() <= t ? "This booking has started." : "This hold has lapsed."),
          pay: b.due_online_cents > 0 && b.starts_at.getTime() > t
        }
  }
  if (b.choose_by !== null && b.choose_by.getTime() > t) {
    return {
      cancel_until: b.choose_by,
      move_until: b.series_id === null ? b.choose_by : null,
      pay: false,
      confirm: false,
      why_not: null
    }
  }
  if (b.starts_at.getTime() <= t) return none("This booking has started.")
  const hours = guestHours(b.guest_cancel_hours, orgHours)
  if (hours === null) return none("Changes to this booking are made by the business: write to them below.")
  const until = new Date(b.starts_at.getTime() - hours * HOUR_MS)
  if (until.getTime() <= t)
    return none(`Changes on this page close ${hours} hours before the start: write to the business below.`)
  return {
    cancel_until: until,
    move_until: b.series_id === null ? until : null,
    pay: false,
    confirm: false,
    why_not: null
  }
}
