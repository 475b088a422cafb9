import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import {
  HasRoom,
  InvalidPlaces,
  InvalidSessionId,
  notFound,
  TimeNotAvailable,
  WaitlistConflict,
  WaitlistDisabled,
  WaitlistNotSupported
} from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import type { WaitlistEntry } from "../../schema/waitlist.ts"
import { newHandle } from "../../store/codes.ts"
import { customerStore } from "../../store/customers.ts"
import { transaction } from "../../store/transaction.ts"
import { type EntryRow, entryByToken, entryRows, joinEntry } from "../../store/waitlist.ts"
import { fn } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Events } from "../Events.ts"
import { makeLanes } from "../lanes.ts"
import { Parked } from "../Parked.ts"
import { endEntries } from "./open.ts"

const toEntry = (r: EntryRow): WaitlistEntry => ({
  id: r.id,
  offering_id: r.offering_id,
  session_id: r.session_id,
  starts_at: r.starts_at.toISOString(),
  customer: { id: r.customer_id, name: r.c_name, email: r.c_email },
  places: r.places,
  created_at: r.created_at.toISOString(),
  told_at: r.told_at?.toISOString() ?? null,
  ended_at: r.ended_at?.toISOString() ?? null,
  end_reason: r.end_reason
})

/** Waitlist joins of one time that reach the database at once on one instance. */
const JOINS_PER_TIME = 4

