import { currencyDecimals } from "../../schema/currency.ts"

const formats = new Map<string, Intl.DateTimeFormat>()
const formatIn = (zone: string) => {
  let format = formats.get(zone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23"
    })
    formats.set(zone, format)
  }
  return format
}

/** An instant as the org's wall clock, "YYYY-MM-DD HH:mm" (what spreadsheets read as a date and time); "" for none. */
export const localTime = (zone: string) => {
  const format = formatIn(zone)
  return (at: Date | string | null | undefined): string => {
    if (at === null || at === undefined) return ""
    const parts: Record<string, string> = {}
    for (const p of format.formatToParts(typeof at === "string" ? new Date(at) : at)) parts[p.type] = p.value
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`
  }
}

/** Minor units as a decimal of the currency (1999 EUR: "19.99", 500 JPY: "500", 1234 BHD: "1.234"); "" for none. */
export const money = (currency: string) => {
  const decimals = currencyDecimals(currency)
  const unit = 10 ** decimals
  return (cents: number | null | undefined): string => {
    if (cents === null || cents === undefined) return ""
    const whole = Math.trunc(Math.abs(cents) / unit)
    const part = Math.abs(cents) % unit
    const sign = cents < 0 ? "-" : ""
    return decimals === 0 ? `${sign}${whole}` : `${sign}${whole}.${String(part).padStart(decimals, "0")}`
  }
}

/** Text as a cell: a spreadsheet would run one that starts like a formula (=, +, -, @), so it is opened with a '. */
export const text = (value: string | number | null | undefined): string => {
  if (value === null || value === undefined) return ""
  const s = String(value)
  return /^[=+\-@\t\r]/.test(s) && !/^[+-]?[\d (][\d ()./-]*$/.test(s) ? `'${s}` : s
}
