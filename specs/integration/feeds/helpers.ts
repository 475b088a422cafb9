import ICAL from "ical.js"
import { expect } from "vitest"
import type { BookingsOrg, TestApp } from "../bookings/helpers.ts"
import { ok } from "../bookings/helpers.ts"

export interface ParsedEvent {
  readonly uid: string
  readonly summary: string
  readonly status: string | null
  readonly location: string | null
  readonly sequence: number
  /** The TZID of DTSTART and DTEND, or "UTC". */
  readonly startZone: string
  readonly endZone: string
  readonly start: string
  readonly end: string
  readonly description: string | null
}

/**
 * A feed read with ical.js (a second iCalendar library): its VTIMEZONEs registered from the document itself, so
 * every instant comes from the zone rules the feed spells out.
 */
export const parseFeed = (text: string) => {
  const cal = new ICAL.Component(ICAL.parse(text))
  expect(cal.name).toBe("vcalendar")
  const zones = cal.getAllSubcomponents("vtimezone").map((v) => new ICAL.Timezone(v))
  for (const z of zones) ICAL.TimezoneService.register(z, z.tzid)
  const events: Array<ParsedEvent> = cal.getAllSubcomponents("vevent").map((v) => {
    const e = new ICAL.Event(v)
    const zoneOf = (name: string) => {
      const p = v.getFirstProperty(name)
      return (p?.getParameter("tzid") as string | undefined) ?? (e.startDate.zone?.tzid === "UTC" ? "UTC" : "floating")
    }
    return {
      uid: e.uid,
      summary: e.summary,
      status: (v.getFirstPropertyValue("status") as string | null) ?? null,
      location: e.location ?? null,
      sequence: e.sequence,
      startZone: zoneOf("dtstart"),
      endZone: zoneOf("dtend"),
      start: e.startDate.toJSDate().toISOString(),
      end: e.endDate.toJSDate().toISOString(),
      description: e.description ?? null
    }
  })
  for (const z of zones) ICAL.TimezoneService.remove(z.tzid)
  return { cal, zones: zones.map((z) => z.tzid), events, name: cal.getFirstPropertyValue("x-wr-calname") as string }
}

/** GET a feed URL (no key): status, content type, text. */
export const fetchFeed = async (url: string) => {
  const res = await fetch(url)
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() }
}

/** The path of a feed URL on this app (the URL carries PUBLIC_URL). */
export const onApp = (app: TestApp, url: string) => `${app.url}${new URL(url).pathname}`

/** A team member added by the platform, with an API key of their own. */
export const member = async (app: TestApp, org: BookingsOrg, role: "owner" | "staff", name: string) => {
  const m = ok(
    await app.admin("POST", `/orgs/${org.id}/members`, {
      email: `${name.toLowerCase()}-${org.id}@example.com`,
      name,
      role
    }),
    201
  )
  const key = ok(await org.call("POST", "/api_keys", { user_id: m.user_id }), 201).key as string
  const call = (method: string, path: string, body?: unknown) => app.call(key, method, `/api/v1${path}`, body)
  return { user_id: m.user_id as string, key, call }
}
