import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { ClosureHasBookings, notFound } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import type { ClosureCreate, ClosurePreview } from "../../schema/closure.ts"
import { type ClosureRow, closureById, closuresOf, deleteClosure, insertClosure } from "../../store/closures.ts"
import { transaction } from "../../store/transaction.ts"
import { fn } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Events } from "../Events.ts"
import { Offerings } from "../offerings/Offerings.ts"
import { bookedExpr } from "./booked.ts"
import { closureRowOf, insideClosure, toClosure } from "./closureRows.ts"
import { CalendarBookings } from "./hooks.ts"
import { Sessions } from "./Sessions.ts"

type Kind = "class" | "appointment" | "rental"

/** closures.*: dates the org or an offering is closed (or open other hours), and what that does to bookings. */
export class Closures extends Effect.Service<Closures>()("Closures", {
  dependencies: [Events.Default, Offerings.Default, Sessions.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events
    const offerings = yield* Offerings
    const sessions = yield* Sessions
    const bookings = yield* CalendarBookings

    const only = (row: ClosureRow, column: string) =>
      row.offering_id === null ? sql`` : sql`and ${sql(column)} = ${row.offering_id}`

    /** Booked times to come and bookings on weekly hours that the closure would keep from being open. */
    const affected = (row: ClosureRow, zone: string, now: Date) =>
      Effect.gen(function* () {
        const times = yield* sql<{
          id: string
          offering_id: string
          kind: Kind
          starts_at: Date
          ends_at: Date
          booked: number
        }>`select s.id, s.offering_id, o.kind, s.starts_at, s.ends_at, ${bookedExpr(sql, now)} as booked
          from sessions s join offerings o on o.id = s.offering_id
          where s.org_id = ${row.org_id} ${only(row, "s.offering_id")} and s.state = 'scheduled' and s.ends_at > ${now}
            and s.starts_at < ${row.ends_at} and s.ends_at > ${row.starts_at}
          order by s.starts_at, s.id`
        const held = yield* sql<{
          id: string
          offering_id: string
          kind: Kind
          starts_at: Date
          ends_at: Date
          status: string
        }>`select b.id, b.offering_id, o.kind, b.starts_at, b.ends_at, b.status
          from bookings b join offerings o on o.id = b.offering_id
          where b.org_id = ${row.org_id} ${only(row, "b.offering_id")} and b.session_id is null and b.series_id is null
            and (b.status = 'confirmed' or (b.status = 'held' and b.keeps_place and b.expires_at > ${now}))
            and b.ends_at > ${now} and b.starts_at < ${row.ends_at} and b.ends_at > ${row.starts_at}
          order by b.starts_at, b.id`
        return {
          times: times.filter((t) => t.booked > 0 && insideClosure(row, zone, t)),
          bookings: held.filter((b) => insideClosure(row, zone, b))
        }
      }).pipe(Effect.orDie)

    const draft = (input: ClosureCreate) =>
      Effect.gen(function* () {
        const org = yield* CurrentOrg
        if (input.offering_id != null) yield* offerings.known(input.offering_id)
        const now = yield* clock.now
        const row = yield* closureRowOf(input, { id: randomUUID(), org_id: org.id }, org.timezone, now)
        return { org, now, row, ...(yield* affected(row, org.timezone, now)) }
      })

    const list = fn("Closures.list")(function* (query: { offering_id?: string; from?: string; to?: string }) {
      const org = yield* CurrentOrg
      if (query.offering_id !== undefined) yield* offerings.known(query.offering_id)
      const rows = yield* closuresOf(sql, org.id, query).pipe(Effect.orDie)
      return { data: rows.map(toClosure) }
    })

    const get = fn("Closures.get")(function* (id: string) {
      const org = yield* CurrentOrg
      const row = yield* closureById(sql, org.id, id).pipe(Effect.orDie)
      return row === undefined ? yield* notFound("closure") : toClosure(row)
    })

    const preview = fn("Closures.preview")(function* (input: ClosureCreate) {
      const { row, times, bookings: held } = yield* draft(input)
      return {
        closure: toClosure(row),
        times: times.map((t) => ({
          session_id: t.id,
          offering_id: t.offering_id,
          starts_at: t.starts_at.toISOString(),
          ends_at: t.ends_at.toISOString(),
          booked: t.booked
        })),
        bookings: held.map((b) => ({
          booking_id: b.id,
          offering_id: b.offering_id,
          starts_at: b.starts_at.toISOString(),
          ends_at: b.ends_at.toISOString(),
          status: b.status
        }))
      } satisfies ClosurePreview
    })

    const create = fn("Closures.create")(function* (input: ClosureCreate) {
      return yield* Effect.gen(function* () {
        const { org, row, times, bookings: held } = yield* draft(input)
        if (input.guests === undefined && times.length + held.length > 0)
          return yield* new ClosureHasBookings({
            message: `${times.length} booked time(s) and ${held.length} booking(s) fall inside it (closures.preview lists them): send guests refund or choose`
          })
        yield* insertClosure(sql, row).pipe(Effect.orDie)
        const guests = input.guests ?? "refund"
        for (const t of times) yield* sessions.cancel(t.id, { guests, ...(row.note ? { note: row.note } : {}) })
        yield* bookings.closedOn(
          org.id,
          held.map((b) => b.id),
          guests,
          row.note
        )
        const closure = toClosure(row)
        yield* events.append(org.id, [{ type: "closure.created", data: closure }])
        return closure
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    const remove = fn("Closures.delete")(function* (id: string) {
      const org = yield* CurrentOrg
      return yield* Effect.gen(function* () {
        const row = yield* deleteClosure(sql, org.id, id).pipe(Effect.orDie)
        if (row === undefined) return yield* notFound("closure")
        const closure = toClosure(row)
        yield* events.append(org.id, [{ type: "closure.deleted", data: closure }])
        return closure
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    return { list, get, preview, create, remove } as const
  })
}) {}
