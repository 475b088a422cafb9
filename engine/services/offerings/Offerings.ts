import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import {
  errorOf,
  InvalidHours,
  InvalidQuestions,
  NotHoursBased,
  notFound,
  OfferingHasBookings,
  ScheduleIsCalendar
} from "../../errors/index.ts"
import { decideOffering, startOffering } from "../../machines/offering.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { Links } from "../../ports/Links.ts"
import type { HoursEntry, Kind, OfferingCreate, OfferingUpdate } from "../../schema/offering.ts"
import { offeringStore } from "../../store/offerings.ts"
import { ofOrg } from "../../store/tenancy.ts"
import { transaction } from "../../store/transaction.ts"
import { fn } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Events } from "../Events.ts"
import { openingsWhere } from "../waitlist/open.ts"
import { defaultsFor } from "./defaults.ts"
import { OfferingHooks } from "./hooks.ts"
import { DEFAULT_HOURS, normalizeHours } from "./hours.ts"
import { coordinatesIn } from "./location.ts"
import { normalizeQuestions } from "./questions.ts"
import { OfferingReads } from "./reads.ts"
import { type OfferingRow, toOffering } from "./row.ts"
import { checkRules } from "./rules.ts"

type Changes = Record<string, unknown>

/** Applies the request to the stored values: deposits exclude each other, a new location resets coordinates. */
const derive = (input: OfferingUpdate) => {
  const out: Changes = { ...input }
  delete out.active
  if (input.deposit_cents != null) out.deposit_percent = null
  if (input.deposit_percent != null) out.deposit_cents = null
  if (input.location !== undefined) {
    // A new place: what is not sent with it is read from its text (both unsent) or cleared, never kept from the old one.
    const c = input.lat === undefined && input.lon === undefined ? coordinatesIn(input.location) : null
    out.lat = input.lat !== undefined ? input.lat : (c?.lat ?? null)
    out.lon = input.lon !== undefined ? input.lon : (c?.lon ?? null)
    if (input.place_id === undefined) out.place_id = null
  }
  if (input.questions !== undefined) {
    const qs = normalizeQuestions(input.questions)
    if ("duplicate" in qs)
      return Effect.fail(new InvalidQuestions({ message: `question id ${qs.duplicate} appears twice` }))
    out.questions = JSON.stringify(qs)
  }
  if (input.metadata !== undefined) out.metadata = JSON.stringify(input.metadata)
  return Effect.succeed(out)
}

