import { Effect } from "effect"
import { closureRefusing, type OpenHours } from "../../availability/closures.ts"
import { InvalidDates, InvalidOpenHours } from "../../errors/index.ts"
import type { Closure, ClosureCreate } from "../../schema/closure.ts"
import type { ClosureRow } from "../../store/closures.ts"
import { daysBetween, endOfLocalDay, parseTimeInput, toInstant } from "../../time/local.ts"

/** A closure spans at most a year and a day of local dates. */
const MAX_DAYS = 366

export const toClosure = (row: ClosureRow): Closure => ({
  id: row.id,
  offering_id: row.offering_id,
  starts_on: row.starts_on,
  ends_on: row.ends_on,
  open_hours: row.open_hours.map((h) => ({ start_time: h.start_time, end_time: h.end_time })),
  note: row.note,
  starts_at: row.starts_at.toISOString(),
  ends_at: row.ends_at.toISOString(),
  created_at: row.created_at.toISOString()
})

/** The row a request describes, in the org's zone: its dates in order, its open hours each ending after it starts. */
export const closureRowOf = (
  input: ClosureCreate,
  ids: { readonly id: string; readonly org_id: string },
  zone: string,
  now: Date
) =>
  Effect.gen(function* () {
    const endsOn = input.ends_on ?? input.starts_on
    if (endsOn < input.starts_on) return yield* new InvalidDates({ message: "ends_on is before starts_on" })
    if (daysBetween(input.starts_on, endsOn) >= MAX_DAYS)
      return yield* new InvalidDates({ message: `a closure spans at most ${MAX_DAYS} days` })
    const open: Array<OpenHours> = []
    for (const [i, h] of (input.open_hours ?? []).entries()) {
      const start = parseTimeInput(h.start_time) ?? h.start_time
      const end = parseTimeInput(h.end_time) ?? h.end_time
      if (start === "24:00:00" || end <= start)
        return yield* new InvalidOpenHours({ message: `open_hours[${i}]: end_time must be after start_time` })
      open.push({ start_time: start, end_time: end })
    }
    open.sort((a, b) => a.start_time.localeCompare(b.start_time))
    return {
      ...ids,
      offering_id: input.offering_id ?? null,
      starts_on: input.starts_on,
      ends_on: endsOn,
      open_hours: open,
      note: input.note ?? null,
      starts_at: toInstant(input.starts_on, "00:00:00", zone),
      ends_at: endOfLocalDay(endsOn, zone),
      created_at: now
    } satisfies ClosureRow
  })

/** A booked time or booking the closure keeps it from being open for (see closureRefusing). */
export const insideClosure = (
  row: ClosureRow,
  zone: string,
  t: { readonly kind: "class" | "appointment" | "rental"; readonly starts_at: Date; readonly ends_at: Date }
) => closureRefusing([row], zone, t.kind, t.starts_at, t.ends_at) !== undefined
