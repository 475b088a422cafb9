// Wall clocks read straight from Intl, independent of engine/time, for the property tests.
const formats = new Map<string, Intl.DateTimeFormat>()

const formatOf = (zone: string) => {
  let format = formats.get(zone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "short",
      timeZoneName: "longOffset"
    })
    formats.set(zone, format)
  }
  return format
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

export const ZONES = [
  "Europe/Amsterdam",
  "America/New_York",
  "Australia/Lord_Howe",
  "UTC",
  "Asia/Kolkata",
  "Pacific/Chatham",
  "America/Santiago",
  "America/St_Johns",
  "Europe/London",
  "Asia/Tehran"
]

export const wallOf = (instant: Date, zone: string) => {
  const parts = Object.fromEntries(
    formatOf(zone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value])
  )
  return {
    date: `${parts.year.padStart(4, "0")}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}:${parts.second}`,
    weekday: WEEKDAYS.indexOf(parts.weekday)
  }
}

/** Minutes east of UTC at the instant. */
export const offsetOf = (instant: Date, zone: string): number => {
  const name =
    formatOf(zone)
      .formatToParts(instant)
      .find((p) => p.type === "timeZoneName")?.value ?? "GMT"
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name)
  return match === null ? 0 : (match[1] === "+" ? 1 : -1) * (Number(match[2]) * 60 + Number(match[3]))
}

/** Wall-clock parts read as if UTC, in ms: a ruler for comparing wall times. */
export const wallMs = (date: string, time: string): number => {
  const [y, m, d] = date.split("-").map(Number)
  const [hh, mm, ss] = time.split(":").map(Number)
  return Date.UTC(y, m - 1, d, hh, mm, ss)
}

/** Instants (hourly precision) where the zone's offset changes in the given years. */
export const transitionsOf = (zone: string, fromYear: number, toYear: number): Array<Date> => {
  const found: Array<Date> = []
  let previous = offsetOf(new Date(Date.UTC(fromYear, 0, 1)), zone)
  for (let t = Date.UTC(fromYear, 0, 1); t < Date.UTC(toYear + 1, 0, 1); t += 3_600_000) {
    const offset = offsetOf(new Date(t), zone)
    if (offset !== previous) found.push(new Date(t))
    previous = offset
  }
  return found
}

/** Whether the zone changes offset within `hours` of the instant. */
export const nearTransition = (instant: Date, zone: string, hours = 27): boolean =>
  offsetOf(new Date(instant.getTime() - hours * 3_600_000), zone) !==
  offsetOf(new Date(instant.getTime() + hours * 3_600_000), zone)
