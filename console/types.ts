/** The shapes the console reads from /auth/v1 and /api/v1 (see GET /api/v1/openapi.json). */
export type Role = "owner" | "staff"
export interface Session {
  user: { id: string; email: string; name: string | null }
  org: { id: string; name: string; timezone: string; currency: string } | null
  role: Role | null
  /** Your id on the current org's team (members' user_id: what a time's teacher and a member feed name). */
  member_id: string | null
  memberships: Array<{ org_id: string; org_name: string; role: Role }>
  csrf_token: string
}
export type Kind = "class" | "appointment" | "rental"
/** How the guest pays a priced booking taken in the console (bookings.create `payment`). */
export type Payment = "paid" | "unpaid" | "online" | "free"
export interface Question {
  id?: string
  label: string
  type: "text" | "yes_no" | "choice"
  options?: string[]
  required?: boolean
}
export interface Offering {
  id: string
  kind: Kind
  name: string
  location: string
  duration_minutes: number
  capacity: number
  max_per_booking: number
  price_cents: number
  guest_price_cents: number | null
  deposit_cents: number | null
  deposit_percent: number | null
  slot_interval_minutes: number | null
  description: string
  lat: number | null
  lon: number | null
  buffer_minutes: number
  min_notice_minutes: number
  max_advance_days: number
  max_periods: number
  active: boolean
  schedule: "hours" | "calendar" | null
  waiver_required: boolean
  waitlist_enabled: boolean
  course: boolean
  questions: Question[]
  photo_url: string | null
}
export interface TimeSlot {
  id: string
  offering_id: string
  starts_at: string
  ends_at: string
  capacity: number | null
  status: "scheduled" | "cancelled"
  series_id: string | null
  booked?: number
  /** Who teaches it (a team member), or null. */
  teacher?: { user_id: string; name: string } | null
}
export interface Customer {
  id: string
  name: string | null
  email: string | null
  phone: string | null
  erased?: boolean
}
export interface Booking {
  id: string
  offering_id: string
  customer_id: string
  session_id: string | null
  series_id: string | null
  starts_at: string
  ends_at: string
  quantity: number
  total_cents: number
  discount_cents: number
  gift_cents: number
  reference: string
  status: "held" | "confirmed" | "cancelled"
  source: string
  notes: string
  answers: Record<string, unknown>
  created_at: string
  expires_at: string | null
  checkout_url: string | null
  nudged_at: string | null
  paid_at: string | null
  paid_cents: number | null
  charged_cents: number | null
  payment_intent_id: string | null
  refund_cents: number | null
  refunded_at: string | null
  refund_failed_at: string | null
  refund_error: string | null
  refund_next_at: string | null
  checked_in_at: string | null
  no_show_at: string | null
  cancel_reason: string | null
  offering?: { id: string; name: string; kind: Kind; questions: Question[] }
  customer?: Customer
}
export interface Message {
  id: string
  booking_id: string | null
  customer_id: string
  direction: "outbound" | "inbound"
  channel: string
  body: string
  created_at: string
  failed_at: string | null
}
export interface Waiting {
  id: string
  offering_id: string
  session_id: string
  starts_at: string
  customer: { id: string; name: string | null; email: string | null }
  places: number
  ended_at: string | null
}
/** Who made the change an event tells of (docs/events.md): null for events written before actors were kept. */
export interface Actor {
  type: "person" | "key" | "guest" | "system"
  id?: string | null
  user_id?: string | null
  via?: "widget" | "guest_page" | "assistant" | "email" | "text"
}
export interface EventRow {
  id: number
  type: string
  data: unknown
  created_at: string
  actor?: Actor | null
}
export interface Page<T> {
  data: T[]
  next_after?: string | number | null
}

/** The org's settings as GET /org answers them (what Settings edits). */
export interface Org {
  name: string
  timezone: string
  currency: string
  locale: string
  payments: "online" | "offline"
  auto_acknowledge: boolean
  allowed_origins: string[]
  guest_cancel_hours: number | null
  mail_templates: Record<string, { subject?: string; text?: string }>
}
