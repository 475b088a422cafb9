import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Context, Duration, Effect, Option } from "effect"
import { ClosureHasBookings, notFound } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import type { ClosureCreate, ClosurePreview } from "../../schema/closure.ts"
import { type ClosureRow, closureById, closuresOf, deleteClosure, insertClosure } from "../../store/closures.ts"
import { databaseNow, olderTransactions } from "../../store/probes.ts"
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

/** How long a new closure waits for the transactions begun before it to end, and how often it looks. */
const SETTLE_MS = 10_000
const SETTLE_POLL = Duration.millis(25)

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

    /** Cancels the booked times and bookings inside `row` as the guests' choice says (within a transaction). */
    const close = (
      orgId: string,
      row: ClosureRow,
      found: { times: ReadonlyArray<{ id: string }>; bookings: ReadonlyArray<{ id: string }> },
      guests: "refund" | "choose"
    ) =>
      Effect.gen(function* () {
        for (const t of found.times) yield* sessions.cancel(t.id, { guests, ...(row.note ? { note: row.note } : {}) })
        yield* bookings.closedOn(
          orgId,
          found.bookings.map((b) => b.id),
          guests,
          row.note
        )
      })

    /**
     * A booking that read the closures before this one committed may commit after it, into the closed time: once
     * every transaction begun before the commit has ended (at most SETTLE_MS), such bookings are cancelled as the
     * others were. Bookings read the closures in the statement they already send, so the write path pays nothing.
     */
    const settle = (
      orgId: string,
      row: ClosureRow,
      zone: string,
      committedAt: Date,
      guests: "refund" | "choose",
      dealt: ReadonlySet<string>
    ) =>
      Effect.gen(function* () {
        const waitUntil = Date.now() + SETTLE_MS
        while ((yield* olderTransactions(sql, committedAt)) && Date.now() < waitUntil) yield* Effect.sleep(SETTLE_POLL)
        const found = yield* affected(row, zone, yield* clock.now)
        const late = {
          times: found.times.filter((t) => !dealt.has(t.id)),
          bookings: found.bookings.filter((b) => !dealt.has(b.id))
        }
        if (late.times.length + late.bookings.length === 0) return
        yield* close(orgId, row, late, guests).pipe(transaction(sql))
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const create = fn("Closures.create")(function* (input: ClosureCreate) {
      const guests = input.guests ?? "refund"
      const { org, row, closure, dealt } = yield* Effect.gen(function* () {
        const { org, row, times, bookings: held } = yield* draft(input)
        if (input.guests === undefined && times.length + held.length > 0)
          return yield* new ClosureHasBookings({
            message: `${times.length} booked time(s) and ${held.length} booking(s) fall inside it (closures.preview lists them): send guests refund or choose`
          })
        yield* insertClosure(sql, row).pipe(Effect.orDie)
        yield* close(org.id, row, { times, bookings: held }, guests)
        const closure = toClosure(row)
        yield* events.append(org.id, [{ type: "closure.created", data: closure }])
        return { org, row, closure, dealt: new Set([...times.map((t) => t.id), ...held.map((b) => b.id)]) }
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
      // Under an Idempotency-Key the work commits with the key's transaction, later: the settling waits for that
      // commit (the closure seen from outside it) on a fiber of its own.
      const nested = Option.isSome(yield* Effect.serviceOption(SqlClient.TransactionConnection))
      const settling = Effect.gen(function* () {
        const waitUntil = Date.now() + SETTLE_MS
        while ((yield* closureById(sql, org.id, row.id)) === undefined && Date.now() < waitUntil)
          yield* Effect.sleep(SETTLE_POLL)
        if ((yield* closureById(sql, org.id, row.id)) === undefined) return
        yield* settle(org.id, row, org.timezone, yield* databaseNow(sql), guests, dealt)
      }).pipe(Effect.catchTag("SqlError", Effect.die))
      if (!nested) yield* settling
      else
        yield* Effect.forkDaemon(
          settling.pipe(
            Effect.catchAllCause((cause) =>
              Effect.logWarning("closure: settling the bookings that raced it failed", cause)
            ),
            Effect.mapInputContext(Context.omit(SqlClient.TransactionConnection))
          )
        )
      return closure
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
