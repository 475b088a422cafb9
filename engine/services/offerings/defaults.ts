import type { Kind } from "../../schema/offering.ts"

/** Per-kind defaults (documented in docs/offerings.md). kind and name have none. */
export const defaultsFor = (kind: Kind) => ({
  description: "",
  location: "",
  duration_minutes: kind === "rental" ? 1440 : kind === "class" ? 60 : 30,
  capacity: kind === "class" ? 10 : 1,
  max_per_booking: kind === "class" ? 10 : 1,
  price_cents: 0,
  guest_price_cents: null,
  deposit_cents: null,
  deposit_percent: null,
  slot_interval_minutes: null,
  buffer_minutes: 0,
  min_notice_minutes: kind === "appointment" ? 60 : 0,
  max_advance_days: kind === "appointment" ? 60 : 365,
  max_periods: kind === "rental" ? 7 : 1,
  metadata: {},
  lat: null,
  lon: null,
  place_id: null,
  gauge_site: null,
  schedule: kind === "appointment" ? ("calendar" as const) : null,
  waiver_required: false,
  waitlist_enabled: false,
  course: false,
  questions: []
})
