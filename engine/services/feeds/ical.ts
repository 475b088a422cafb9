import { DateTime } from "effect"
import ical, { ICalCalendarMethod, type ICalDayJsStub, ICalEventStatus } from "ical-generator"
import { vtimezone } from "../../time/vtimezone.ts"

/** One time or booking as a calendar event. */
export interface CalendarEvent {
  /** Stable across versions of the feed: the time's or booking's id at the engine's host. */
  readonly uid: string
  readonly start: Date
  readonly end: Date
  readonly summary: string
  readonly location?: string | null
  readonly geo?: { readonly lat: number; readonly lon: number } | null
  readonly description?: string | null
  readonly url?: string | null
  readonly status: "confirmed" | "tentative" | "cancelled"
  readonly created: Date
  /** When it last changed: LAST-MODIFIED, and SEQUENCE counts the seconds since `created` so each change bumps it. */
  readonly changed: Date
}

const STATUS = {
  confirmed: ICalEventStatus.CONFIRMED,
  tentative: ICalEventStatus.TENTATIVE,
  cancelled: ICalEventStatus.CANCELLED
} as const

const UTC_ZONES = new Set(["UTC", "Etc/UTC", "Etc/GMT", "GMT"])

const pad = (n: number, w = 2) => String(n).padStart(w, "0")

/**
 * An instant read on a zone's wall clock, in the shape ical-generator takes for zoned values (its Day.js stub): it
 * writes `DTSTART;TZID=zone:` with the local reading, never the server process's own zone.
 */
const zoned = (instant: Date, zone: string): ICalDayJsStub => {
  const parts = DateTime.toParts(DateTime.unsafeMakeZoned(instant, { timeZone: zone }))
  const stub: ICalDayJsStub = {
    format: (f?: string) =>
      f === "YYYYMMDD"
        ? `${pad(parts.year, 4)}${pad(parts.month)}${pad(parts.day)}`
        : f === "HHmmss"
          ? `${pad(parts.hours)}${pad(parts.minutes)}${pad(parts.seconds)}`
          : instant.toISOString(),
    isValid: () => !Number.isNaN(instant.getTime()),
    toDate: () => new Date(instant),
    toJSON: () => instant.toISOString(),
    tz: (z?: string) => (z === undefined || z === zone ? stub : zoned(instant, z))
  }
  return stub
}

/** The host part of UIDs: the public URL's host. */
export const uidHost = (publicUrl: string) => {
  try {
    return new URL(publicUrl).host || "booking-engine"
  } catch {
    return "booking-engine"
  }
}

/**
 * An iCalendar document (RFC 5545) of events in one zone: each DTSTART and DTEND with TZID = the zone, and its
 * VTIMEZONE spelled out for the span of the events, so a client without the zone's rules reads the same instants.
 */
export const calendarText = (input: {
  readonly name: string
  readonly zone: string
  readonly events: ReadonlyArray<CalendarEvent>
  readonly now: Date
  /** How often a subscribed calendar should fetch again (REFRESH-INTERVAL), seconds. */
  readonly refreshSeconds?: number
  readonly description?: string
  /** Write the times as UTC (…Z) whatever the zone, which X-WR-TIMEZONE still names: for a one-off import. */
  readonly utcTimes?: boolean
}) => {
  const starts = input.events.map((e) => e.start.getTime())
  const ends = input.events.map((e) => e.end.getTime())
  const from = Math.min(input.now.getTime(), ...starts)
  const to = Math.max(input.now.getTime(), ...ends)
  const cal = ical({
    name: input.name,
    prodId: { company: "booking-engine", product: "calendar", language: "EN" },
    method: ICalCalendarMethod.PUBLISH,
    timezone: { name: null, generator: (zone) => vtimezone(zone, from, to) },
    ...(input.refreshSeconds === undefined ? {} : { ttl: input.refreshSeconds }),
    ...(input.description === undefined ? {} : { description: input.description })
  })
  cal.x([["X-WR-TIMEZONE", input.zone]])
  // UTC needs no zone: its times are written as UTC (…Z), which every client reads alike.
  const utc = input.utcTimes === true || UTC_ZONES.has(input.zone)
  for (const e of input.events) {
    cal.createEvent({
      id: e.uid,
      sequence: Math.max(0, Math.floor((e.changed.getTime() - e.created.getTime()) / 1000)),
      stamp: input.now,
      created: e.created,
      lastModified: e.changed,
      ...(utc
        ? { start: e.start, end: e.end }
        : { start: zoned(e.start, input.zone), end: zoned(e.end, input.zone), timezone: input.zone }),
      summary: e.summary,
      ...(e.location
        ? { location: e.geo ? { title: e.location, geo: { lat: e.geo.lat, lon: e.geo.lon } } : e.location }
        : {}),
      ...(e.description ? { description: e.description } : {}),
      ...(e.url ? { url: e.url } : {}),
      status: STATUS[e.status]
    })
  }
  return `${cal.toString()}\r\n`
}
