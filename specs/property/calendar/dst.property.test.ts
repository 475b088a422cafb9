import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { hoursSlots } from "../../../engine/availability/hoursSlots.ts"
import { type EntryTimes, timeOf, weeklyTimes } from "../../../engine/services/calendar/materialize.ts"
import { openIntervals, type WeeklyHours } from "../../../engine/time/hours.ts"
import { addDays, toInstant } from "../../../engine/time/local.ts"
import { offsetOf, transitionsOf, wallMs, wallOf, ZONES } from "../time/intl.ts"

// Every rule is checked against Intl (the oracle in ../time/intl.ts), on days around both changes of each zone,
// with times on a 5-minute grid so that they fall into gaps and repeated hours.
const MINUTE = 60_000
const pad = (n: number) => String(n).padStart(2, "0")
const clock = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}:00`
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

const MUST = ["Europe/Amsterdam", "America/New_York", "Australia/Lord_Howe"]
const changeDays = [...new Set([...MUST, ...ZONES])].flatMap((zone) =>
  transitionsOf(zone, 2026, 2027).map((t) => ({ zone, date: wallOf(t, zone).date }))
)
/** A zone and a date within a few days of one of its changes (or, for zones without any, any date). */
const nearChange = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(...changeDays), fc.integer({ min: -2, max: 1 }))
      .map(([c, k]) => ({ zone: c.zone, date: addDays(c.date, k) }))
  },
  {
    weight: 1,
    arbitrary: fc.record({
      zone: fc.constantFrom(...ZONES),
      date: fc.integer({ min: 0, max: 730 }).map((n) => addDays("2026-01-01", n))
    })
  }
)
const gridTime = fc.integer({ min: 0, max: 287 }).map((n) => clock(5 * n))

/** Whether the clock reads exactly `time` on `date` at some instant (read from Intl around the naive instants). */
const exists = (date: string, time: string, zone: string) => {
  const wall = wallMs(date, time)
  return [-15, 15].some((h) => {
    const t = new Date(wall - offsetOf(new Date(wall + h * 3_600_000), zone) * MINUTE)
    const w = wallOf(t, zone)
    return w.date === date && w.time === time
  })
}

/** Minutes the clock jumps forward at the first change of the day (for a time inside a gap). */
const gapAt = (date: string, time: string, zone: string) => {
  const wall = wallMs(date, time)
  return offsetOf(new Date(wall + 15 * 3_600_000), zone) - offsetOf(new Date(wall - 15 * 3_600_000), zone)
}

const entries = fc.oneof(
  fc
    .tuple(gridTime, gridTime)
    .filter(([a, b]) => a !== b)
    .map(
      ([a, b]): EntryTimes => ({
        starts_on: "2026-01-01",
        start_time: a < b ? a : b,
        end_time: a < b ? b : a,
        span_days: 0,
        repeat: "daily",
        ends_on: null
      })
    ),
  fc.tuple(gridTime, gridTime, fc.integer({ min: 1, max: 3 })).map(
    ([a, b, span_days]): EntryTimes => ({
      starts_on: "2026-01-01",
      start_time: a,
      end_time: b,
      span_days,
      repeat: "daily",
      ends_on: null
    })
  ),
  fc.integer({ min: 0, max: 3 }).map(
    (span_days): EntryTimes => ({
      starts_on: "2026-01-01",
      start_time: null,
      end_time: null,
      span_days,
      repeat: "daily",
      ends_on: null
    })
  )
)

describe("calendar times across DST changes", () => {
  it("every time ends after it starts; a time within a day keeps its local length; longer ones end at their local end", () => {
    fc.assert(
      fc.property(entries, nearChange, (entry, { zone, date }) => {
        const t = timeOf(entry, date, zone)
        expect(t.ends_at.getTime()).toBeGreaterThan(t.starts_at.getTime())
        const start = entry.start_time ?? "00:00:00"
        expect(t.starts_at).toEqual(toInstant(date, start, zone))
        const shown = wallOf(t.starts_at, zone)
        if (exists(date, start, zone)) expect(shown).toMatchObject({ date, time: start })
        else expect((wallMs(shown.date, shown.time) - wallMs(date, start)) / MINUTE).toBe(gapAt(date, start, zone))
        const last = addDays(date, entry.span_days)
        if (entry.start_time !== null && entry.end_time !== null && entry.span_days === 0) {
          expect(t.ends_at.getTime() - t.starts_at.getTime()).toBe(
            (minutesOf(entry.end_time) - minutesOf(entry.start_time)) * MINUTE
          )
        } else {
          const [endDate, endTime] = entry.end_time === null ? [addDays(last, 1), "00:00:00"] : [last, entry.end_time]
          const ended = wallOf(t.ends_at, zone)
          if (exists(endDate, endTime, zone)) expect(ended).toMatchObject({ date: endDate, time: endTime })
          else
            expect((wallMs(ended.date, ended.time) - wallMs(endDate, endTime)) / MINUTE).toBe(
              gapAt(endDate, endTime, zone)
            )
        }
      }),
      { numRuns: 1500 }
    )
  })

  it("sessions.create repeat_weeks: every repeat lasts as long as the first, at the first's local time (moved by a gap)", () => {
    fc.assert(
      fc.property(
        nearChange,
        gridTime,
        fc.integer({ min: 1, max: 120 }).map((n) => n * 5 * MINUTE),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 2 }),
        ({ zone, date }, time, length, weeks, back) => {
          const first = toInstant(addDays(date, -7 * back), time, zone)
          const local = wallOf(first, zone)
          const times = weeklyTimes(first, length, weeks, zone)
          expect(times[0].starts_at).toEqual(first)
          times.forEach((t, week) => {
            expect(t.ends_at.getTime() - t.starts_at.getTime()).toBe(length)
            const day = addDays(local.date, 7 * week)
            const shown = wallOf(t.starts_at, zone)
            if (exists(day, local.time, zone)) expect(shown).toMatchObject({ date: day, time: local.time })
            else
              expect((wallMs(shown.date, shown.time) - wallMs(day, local.time)) / MINUTE).toBe(
                gapAt(day, local.time, zone)
              )
          })
        }
      ),
      { numRuns: 800 }
    )
  })
})

const weeklyHours: fc.Arbitrary<Array<WeeklyHours>> = fc.array(
  fc
    .tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 287 }), fc.integer({ min: 1, max: 288 }))
    .filter(([, a, b]) => a < b)
    .map(([weekday, a, b]) => ({ weekday, start_time: clock(5 * a), end_time: b === 288 ? "24:00:00" : clock(5 * b) })),
  { minLength: 1, maxLength: 6 }
)

/** Whether the clock at `t` reads within an hours entry of its weekday (its reading date within [from, to]). */
const readsOpen = (hours: ReadonlyArray<WeeklyHours>, t: number, zone: string) => {
  const w = wallOf(new Date(t), zone)
  return hours.filter((h) => h.weekday === w.weekday && h.start_time <= w.time && w.time < h.end_time)
}

describe("weekly hours across DST changes", () => {
  it("an instant is open exactly while the clock reads within the hours, before the first time it read their end", () => {
    fc.assert(
      fc.property(
        weeklyHours,
        nearChange,
        fc.array(fc.integer({ min: 0, max: 9999 }), { minLength: 30, maxLength: 30 }),
        (hours, { zone, date }, picks) => {
          const to = addDays(date, 2)
          const windows = openIntervals(hours, zone, date, to)
          const first = toInstant(date, "00:00:00", zone).getTime()
          const last = toInstant(to, "24:00:00", zone).getTime()
          for (const p of picks) {
            const t = first + Math.floor(((p / 10_000) * (last - first)) / MINUTE) * MINUTE
            const reading = wallOf(new Date(t), zone)
            // Open only before the first instant of that date whose clock read the entry's end (a repeated hour).
            const open = readsOpen(hours, t, zone).some((h) => {
              if (offsetOf(new Date(t - 3 * 3_600_000), zone) === offsetOf(new Date(t), zone)) return true
              for (let back = MINUTE; back <= 3 * 3_600_000; back += MINUTE) {
                const w = wallOf(new Date(t - back), zone)
                if (w.date === reading.date && w.time >= h.end_time) return false
              }
              return true
            })
            expect(
              windows.some((w) => w.start.getTime() <= t && t < w.end.getTime()),
              `${zone} ${new Date(t).toISOString()} reads ${reading.date} ${reading.time}`
            ).toBe(open)
          }
        }
      ),
      { numRuns: 400 }
    )
  })

  it("slots never start or run outside the local hours", () => {
    fc.assert(
      fc.property(
        weeklyHours,
        nearChange,
        fc.integer({ min: 1, max: 24 }),
        fc.option(fc.integer({ min: 1, max: 12 }), { nil: null }),
        (hours, { zone, date }, duration, interval) => {
          const slots = hoursSlots({
            now: new Date(toInstant(date, "00:00:00", zone).getTime() - 86_400_000),
            zone,
            from: date,
            to: addDays(date, 1),
            min_notice_minutes: 0,
            max_advance_days: 30,
            active: true,
            hours,
            duration_minutes: duration * 5,
            slot_interval_minutes: interval === null ? null : interval * 5,
            buffer_minutes: 0,
            capacity: 1,
            busy: []
          })
          for (const s of slots) {
            const [start, end] = [Date.parse(s.starts_at), Date.parse(s.ends_at)]
            expect(end - start).toBe(duration * 5 * MINUTE)
            for (const t of [start, start + 15 * MINUTE, start + 30 * MINUTE, start + 60 * MINUTE, end - MINUTE].filter(
              (x) => x < end
            )) {
              expect(
                readsOpen(hours, t, zone).length,
                `${zone} slot ${s.starts_at} at ${new Date(t).toISOString()}`
              ).toBeGreaterThan(0)
            }
          }
        }
      ),
      { numRuns: 300 }
    )
  })
})
