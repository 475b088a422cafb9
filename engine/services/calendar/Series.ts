import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import {
  InvalidEndsOn,
  InvalidEntry,
  InvalidStartsOn,
  InvalidStartTime,
  InvalidTimes,
  notFound,
  SeriesHasBookings
} from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { Links } from "../../ports/Links.ts"
import type { EntryCreate, EntryUpdate } from "../../schema/calendar.ts"
import { type SessionLife, sessionStore } from "../../store/sessions.ts"
import { transaction } from "../../store/transaction.ts"
import { addDays, todayIn } from "../../time/local.ts"
import { fn } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Events } from "../Events.ts"
import { Jobs } from "../Jobs.ts"
import { Orgs } from "../Orgs.ts"
import { Offerings } from "../offerings/Offerings.ts"
import { openingsWhere } from "../waitlist/open.ts"
import { bookedExpr } from "./booked.ts"
import { full, requireCalendar, requireClassForCapacity, requireMember } from "./checks.ts"
import { CalendarBookings, type SessionRef } from "./hooks.ts"
import { type EntryTimes, madeUntil, timesBetween, validTimes } from "./materialize.ts"
import { calendarQueries } from "./queries.ts"
import type { SeriesRow } from "./rows.ts"
import { toEntry } from "./rows.ts"

/** The longest booking window (max_advance_days at most): an entry starting later could not be booked. */
const LONGEST_WINDOW_DAYS = 730

type Draft = EntryTimes & { capacity: number | null; teacher_id: string | null }

