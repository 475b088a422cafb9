import type { BookingRow } from "../../store/bookingRow.ts"
import type { Plan } from "../CurrentOrg.ts"

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

const icsDate = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "")
const icsText = (s: string) => s.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, "\\n")

/** The booking as an iCalendar file (the guest page's "add to calendar"). */
export const icsOf = (r: Row, url: string) =>
  `${[
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//booking-engine//guest page//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${r.id}@booking-engine`,
    `DTSTAMP:${icsDate(r.updated_at ?? r.created_at)}`,
    `DTSTART:${icsDate(r.starts_at)}`,
    `DTEND:${icsDate(r.ends_at)}`,
    `SUMMARY:${icsText(`${r.o_name} (${r.g_name})`)}`,
    ...(r.o_location ? [`LOCATION:${icsText(r.o_location)}`] : []),
    ...(r.o_lat !== null && r.o_lon !== null ? [`GEO:${r.o_lat};${r.o_lon}`] : []),
    `DESCRIPTION:${icsText(`Booking ${r.reference}. Manage it at ${url}`)}`,
    `URL:${url}`,
    `STATUS:${r.status === "cancelled" ? "CANCELLED" : r.status === "held" ? "TENTATIVE" : "CONFIRMED"}`,
    "END:VEVENT",
    "END:VCALENDAR"
  ]
    .map(fold)
    .join("\r\n")}\r\n`

/** Lines longer than 75 octets continue on the next line after a space (RFC 5545 3.1). */
const fold = (line: string) => {
  const parts: Array<string> = []
  let rest = line
  while (Buffer.byteLength(rest) > 75) {
    let n = 74
    while (Buffer.byteLength(rest.slice(0, n)) > 74) n--
    parts.push(rest.slice(0, n))
    rest = rest.slice(n)
  }
  parts.push(rest)
  return parts.join("\r\n ")
}
