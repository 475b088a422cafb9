/** Prices in the org's currency, dates in the browser's language, times in the org's zone (which is named). */
const lang = () => (typeof navigator !== "undefined" && navigator.language) || "en"

export const money = (cents: number, currency: string, minor: number) =>
  new Intl.NumberFormat(lang(), {
    style: "currency",
    currency,
    minimumFractionDigits: Math.round(Math.log10(minor))
  }).format(cents / minor)

export const dayLabel = (iso: string, zone: string) =>
  new Intl.DateTimeFormat(lang(), { weekday: "short", day: "numeric", month: "short", timeZone: zone }).format(
    new Date(iso)
  )
export const dayLong = (iso: string, zone: string) =>
  new Intl.DateTimeFormat(lang(), { weekday: "long", day: "numeric", month: "long", timeZone: zone }).format(
    new Date(iso)
  )
export const time = (iso: string, zone: string) =>
  new Intl.DateTimeFormat(lang(), { hour: "numeric", minute: "2-digit", timeZone: zone }).format(new Date(iso))
export const when = (iso: string, zone: string) => `${dayLong(iso, zone)}, ${time(iso, zone)}`

/** The local date (YYYY-MM-DD) of an instant in a zone. */
export const localDate = (iso: string | Date, zone: string) => {
  const parts = new Intl.DateTimeFormat("en-CA", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    timeZone: zone
  }).formatToParts(new Date(iso))
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? ""
  return `${get("year")}-${get("month")}-${get("day")}`
}
export const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)
