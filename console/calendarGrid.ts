import type { AgendaItem } from "./agenda.ts"
import { addDays, dateIn, time, zonedToUtc } from "./format.ts"

/** The calendar grid's geometry: minutes of the org's day down, one column per local date. */

/** Pixels per minute of the grid (40 px an hour). */
export const PX = 40 / 60
/** A dragged time lands on a quarter hour. */
export const STEP = 15

export const snap = (minutes: number, step = STEP) => Math.round(minutes / step) * step

/** Minutes since local midnight of an instant, in the org's zone. */
export const minuteOf = (iso: string, zone: string) => {
  const [h, m] = time(iso, zone).split(":").map(Number)
  return h * 60 + m
}

export const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`

/** The dates a view shows: one day, or Monday to Sunday of the date's week. */
export const datesOf = (first: string, count: number) => Array.from({ length: count }, (_, i) => addDays(first, i))

export interface Hour {
  readonly weekday: number
  readonly start_time: string
  readonly end_time: string
}

const weekday = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay()
const minutesOfClock = (t: string) => {
  const [h, m] = t.split(":").map(Number)
  return h * 60 + m
}

/**
 * The hours the grid shows, in whole hours: from the earliest opening to the latest closing of the weekly hours on
 * the dates shown (7 to 22 without any), widened to every time in view.
 */
export const hourRange = (
  dates: ReadonlyArray<string>,
  hours: ReadonlyArray<Hour>,
  items: ReadonlyArray<AgendaItem>,
  zone: string
) => {
  const days = new Set(dates.map(weekday))
  const open = hours.filter((h) => days.has(h.weekday))
  let from = open.length === 0 ? 7 * 60 : Math.min(...open.map((h) => minutesOfClock(h.start_time)))
  let to = open.length === 0 ? 22 * 60 : Math.max(...open.map((h) => minutesOfClock(h.end_time) || 1440))
  for (const i of items) {
    const start = minuteOf(i.starts_at, zone)
    const date = dateIn(new Date(i.starts_at), zone)
    const sameDay = dateIn(new Date(i.ends_at), zone) === date
    from = Math.min(from, start)
    to = Math.max(to, sameDay ? minuteOf(i.ends_at, zone) || 1440 : 1440)
  }
  return { from: Math.floor(from / 60), to: Math.min(24, Math.ceil(to / 60)) }
}

export interface Placed {
  readonly item: AgendaItem
  /** Minutes from the top of the grid, and length in minutes (cut at the end of the day). */
  readonly top: number
  readonly length: number
  readonly lane: number
  readonly lanes: number
}

/** The items of one date, each given a lane so that times at once sit side by side. */
export const place = (items: ReadonlyArray<AgendaItem>, zone: string, fromHour: number): Placed[] => {
  const spans = items.map((item) => {
    const start = minuteOf(item.starts_at, zone)
    const sameDay = dateIn(new Date(item.ends_at), zone) === dateIn(new Date(item.starts_at), zone)
    const end = sameDay ? minuteOf(item.ends_at, zone) : 1440
    return { item, start, end: Math.max(end, start + STEP) }
  })
  spans.sort((a, b) => a.start - b.start || b.end - a.end)
  const out: Placed[] = []
  let group: Array<{ item: AgendaItem; start: number; end: number; lane: number }> = []
  let groupEnd = -1
  const flush = () => {
    const lanes = Math.max(1, ...group.map((g) => g.lane + 1))
    for (const g of group)
      out.push({ item: g.item, top: g.start - fromHour * 60, length: g.end - g.start, lane: g.lane, lanes })
    group = []
  }
  for (const s of spans) {
    if (s.start >= groupEnd) flush()
    const busy = new Set(group.filter((g) => g.end > s.start).map((g) => g.lane))
    let lane = 0
    while (busy.has(lane)) lane++
    group.push({ ...s, lane })
    groupEnd = Math.max(groupEnd, s.end)
  }
  flush()
  return out
}

export interface Closure {
  readonly id: string
  readonly offering_id: string | null
  readonly starts_on: string
  readonly ends_on: string
  readonly open_hours: ReadonlyArray<{ start_time: string; end_time: string }>
  readonly note: string | null
}

export interface Band {
  readonly key: string
  readonly top: number
  readonly length: number
  readonly text: string
}

/**
 * The greyed parts of a date's column: all of it for a closure closed all day, the hours outside its open hours for
 * one open other hours; each says what is closed and its note.
 */
export const bands = (
  closures: ReadonlyArray<Closure>,
  date: string,
  range: { from: number; to: number },
  offeringName: (id: string) => string
): Band[] => {
  const out: Band[] = []
  const lo = range.from * 60
  const hi = range.to * 60
  for (const c of closures) {
    if (date < c.starts_on || date > c.ends_on) continue
    const what = c.offering_id === null ? "Closed" : `${offeringName(c.offering_id)} closed`
    const open = [...c.open_hours].map((h) => [minutesOfClock(h.start_time), minutesOfClock(h.end_time) || 1440])
    const text = `${what}${open.length > 0 ? ` outside ${c.open_hours.map((h) => `${h.start_time.slice(0, 5)}–${h.end_time.slice(0, 5)}`).join(", ")}` : ""}${c.note === null || c.note === "" ? "" : `: ${c.note}`}`
    let at = lo
    for (const [s, e] of [...open.sort((a, b) => a[0] - b[0]), [hi, hi]]) {
      const end = Math.min(Math.max(s, lo), hi)
      if (end > at) out.push({ key: `${c.id}:${at}`, top: at - lo, length: end - at, text })
      at = Math.max(at, Math.min(e, hi))
    }
  }
  return out
}

const dayFormat = new Map<string, Intl.DateTimeFormat>()
/** "Tue 3 Dec" of an instant in the org's zone. */
export const shortDay = (iso: string, zone: string) => {
  let f = dayFormat.get(zone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: zone })
    dayFormat.set(zone, f)
  }
  return f.format(new Date(iso))
}

/** The date's noon as an instant, to name the date in the org's zone. */
export const noonOf = (date: string, zone: string) => zonedToUtc(date, "12:00", zone).toISOString()

/** What a block says to a screen reader: "Yoga, Tue 3 Dec 18:00–19:00, 5 taken, 3 left, 1 held, 2 waiting". */
export const blockLabel = (item: AgendaItem, zone: string) => {
  const when = `${shortDay(item.starts_at, zone)} ${time(item.starts_at, zone)}–${time(item.ends_at, zone)}`
  const s = item.session
  if (s !== undefined) {
    const extra = [s.holds > 0 ? `${s.holds} held` : "", s.waiting > 0 ? `${s.waiting} waiting` : ""].filter(Boolean)
    return [`${item.offering}`, when, `${s.taken} taken`, `${s.left} left`, ...extra].join(", ")
  }
  const b = item.booking
  const who = b?.customer?.name ?? b?.reference ?? "a guest"
  return `${item.offering}, ${when}, ${who}, ${b?.status ?? "booked"}`
}
