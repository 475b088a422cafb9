import type { BookingRow } from "../../store/bookingRow.ts"
import type { Plan } from "../CurrentOrg.ts"
import { calendarText } from "../feeds/ical.ts"

/** A booking as the guest's page reads it: the row with its offering, org and customer. */
export type Row = BookingRow & {
  readonly o_name: string
  readonly o_kind: "class" | "appointment" | "rental"
  readonly o_location: string
  readonly o_lat: number | null
  readonly o_lon: number | null
  readonly o_place_id: string | null
  readonly o_gauge_site: string | null
  readonly o_deposit_cents: number | null
  readonly o_deposit_percent: number | null
  readonly g_name: string
  readonly g_timezone: string
  readonly g_currency: string
  readonly g_locale: string
  readonly g_plan: Plan
  readonly g_cancel_hours: number | null
  readonly g_payments: "online" | "offline"
  readonly c_name: string | null
  readonly c_email: string | null
}

/** Where the meeting point opens on a map: the place id when set, else the coordinates. */
export const mapUrl = (r: {
  o_location: string | null
  o_lat: number | null
  o_lon: number | null
  o_place_id: string | null
}) =>
  r.o_place_id !== null
    ? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(r.o_location ?? "")}&query_place_id=${encodeURIComponent(r.o_place_id)}`
    : r.o_lat !== null && r.o_lon !== null
      ? `https://www.openstreetmap.org/?mlat=${r.o_lat}&mlon=${r.o_lon}#map=16/${r.o_lat}/${r.o_lon}`
      : null

/**
 * The booking as an iCalendar file (the guest page's "add to calendar"), built as the calendar feeds are. Imported once
 * rather than subscribed to, its times are written as UTC instants (every client reads them alike); the org's zone is
 * named beside them (X-WR-TIMEZONE).
 */
export const icsOf = (r: Row, url: string, host: string, now: Date) =>
  calendarText({
    name: `${r.o_name} (${r.g_name})`,
    zone: r.g_timezone,
    utcTimes: true,
    now,
    events: [
      {
        uid: `${r.id}@${host}`,
        start: r.starts_at,
        end: r.ends_at,
        summary: `${r.o_name} (${r.g_name})`,
        location: r.o_location || null,
        geo: r.o_lat !== null && r.o_lon !== null ? { lat: r.o_lat, lon: r.o_lon } : null,
        description: `Booking ${r.reference}. Manage it at ${url}`,
        url,
        status: r.status === "cancelled" ? "cancelled" : r.status === "held" ? "tentative" : "confirmed",
        created: r.created_at,
        changed: r.updated_at ?? r.created_at
      }
    ]
  })
