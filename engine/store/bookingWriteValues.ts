import type { CustomerWriteValues } from "./customers.ts"

/** What a new booking writes, by name: its row's columns, its guest, its mail and its events (newRow.ts builds it). */
export interface BookingWriteValues {
  readonly org_id: string
  readonly at: Date
  readonly customer_id: string
  readonly email: string | null
  readonly name: string | null
  readonly phone: string | null
  readonly known_name: string | null
  readonly known_phone: string | null
  readonly id: string
  readonly offering_id: string
  readonly session_id: string | null
  readonly series_id: string | null
  readonly starts_at: Date
  readonly ends_at: Date
  readonly quantity: number
  readonly places: number
  readonly state: string
  /** jsonb, as text. */
  readonly machine: string
  readonly status: string
  readonly expires_at: Date | null
  readonly total_cents: number
  readonly reference: string
  readonly handle: string
  readonly source: string
  readonly notes: string
  /** jsonb, as text. */
  readonly answers: string
  /** jsonb, as text. */
  readonly metadata: string
  readonly confirmed_at: Date | null
  readonly waiver_token: string | null
  readonly waiver_needed: number | null
  readonly guest_cancel_hours: number | null
  readonly mail_id: string
  /** No mail when null: a quiet booking. */
  readonly mail_to: string | null
  readonly mail_subject: string
  readonly mail_body: string
  readonly mail_kind: string
  /** jsonb, as text. */
  readonly mail_vars: string
  /** The month (YYYY-MM, the org's zone) the booking counts in, and the plan's quota of it. */
  readonly month: string
  readonly quota: number
  readonly event_types: ReadonlyArray<string>
  /** A jsonb array, as text, one per type. */
  readonly event_data: string
  /** Who made the booking (jsonb, as text): every one of its events carries it. */
  readonly actor: string
}

/** The guest's placeholders, each named only when the way of meeting the guest reads it (a getter). */
export const guestOf = (
  v: { readonly [K in keyof BookingWriteValues]-?: string },
  org: string,
  at: string
): CustomerWriteValues => ({
  org,
  at,
  get id() {
    return `${v.customer_id}::uuid`
  },
  get email() {
    return `${v.email}::text`
  },
  get name() {
    return `${v.name}::text`
  },
  get phone() {
    return `${v.phone}::text`
  },
  get known_name() {
    return `${v.known_name}::text`
  },
  get known_phone() {
    return `${v.known_phone}::text`
  }
})
