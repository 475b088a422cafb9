import { Schema } from "effect"
import { type Kind, Offering, type Question } from "../../schema/offering.ts"
import type { OfferingState } from "../../machines/offering.ts"
import type { StoredHours } from "./hours.ts"

export interface OfferingRow {
  readonly id: string
  readonly org_id: string
  readonly kind: Kind
  readonly name: string
  readonly description: string
  readonly location: string
  readonly duration_minutes: number
  readonly capacity: number
  readonly max_per_booking: number
  readonly price_cents: number
  readonly guest_price_cents: number | null
  readonly deposit_cents: number | null
  readonly deposit_percent: number | null
  readonly slot_interval_minutes: number | null
  readonly buffer_minutes: number
  readonly min_notice_minutes: number
  readonly max_advance_days: number
  readonly max_periods: number
  readonly state: OfferingState
  readonly metadata: Record<string, unknown>
  readonly lat: number | null
  readonly lon: number | null
  readonly place_id: string | null
  readonly gauge_site: string | null
  readonly schedule: "hours" | "calendar" | null
  readonly waiver_required: boolean
  readonly waitlist_enabled: boolean
  readonly course: boolean
  readonly questions: ReadonlyArray<Question>
  readonly hours: ReadonlyArray<StoredHours> | null
  readonly photo_url: string | null
  readonly created_at: Date
  readonly updated_at: Date | null
}

const strip = Schema.encodeSync(Offering)

/** The resource as the API shows it (and as events carry it): only the contract's fields. */
export const toOffering = ({ state, created_at, updated_at, ...r }: OfferingRow): Offering =>
  strip({ ...r, active: state === "active", created_at: created_at.toISOString(), updated_at: updated_at?.toISOString() ?? null })
