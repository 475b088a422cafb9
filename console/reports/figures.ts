import { addDays, mondayOf } from "../format.ts"

/** The reports' rows as GET /api/v1/reports/* answers them (engine/schema/report.ts). */
export interface Frame<R> {
  currency: string
  timezone: string
  from: string
  to: string
  data: R[]
}
export interface RevenueRow {
  period: string | null
  bookings: number
  charged_cents: number
  refunded_cents: number
  net_cents: number
  gift_card_cents: number
  discount_cents: number
  deposits_due_cents: number
}
export interface OccupancyRow {
  offering_id: string
  offering_name: string
  hour: number
  times: number
  places_offered: number
  places_sold: number
}
export interface AttendanceRow {
  offering_id: string
  offering_name: string
  bookings: number
  cancelled: number
  checked_in: number
  no_shows: number
}
export interface WaitlistRow {
  offering_id: string
  offering_name: string
  joins: number
  got_a_place: number
}

export type By = "day" | "week" | "month"
export type Preset = "month" | "30days" | "year" | "custom"

/** The local dates (inclusive) of a preset, from today's date in the org's zone. */
export const presetRange = (preset: Exclude<Preset, "custom">, today: string) => {
  const [y, m] = today.split("-").map(Number)
  if (preset === "30days") return { from: addDays(today, -29), to: today }
  if (preset === "year") return { from: `${y}-01-01`, to: `${y}-12-31` }
  const first = `${y}-${String(m).padStart(2, "0")}-01`
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`
  return { from: first, to: addDays(next, -1) }
}

/** The first local date of the day, ISO week (from Monday) or month a date is in, as the API names periods. */
export const periodOf = (date: string, by: By) =>
  by === "day" ? date : by === "week" ? mondayOf(date) : `${date.slice(0, 7)}-01`

/** Every period between two dates, in order: the chart shows the quiet ones as zero, not as a gap that hides them. */
export const periods = (from: string, to: string, by: By): string[] => {
  const out: string[] = []
  for (let p = periodOf(from, by); p <= to; ) {
    out.push(p)
    if (by === "month") {
      const [y, m] = p.split("-").map(Number)
      p = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`
    } else p = addDays(p, by === "day" ? 1 : 7)
    if (out.length > 4000) break
  }
  return out
}

const MONEY = [
  "bookings",
  "charged_cents",
  "refunded_cents",
  "net_cents",
  "gift_card_cents",
  "discount_cents",
  "deposits_due_cents"
] as const
export type RevenueTotals = Record<(typeof MONEY)[number], number>

export const revenueTotals = (rows: ReadonlyArray<RevenueRow>): RevenueTotals => {
  const t = Object.fromEntries(MONEY.map((k) => [k, 0])) as RevenueTotals
  for (const r of rows) for (const k of MONEY) t[k] += r[k]
  return t
}

/** Each period of the range with its figures (zeros where nothing was booked). */
export const revenueSeries = (rows: ReadonlyArray<RevenueRow>, from: string, to: string, by: By) => {
  const at = new Map(rows.map((r) => [r.period, r]))
  return periods(from, to, by).map((p) => ({ ...(at.get(p) ?? revenueTotals([])), period: p }))
}

export interface Occupancy {
  readonly key: string
  readonly label: string
  readonly times: number
  readonly offered: number
  readonly sold: number
}

const sum = (
  rows: ReadonlyArray<OccupancyRow>,
  key: (r: OccupancyRow) => string,
  label: (r: OccupancyRow) => string
) => {
  const out = new Map<string, Occupancy>()
  for (const r of rows) {
    const k = key(r)
    const was = out.get(k) ?? { key: k, label: label(r), times: 0, offered: 0, sold: 0 }
    out.set(k, {
      ...was,
      times: was.times + r.times,
      offered: was.offered + r.places_offered,
      sold: was.sold + r.places_sold
    })
  }
  return [...out.values()]
}

/** Places sold against offered per offering (as the API orders them, by name). */
export const occupancyByOffering = (rows: ReadonlyArray<OccupancyRow>) =>
  sum(
    rows,
    (r) => r.offering_id,
    (r) => r.offering_name
  )

/** Places sold against offered per local hour the times start, early to late. */
export const occupancyByHour = (rows: ReadonlyArray<OccupancyRow>) =>
  sum(
    rows,
    (r) => String(r.hour).padStart(2, "0"),
    (r) => `${String(r.hour).padStart(2, "0")}:00`
  ).sort((a, b) => a.key.localeCompare(b.key))

/** "38%": the share of places sold; "–" when none were offered. */
export const share = (sold: number, offered: number) => (offered === 0 ? "–" : `${Math.round((sold / offered) * 100)}%`)