/** waitlist.join, list and remove: guests waiting for a full calendar time of an offering with waitlist_enabled. */
export class Waitlist extends Effect.Service<Waitlist>()("Waitlist", {
  dependencies: [Events.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events
    const customers = yield* customerStore
    // Joins of one time share its row's lock (a booking or a cancel of the time waits for them, and they for it, so
    // "the time is full" holds until the entry commits) and meet at the org's event row only for their last statement
    // and commit: at most JOINS_PER_TIME of them hold a connection at once, the rest wait here, parked (a crowd told
    // sold_out that joins at once is then neither 503 overloaded nor a queue on the pool).
    const joins = makeLanes(yield* Parked, JOINS_PER_TIME)
    const entrySql = (where: ReturnType<typeof sql.and>) => entryRows(sql, where)

    const join = fn("Waitlist.join")(function* (input: {
      session_id?: string | undefined
      offering_id?: string | undefined
      starts_at?: Date | undefined
      places?: number | undefined
      customer: { email: string; name: string }
    }) {
      const org = yield* CurrentOrg
      const now = yield* clock.now
      const places = input.places ?? 1
      if (input.session_id === undefined && (input.offering_id === undefined || input.starts_at === undefined)) {
        return yield* new InvalidSessionId({
          message: "give session_id, or offering_id and starts_at of one of its times"
        })
      }
      const time =
        input.session_id !== undefined ? input.session_id : `${input.offering_id} ${input.starts_at?.toISOString()}`
      return yield* joins(
        `${org.id} ${time}`,
        Effect.gen(function* () {
          const [t] = yield* sql<{
            id: string
            offering_id: string
            starts_at: Date
            state: string
            cap: number
            booked: number
            kind: string
            schedule: string | null
            course: boolean
            waitlist_enabled: boolean
            max_per_booking: number
          }>`
          select s.id, s.offering_id, s.starts_at, s.state, s.cap, s.booked, o.kind, o.schedule, o.course, o.waitlist_enabled, o.max_per_booking
          from sessions s join offerings o on o.id = s.offering_id
          where s.org_id = ${org.id} and ${input.session_id !== undefined ? sql`s.id = ${input.session_id}` : sql`s.offering_id = ${input.offering_id!} and s.starts_at = ${input.starts_at!}`}
          for share of s`
          if (t === undefined) {
            if (input.offering_id !== undefined) {
              const [o] = yield* sql<{
                kind: string
                schedule: string | null
              }>`select kind, schedule from offerings where org_id = ${org.id} and id = ${input.offering_id}`
              if (o !== undefined && (o.kind === "rental" || o.schedule === "hours")) {
                return yield* new WaitlistNotSupported({
                  message: "weekly hours and rentals have no waitlist: their times are not on a calendar"
                })
              }
            }
            return yield* notFound("time")
          }
          if (t.course)
            return yield* new WaitlistConflict({
              message: "a course is booked whole: it has no waitlist for one of its times"
            })
          if (!t.waitlist_enabled)
            return yield* new WaitlistDisabled({ message: "this offering's waitlist is off (waitlist_enabled false)" })
          if (t.state !== "scheduled") return yield* new TimeNotAvailable({ message: "this time is cancelled" })
          if (places > t.max_per_booking)
            return yield* new InvalidPlaces({ message: `places: at most ${t.max_per_booking}, as in one booking` })
          const needed = t.kind === "appointment" ? 1 : places
          if (t.cap - t.booked >= needed)
            return yield* new HasRoom({ message: `the time has room for ${places}: book it instead` })
          const customer = yield* customers.findOrCreate(org.id, input.customer, now)
          const row = yield* joinEntry(sql, {
            id: randomUUID(),
            org_id: org.id,
            offering_id: t.offering_id,
            session_id: t.id,
            customer_id: customer.id,
            places,
            created_at: now,
            leave_token: newHandle()
          })
          const entry = toEntry({
            id: row.id,
            offering_id: t.offering_id,
            session_id: t.id,
            starts_at: t.starts_at,
            customer_id: customer.id,
            c_name: customer.customer.name,
            c_email: customer.customer.email,
            places: row.places,
            created_at: row.created_at,
            told_at: row.told_at,
            ended_at: null,
            end_reason: null
          })
          yield* events.append(org.id, [
            ...customer.events,
            { type: "waitlist.joined", data: { ...entry, customer_id: customer.id } }
          ])
          return entry
        }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
      )
    })

    const list = fn("Waitlist.list")(function* (q: {
      offering_id?: string | undefined
      session_id?: string | undefined
    }) {
      const org = yield* CurrentOrg
      const rows = yield* entrySql(
        sql.and([
          sql`e.org_id = ${org.id}`,
          sql`e.ended_at is null`,
          ...(q.offering_id === undefined ? [] : [sql`e.offering_id = ${q.offering_id}`]),
          ...(q.session_id === undefined ? [] : [sql`e.session_id = ${q.session_id}`])
        ])
      ).pipe(Effect.orDie)
      return { data: rows.map(toEntry) }
    })

    const remove = fn("Waitlist.remove")(function* (id: string, reason: "removed" | "left" = "removed") {
      const org = yield* CurrentOrg
      const now = yield* clock.now
      return yield* Effect.gen(function* () {
        const [row] = yield* entrySql(sql.and([sql`e.org_id = ${org.id}`, sql`e.id = ${id}`, sql`e.ended_at is null`]))
        if (row === undefined) return yield* notFound("waitlist entry")
        const left = yield* endEntries(sql, { ids: [id] }, reason, now)
        yield* events.append(
          org.id,
          left.map(({ type, data }) => ({ type, data }))
        )
        return toEntry({ ...row, ended_at: now, end_reason: reason })
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    /** The guest's side of the "leave the waitlist" link: the entry by its token (no key), and leaving it. */
    const byToken = (token: string) =>
      Effect.gen(function* () {
        if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return yield* notFound("waitlist entry")
        const row = yield* entryByToken(sql, token).pipe(Effect.orDie)
        return row === undefined ? yield* notFound("waitlist entry") : row
      })
    const leave = (token: string) =>
      Effect.gen(function* () {
        const entry = yield* byToken(token)
        if (entry.ended_at !== null) return entry
        const now = yield* clock.now
        yield* Effect.gen(function* () {
          const left = yield* endEntries(sql, { ids: [entry.id] }, "left", now)
          yield* events.append(
            entry.org_id,
            left.map(({ type, data }) => ({ type, data }))
          )
        }).pipe(transaction(sql), Effect.orDie)
        return { ...entry, ended_at: now, end_reason: "left" }
      })

    return { join, list, remove, byToken, leave } as const
  })
}) {}
