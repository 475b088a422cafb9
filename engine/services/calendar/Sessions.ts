import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { InvalidAfter, InvalidEndsAt, InvalidTimes, notFound } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import type { SessionCreate, SessionUpdate } from "../../schema/calendar.ts"
import { sessionStore } from "../../store/sessions.ts"
import { transaction } from "../../store/transaction.ts"
import { fn } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Events } from "../Events.ts"
import { Orgs } from "../Orgs.ts"
import { Offerings } from "../offerings/Offerings.ts"
import { endEntries } from "../waitlist/open.ts"
import { bookedExpr } from "./booked.ts"
import { requireCalendar, requireClassForCapacity, requireMember } from "./checks.ts"
import { CalendarBookings } from "./hooks.ts"
import { weeklyTimes } from "./materialize.ts"
import { calendarQueries } from "./queries.ts"
import { type SessionRow, toSession } from "./rows.ts"

export class Sessions extends Effect.Service<Sessions>()("Sessions", {
  dependencies: [Events.Default, Offerings.Default, Orgs.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events
    const offerings = yield* Offerings
    const orgs = yield* Orgs
    const bookings = yield* CalendarBookings
    const q = yield* calendarQueries
    const store = sessionStore(sql)

    const select = (now: Date) =>
      sql`select s.*, m.name as teacher_name, m.email as teacher_email, ${bookedExpr(sql, now)} as booked
          from sessions s join offerings o on o.id = s.offering_id ${q.teacherJoin("s")}`

    const load = (orgId: string, id: string, lock: boolean) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const rows = yield* sql<SessionRow & { booked: number }>`${select(now)}
          where s.org_id = ${orgId} and s.id = ${id}::uuid and s.state <> 'removed' ${lock ? sql`for update of s` : sql``}`.pipe(
          Effect.orDie
        )
        return rows[0] === undefined ? yield* notFound("session") : rows[0]
      })

    const list = fn("Sessions.list")(function* (query: {
      offering_id?: string
      from?: Date
      to?: Date
      status?: "scheduled" | "cancelled"
      limit?: number
      after?: string
    }) {
      const org = yield* CurrentOrg
      if (query.offering_id !== undefined) yield* offerings.load(query.offering_id)
      const now = yield* clock.now
      const limit = query.limit ?? 2000
      const [cursor] =
        query.after === undefined
          ? []
          : yield* sql<{ starts_at: Date; id: string }>`select starts_at, id from sessions
              where org_id = ${org.id} and id = ${query.after}::uuid and state <> 'removed'`.pipe(Effect.orDie)
      if (query.after !== undefined && cursor === undefined)
        return yield* new InvalidAfter({ message: "after: no session of this org has that id" })
      const rows = yield* sql<SessionRow & { booked: number }>`${select(now)}
        where s.org_id = ${org.id} and s.state <> 'removed'
        ${query.offering_id ? sql`and s.offering_id = ${query.offering_id}` : sql``}
        ${query.from ? sql`and s.ends_at > ${query.from}` : sql``}
        ${query.to ? sql`and s.starts_at < ${query.to}` : sql``}
        ${query.status ? sql`and s.state = ${query.status}` : sql``}
        ${cursor ? sql`and (s.starts_at, s.id) > (${cursor.starts_at}, ${cursor.id})` : sql``}
        order by s.starts_at, s.id limit ${limit + 1}`.pipe(Effect.orDie)
      const page = rows.slice(0, limit).map(toSession)
      return { data: page, next_after: rows.length > limit ? page[page.length - 1].id : null }
    })

    const create = fn("Sessions.create")(function* (input: SessionCreate) {
      const org = yield* CurrentOrg
      return yield* Effect.gen(function* () {
        const offering = yield* offerings.load(input.offering_id, true)
        yield* requireCalendar(offering)
        yield* requireClassForCapacity(offering, input.capacity)
        yield* requireMember(org.id, input.teacher).pipe(Effect.provideService(Orgs, orgs))
        const length =
          (input.ends_at?.getTime() ?? input.starts_at.getTime() + offering.duration_minutes * 60_000) -
          input.starts_at.getTime()
        if (length <= 0) return yield* new InvalidEndsAt({ message: "ends_at must be after starts_at" })
        const times = weeklyTimes(input.starts_at, length, 1 + (input.repeat_weeks ?? 0), org.timezone)
        const now = yield* clock.now
        const base = {
          org_id: org.id,
          offering_id: offering.id,
          series_id: null,
          capacity: input.capacity ?? null,
          teacher_id: input.teacher ?? null
        }
        const inserted = yield* store.insertTimes(base, times, now)
        const rows =
          yield* sql<SessionRow>`${select(now)} where s.id in ${sql.in(inserted.map((r) => r.id))} order by s.starts_at`
        const sessions = rows.map(({ booked: _, ...r }) => toSession(r))
        yield* events.append(
          org.id,
          sessions.map((data) => ({ type: "session.created", data }))
        )
        return { data: sessions }
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    const update = fn("Sessions.update")(function* (id: string, patch: SessionUpdate) {
      const org = yield* CurrentOrg
      if ((patch.starts_at === undefined) !== (patch.ends_at === undefined)) {
        return yield* new InvalidTimes({ message: "send starts_at and ends_at together to move a time" })
      }
      if (patch.starts_at && patch.ends_at && patch.ends_at <= patch.starts_at)
        return yield* new InvalidEndsAt({ message: "ends_at must be after starts_at" })
      return yield* Effect.gen(function* () {
        const row = yield* load(org.id, id, true)
        yield* requireMember(org.id, patch.teacher).pipe(Effect.provideService(Orgs, orgs))
        const now = yield* clock.now
        const teacher = patch.teacher === undefined ? {} : { teacher_id: patch.teacher }
        if (patch.starts_at && patch.ends_at) {
          yield* store.apply(
            row,
            {
              type: "move",
              at: now.toISOString(),
              starts_at: patch.starts_at.toISOString(),
              ends_at: patch.ends_at.toISOString(),
              booked: row.booked
            },
            now,
            teacher
          )
        } else {
          yield* store.patch(row.id, teacher, now)
        }
        // No event: the spec's event table has none for a time moved or given another teacher (nobody is booked on a
        // moved time; sessions.list shows the change).
        const updated = yield* load(org.id, row.id, false)
        return toSession({ ...updated, booked: undefined })
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    const cancel = fn("Sessions.cancel")(function* (
      id: string,
      input: { guests?: "refund" | "choose"; note?: string }
    ) {
      const org = yield* CurrentOrg
      const guests = input.guests ?? "refund"
      return yield* Effect.gen(function* () {
        const row = yield* load(org.id, id, true)
        const now = yield* clock.now
        const decided = yield* store.apply(
          row,
          { type: "cancel", at: now.toISOString(), guests, note: input.note ?? null },
          now
        )
        const again = row.state === "cancelled"
        if (!again || decided.tasks.includes("refund_choosing")) {
          yield* bookings.sessionCancelled(row, guests, input.note ?? null, again)
        }
        const session = toSession({ ...(yield* load(org.id, row.id, false)), booked: undefined })
        // Whoever waits for the time waits no more.
        const left = again ? [] : yield* endEntries(sql, { session_id: row.id }, "called_off", now)
        const out = [
          ...(decided.emits.includes("session.cancelled") ? [{ type: "session.cancelled", data: session }] : []),
          ...left.map(({ type, data }) => ({ type, data }))
        ]
        if (out.length > 0) yield* events.append(org.id, out)
        return session
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    return { list, create, update, cancel } as const
  })
}) {}