export class Series extends Effect.Service<Series>()("Series", {
  dependencies: [Events.Default, Offerings.Default, Orgs.Default, Jobs.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events
    const offerings = yield* Offerings
    const orgs = yield* Orgs
    const jobs = yield* Jobs
    const bookings = yield* CalendarBookings
    const q = yield* calendarQueries
    const store = sessionStore(sql)

    const check = (draft: Draft, course: boolean, today: string) =>
      Effect.gen(function* () {
        if (draft.starts_on > addDays(today, LONGEST_WINDOW_DAYS)) {
          return yield* new InvalidStartsOn({
            message: `starts_on: at most ${LONGEST_WINDOW_DAYS} days ahead (the longest booking window), so no later than ${addDays(today, LONGEST_WINDOW_DAYS)}`
          })
        }
        if ((draft.start_time === null) !== (draft.end_time === null)) {
          return yield* new InvalidTimes({ message: "send start_time and end_time together, or neither for all day" })
        }
        if (draft.start_time === "24:00:00")
          return yield* new InvalidStartTime({ message: "start_time: a time starts before 24:00" })
        if (!validTimes(draft))
          return yield* new InvalidTimes({
            message: "end_time must be after start_time (use span_days 1 to run overnight)"
          })
        if (draft.ends_on !== null && draft.ends_on < draft.starts_on)
          return yield* new InvalidEndsOn({ message: "ends_on is before starts_on" })
        if (course && draft.repeat !== "none" && draft.ends_on === null) {
          return yield* new InvalidEntry({ message: "a course's repeating entry needs ends_on" })
        }
      })

    /** Creates the entry's times from today (or its first date) through made_until. */
    const materialize = (
      row: { id: string; org_id: string; offering_id: string } & Draft,
      zone: string,
      from: string,
      until: string
    ) =>
      Effect.gen(function* () {
        const times = timesBetween(row, from, until, zone)
        yield* store.insertTimes(
          {
            org_id: row.org_id,
            offering_id: row.offering_id,
            series_id: row.id,
            capacity: row.capacity,
            teacher_id: row.teacher_id
          },
          times,
          yield* clock.now
        )
      })

    const calendarChanged = (orgId: string, offeringId: string) =>
      Effect.flatMap(q.entries(orgId, offeringId), (entries) =>
        events.append(orgId, [{ type: "offering.calendar_updated", data: { offering_id: offeringId, entries } }])
      )

    const list = fn("Series.list")(function* (offeringId: string) {
      const org = yield* CurrentOrg
      const offering = yield* offerings.load(offeringId)
      return { data: yield* q.entries(org.id, offering.id).pipe(Effect.orDie) }
    })

    const create = fn("Series.create")(function* (input: EntryCreate) {
      const org = yield* CurrentOrg
      return yield* Effect.gen(function* () {
        const offering = yield* offerings.load(input.offering_id, true)
        yield* requireCalendar(offering)
        yield* requireClassForCapacity(offering, input.capacity)
        yield* requireMember(org.id, input.teacher).pipe(Effect.provideService(Orgs, orgs))
        const draft: Draft = {
          starts_on: input.starts_on,
          start_time: full(input.start_time),
          end_time: full(input.end_time),
          span_days: input.span_days ?? 0,
          repeat: input.repeat ?? "none",
          ends_on: input.ends_on ?? null,
          capacity: input.capacity ?? null,
          teacher_id: input.teacher ?? null
        }
        const now = yield* clock.now
        const today = todayIn(now, org.timezone)
        yield* check(draft, offering.course, today)
        const row = {
          ...draft,
          id: crypto.randomUUID(),
          org_id: org.id,
          offering_id: offering.id,
          made_until: madeUntil(draft, today),
          created_at: now
        }
        yield* store.insertSeries(row)
        yield* materialize(row, org.timezone, draft.starts_on > today ? draft.starts_on : today, row.made_until)
        yield* calendarChanged(org.id, offering.id)
        const [created] = yield* q.oneSeries(org.id, row.id, false)
        return toEntry(created)
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    /** Future times of an entry with what each has taken. */
    const futureTimes = (seriesId: string, now: Date) =>
      sql<SessionRef & SessionLife & { booked: number }>`
        select s.id, s.org_id, s.offering_id, s.series_id, s.starts_at, s.ends_at, s.state, s.cancel_guests, s.cancel_note, s.cancelled_at,
          ${bookedExpr(sql, now)} as booked
        from sessions s join offerings o on o.id = s.offering_id
        where s.series_id = ${seriesId} and s.starts_at > ${now} and s.state <> 'removed' for update of s`

    const update = fn("Series.update")(function* (id: string, patch: EntryUpdate) {
      const org = yield* CurrentOrg
      return yield* Effect.gen(function* () {
        const [current] = yield* q.oneSeries(org.id, id, true)
        if (current === undefined) return yield* notFound("calendar entry")
        const offering = yield* offerings.load(current.offering_id, true)
        yield* requireClassForCapacity(offering, patch.capacity)
        yield* requireMember(org.id, patch.teacher).pipe(Effect.provideService(Orgs, orgs))
        const draft: Draft = {
          starts_on: patch.starts_on ?? current.starts_on,
          start_time: patch.start_time === undefined ? current.start_time : full(patch.start_time),
          end_time: patch.end_time === undefined ? current.end_time : full(patch.end_time),
          span_days: patch.span_days ?? current.span_days,
          repeat: patch.repeat ?? current.repeat,
          ends_on: patch.ends_on === undefined ? current.ends_on : patch.ends_on,
          capacity: patch.capacity === undefined ? current.capacity : patch.capacity,
          teacher_id: patch.teacher === undefined ? current.teacher_id : patch.teacher
        }
        const now = yield* clock.now
        const today = todayIn(now, org.timezone)
        yield* check(draft, offering.course, today)
        const made_until = madeUntil(draft, today)
        yield* store.updateSeries(current.id, { ...draft, made_until }, now)
        const timesChanged = (["starts_on", "start_time", "end_time", "span_days", "repeat", "ends_on"] as const).some(
          (k) => draft[k] !== current[k]
        )
        if (timesChanged) {
          const future = yield* futureTimes(current.id, now)
          const unbooked = future.filter((t) => t.booked === 0 && t.state === "scheduled")
          yield* store.applyAll(unbooked, { type: "remove", at: now.toISOString() }, now)
        }
        const carried = {
          ...(patch.teacher === undefined ? {} : { teacher_id: draft.teacher_id }),
          ...(patch.capacity === undefined ? {} : { capacity: draft.capacity })
        }
        if (Object.keys(carried).length > 0) yield* store.patchFuture(current.id, carried, now)
        yield* materialize(
          { ...draft, id: current.id, org_id: org.id, offering_id: current.offering_id },
          org.timezone,
          draft.starts_on > today ? draft.starts_on : today,
          made_until
        )
        yield* calendarChanged(org.id, current.offering_id)
        // More seats on the series' times: the waitlist hears of them as of any opening.
        const wider =
          patch.capacity !== undefined &&
          (draft.capacity ?? offering.capacity) > (current.capacity ?? offering.capacity)
        const opened = wider ? yield* openingsWhere(sql, { series_id: current.id }, now, (yield* Links).publicUrl) : []
        if (opened.length > 0)
          yield* events.append(
            org.id,
            opened.map(({ type, data }) => ({ type, data }))
          )
        const [updated] = yield* q.oneSeries(org.id, current.id, false)
        return toEntry(updated)
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    const remove = fn("Series.delete")(function* (id: string, cancelBookings: boolean | undefined) {
      const org = yield* CurrentOrg
      return yield* Effect.gen(function* () {
        const [current] = yield* q.oneSeries(org.id, id, true)
        if (current === undefined) return yield* notFound("calendar entry")
        yield* offerings.load(current.offering_id, true)
        const now = yield* clock.now
        const future = yield* futureTimes(current.id, now)
        const booked = future.filter((t) => t.booked > 0)
        if (booked.length > 0 && cancelBookings !== true) {
          return yield* new SeriesHasBookings({
            message: `${booked.length} future time(s) of this entry are booked; pass cancel_bookings=true to cancel them`
          })
        }
        // `cancelled` counts the booked times (as the spec names it), not the bookings on them.
        if (booked.length > 0) yield* bookings.cancelOnSessions(booked, "series_deleted")
        const cancelled = booked.length
        yield* store.applyAll(
          future.filter((t) => t.state === "scheduled"),
          { type: "remove", at: now.toISOString() },
          now
        )
        yield* store.deleteSeries(current.id, now)
        yield* calendarChanged(org.id, current.offering_id)
        return { cancelled }
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    /** Keeps repeats about a year ahead as the engine clock moves. */
    const extend = Effect.gen(function* () {
      const now = yield* clock.now
      const due = yield* sql<SeriesRow & { timezone: string }>`
        select x.*, o.timezone from series x join orgs o on o.id = x.org_id
        where x.deleted_at is null and x.repeat <> 'none' and (x.ends_on is null or x.made_until < x.ends_on)
          and x.made_until < (${now}::timestamptz at time zone o.timezone)::date + 365
        order by x.made_until limit 200 for update of x skip locked`
      for (const row of due) {
        const until = madeUntil(row, todayIn(now, row.timezone))
        if (until <= row.made_until) continue
        yield* materialize(row, row.timezone, addDays(row.made_until, 1), until)
        yield* store.madeUntil(row.id, until)
      }
    }).pipe(transaction(sql), Effect.orDie)

    yield* jobs.register({ name: "series.extend", run: extend })

    return { list, create, update, remove, extend } as const
  })
}) {}