export class Offerings extends Effect.Service<Offerings>()("Offerings", {
  dependencies: [Events.Default, OfferingReads.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events
    const hooks = yield* OfferingHooks
    const store = offeringStore(sql)
    const reads = yield* OfferingReads

    const orgHasWaiver = (orgId: string) =>
      sql<{ ok: boolean }>`select waiver_text is not null as ok from orgs where id = ${orgId}`.pipe(
        Effect.map((r) => r[0]?.ok === true)
      )

    /** How many repeating calendar entries of the offering have no ends_on (a course may have none). */
    const openEnded = (offeringId: string) =>
      sql<{ n: number }>`select count(*)::int as n from series
        where offering_id = ${offeringId} and deleted_at is null and repeat <> 'none' and ends_on is null`.pipe(
        Effect.map((r) => r[0].n),
        Effect.orDie
      )

    /** Loads an offering of the current org (404 for another org's or an unknown id), optionally locked. */
    const load = (id: string, lock = false) =>
      Effect.gen(function* () {
        const org = yield* CurrentOrg
        const rows = yield* sql<OfferingRow>`
          select * from offerings where id = ${id}::uuid and ${ofOrg(sql, "org_id", org.id)} and deleted_at is null
          ${lock ? sql`for update` : sql``}`.pipe(Effect.orDie)
        return yield* Option.match(Option.fromNullable(rows[0]), {
          onNone: () => Effect.fail(notFound("offering")),
          onSome: Effect.succeed
        })
      })

    const list = fn("Offerings.list")(function* (kind?: Kind) {
      const org = yield* CurrentOrg
      const rows = yield* sql<OfferingRow>`
        select * from offerings where org_id = ${org.id} and deleted_at is null
        ${kind ? sql`and kind = ${kind}` : sql``} order by created_at, id`.pipe(Effect.orDie)
      return { data: rows.map(toOffering) }
    })

    /** A live offering's row through this instance's memory of offerings (reads.ts), for reads that only look. */
    const known = (id: string) =>
      Effect.flatMap(CurrentOrg, (org) =>
        Effect.flatMap(reads.get(org.id, id), (row) =>
          Option.isSome(row) ? Effect.succeed(row.value) : Effect.fail(notFound("offering"))
        )
      )

    /** The read of GET /offerings/{id}, through this instance's memory of offerings (reads.ts). */
    const get = fn("Offerings.get")(function* (id: string) {
      const org = yield* CurrentOrg
      const row = yield* reads.get(org.id, id)
      if (Option.isNone(row)) return yield* notFound("offering")
      return toOffering(row.value)
    })

    const create = fn("Offerings.create")(function* (input: OfferingCreate) {
      const org = yield* CurrentOrg
      const base = defaultsFor(input.kind)
      const next = { ...base, ...input }
      yield* checkRules(input, next, null, {
        orgHasWaiver: yield* orgHasWaiver(org.id).pipe(Effect.orDie),
        hasTimesToCome: false
        // A new offering has no calendar entries, so none is open-ended: the course rule cannot refuse it.
      }).pipe(Effect.catchTag("InvalidEntry", Effect.die))
      const changes = yield* derive(input)
      const started = startOffering(input.active !== false)
      if (!started.ok) return yield* errorOf(started.code, "the offering cannot change state")
      const row = {
        ...base,
        metadata: JSON.stringify(base.metadata),
        questions: JSON.stringify(base.questions),
        ...changes,
        id: randomUUID(),
        org_id: org.id,
        created_at: yield* clock.now
      }
      return yield* Effect.gen(function* () {
        const offering = toOffering(yield* store.insert(row, started))
        yield* events.append(org.id, [{ type: "offering.created", data: offering }])
        return offering
      }).pipe(transaction(sql), Effect.orDie)
    })

    const update = fn("Offerings.update")(function* (id: string, input: OfferingUpdate) {
      const org = yield* CurrentOrg
      return yield* Effect.gen(function* () {
        const current = yield* load(id, true)
        const next = { ...current, ...input }
        const facts = {
          orgHasWaiver: yield* orgHasWaiver(org.id),
          hasTimesToCome: input.schedule === "hours" ? yield* hooks.hasTimesToCome(current.id) : false,
          openEndedEntries: input.course === true && !current.course ? yield* openEnded(current.id) : 0
        }
        yield* checkRules(input, next, current, facts)
        const changes = yield* derive(input)
        const decided =
          input.active !== undefined && input.active !== (current.state === "active")
            ? decideOffering(current.state, { type: input.active ? "resume" : "pause" })
            : undefined
        if (decided !== undefined && !decided.ok)
          return yield* errorOf(decided.code, "the offering cannot change state")
        if (current.waitlist_enabled && input.waitlist_enabled === false) yield* hooks.waitlistClosed(current.id)
        const offering = toOffering(yield* store.update(current.id, changes, yield* clock.now, decided))
        if (input.waiver_required !== undefined && input.waiver_required !== current.waiver_required)
          yield* hooks.waiverChanged(current.id, input.waiver_required, yield* clock.now)
        // More seats on the offering's times that take its capacity: the waitlist hears of them as of any opening.
        const opened =
          input.capacity !== undefined && input.capacity > current.capacity
            ? yield* openingsWhere(sql, { offering_id: current.id }, yield* clock.now, (yield* Links).publicUrl)
            : []
        yield* events.append(org.id, [
          { type: "offering.updated", data: offering },
          ...opened.map(({ type, data }) => ({ type, data }))
        ])
        return offering
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die), Effect.ensuring(reads.forget(id)))
    })

    const remove = fn("Offerings.delete")(function* (id: string, cancelBookings: boolean | undefined) {
      const org = yield* CurrentOrg
      return yield* Effect.gen(function* () {
        const current = yield* load(id, true)
        const upcoming = yield* hooks.upcoming(current.id)
        if ((upcoming.bookings > 0 || upcoming.holds > 0) && cancelBookings !== true) {
          return yield* new OfferingHasBookings({
            message: `deleting would cancel ${upcoming.bookings} upcoming booking(s) and ${upcoming.holds} live hold(s); pass cancel_bookings=true`
          })
        }
        const decided = decideOffering(current.state, { type: "remove" })
        if (!decided.ok) return yield* notFound("offering")
        const result = yield* hooks.cancelUpcoming(current.id)
        yield* store.update(current.id, {}, yield* clock.now, decided)
        yield* events.append(org.id, [{ type: "offering.deleted", data: { ...toOffering(current), active: false } }])
        return result
      }).pipe(
        transaction(sql),
        Effect.catchTag("SqlError", Effect.die),
        Effect.ensuring(reads.forget(id)),
        // Committed: the refunds are taken now, and the answer counts what became of them.
        Effect.flatMap(({ cancelled, payments }) =>
          Effect.map(hooks.refundNow(payments), (refunds) => ({ cancelled, ...refunds }))
        )
      )
    })

    const getHours = fn("Offerings.getHours")(function* (id: string) {
      const row = yield* load(id)
      if (row.kind === "class")
        return yield* new NotHoursBased({ message: "a class takes its times from sessions, not weekly hours" })
      return { data: row.hours ?? DEFAULT_HOURS }
    })

    const setHours = fn("Offerings.setHours")(function* (id: string, hours: ReadonlyArray<HoursEntry>) {
      const org = yield* CurrentOrg
      const normalized = normalizeHours(hours)
      if ("invalid" in normalized) {
        return yield* new InvalidHours({ message: `hours[${normalized.invalid}]: end_time must be after start_time` })
      }
      return yield* Effect.gen(function* () {
        const row = yield* load(id, true)
        if (row.kind === "class")
          return yield* new NotHoursBased({ message: "a class takes its times from sessions, not weekly hours" })
        if (row.kind === "appointment" && row.schedule !== "hours") {
          return yield* new ScheduleIsCalendar({
            message: "this appointment takes its times from its calendar; set schedule to hours first"
          })
        }
        const updated = yield* store.update(row.id, { hours: JSON.stringify(normalized) }, yield* clock.now)
        yield* events.append(org.id, [
          { type: "offering.hours_updated", data: { ...toOffering(updated), hours: normalized } }
        ])
        return { data: normalized }
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die), Effect.ensuring(reads.forget(id)))
    })

    return { list, get, create, update, remove, getHours, setHours, load, known } as const
  })
}) {}
