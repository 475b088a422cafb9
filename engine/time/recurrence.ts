// Yearly on 29 February falls on 28 February in years that have no 29 February.
import {
  addDays,
  daysBetween,
  daysInMonth,
  type LocalDate,
  localDate,
  MAX_DAYS_WALKED,
  walkDays,
  weekdayOf
} from "./local.ts"

export type Repeat = "none" | "daily" | "weekly" | "monthly" | "yearly" | "weekdays"

export type Recurrence = { starts_on: LocalDate; repeat: Repeat; ends_on: LocalDate | null }

export type MonthlyRule = { nth: 1 | 2 | 3 | 4 | -1; weekday: number }

const parts = (date: LocalDate) => date.split("-").map(Number)

/** The nth weekday of the month, or -1 ("last") when the date is in the month's last 7 days. */
export const describeMonthly = (starts_on: LocalDate): MonthlyRule => {
  const [y, m, d] = parts(starts_on)
  const weekday = weekdayOf(starts_on)
  if (d + 7 > daysInMonth(y, m)) return { nth: -1, weekday }
  return { nth: Math.ceil(d / 7) as 1 | 2 | 3 | 4, weekday }
}

const monthlyDate = (y: number, m: number, rule: MonthlyRule): LocalDate => {
  if (rule.nth === -1) {
    const last = daysInMonth(y, m)
    const back = (weekdayOf(localDate(y, m, last)) - rule.weekday + 7) % 7
    return localDate(y, m, last - back)
  }
  const first = (rule.weekday - weekdayOf(localDate(y, m, 1)) + 7) % 7
  return localDate(y, m, 1 + first + 7 * (rule.nth - 1))
}

const yearlyDate = (y: number, m: number, d: number): LocalDate => localDate(y, m, Math.min(d, daysInMonth(y, m)))

const stepping = (first: LocalDate, last: LocalDate, step: number, keep: (date: LocalDate) => boolean = () => true) =>
  daysBetween(first, last) < 0 ? [] : walkDays(first, last, step).filter(keep)

/** Dates from `at` by `next` (at least a day on), kept from `first` through `last`; as bounded as walkDays. */
const byDate = (first: LocalDate, last: LocalDate, next: (date: LocalDate) => LocalDate, at: LocalDate) => {
  if (!(daysBetween(at, last) <= MAX_DAYS_WALKED)) throw new RangeError(`refusing to walk from ${at} to ${last}`)
  const out: LocalDate[] = []
  for (let date = at; daysBetween(date, last) >= 0; date = next(date)) if (date >= first) out.push(date)
  return out
}

const monthly = (starts_on: LocalDate, first: LocalDate, last: LocalDate) => {
  const rule = describeMonthly(starts_on)
  const next = (date: LocalDate) => {
    const [y, m] = parts(date)
    return m === 12 ? monthlyDate(y + 1, 1, rule) : monthlyDate(y, m + 1, rule)
  }
  const [y, m] = parts(first)
  return byDate(first, last, next, monthlyDate(y, m, rule))
}

const yearly = (starts_on: LocalDate, first: LocalDate, last: LocalDate) => {
  const [, sm, sd] = parts(starts_on)
  const next = (date: LocalDate) => yearlyDate(parts(date)[0] + 1, sm, sd)
  return byDate(first, last, next, yearlyDate(parts(first)[0], sm, sd))
}

const isWeekday = (date: LocalDate) => weekdayOf(date) >= 1 && weekdayOf(date) <= 5

/** Local dates of an entry's times within [from, until], inclusive. */
export const occurrences = (entry: Recurrence, from: LocalDate, until: LocalDate): LocalDate[] => {
  const { starts_on, repeat, ends_on } = entry
  const first = starts_on > from ? starts_on : from
  const last = ends_on !== null && ends_on < until ? ends_on : until
  if (first > last) return []
  switch (repeat) {
    case "none":
      return first === starts_on ? [starts_on] : []
    case "daily":
      return stepping(first, last, 1)
    case "weekdays":
      return stepping(first, last, 1, isWeekday)
    case "weekly":
      return stepping(addDays(first, (7 - (daysBetween(starts_on, first) % 7)) % 7), last, 7)
    case "monthly":
      return monthly(starts_on, first, last)
    case "yearly":
      return yearly(starts_on, first, last)
  }
}
