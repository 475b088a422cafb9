import { SqlClient, type Statement } from "@effect/sql"
import { Effect } from "effect"
import { EngineClock } from "../../ports/Clock.ts"
import type { BookingRow } from "../../store/bookingRow.ts"
import { bookingStore } from "../../store/bookings.ts"
import { addDays, endOfLocalDay, todayIn } from "../../time/local.ts"
import { bookedExpr } from "../calendar/booked.ts"
import type { SessionRef } from "../calendar/hooks.ts"
import { Events, type NewEvent } from "../Events.ts"
import type { BookingMailKind } from "../mail/bookingMails.ts"
import { guestMail } from "../mail/guestMail.ts"
import { refundOnCancel } from "../payments/refunds.ts"

/** Guests who were called off pick another time until the end of the 7th day in the org's time zone. */
export const chooseByOf = (now: Date, zone: string) => endOfLocalDay(addDays(todayIn(now, zone), 7), zone)

/**
 * What happens to bookings when the times or offerings they hold go away. Runs inside the caller's
 * transaction (which holds the session or offering lock), without a CurrentOrg: rows carry their org.
 */
export const bookingCascade = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const clock = yield* EngineClock
  const events = yield* Events
  const store = yield* bookingStore
  const at = (now: Date) => now.toISOString()

  const toGuest = yield* guestMail
  // Everything this cascade cancels, the business called off: a text too where the org wants call-offs texted.
  const mailTo = (
    kind: BookingMailKind,
    b: BookingRow & { c_email?: string | null; o_name?: string },
    note?: string | null
  ) => toGuest(kind, b, { note, textAs: "called_off" })

  const lockRows = (where: Statement.Fragment) =>
    sql<BookingRow>`select * from bookings b where ${where} and b.status <> 'cancelled' order by b.id for update`.pipe(
      Effect.orDie
    )

  /** Cancels rows; online payments are refunded in full (taken at the processor by the refunds job after the commit). */
  const cancelAll = (rows: ReadonlyArray<BookingRow>, now: Date, reason: string, note: string | null = null) =>
    Effect.gen(function* () {
      const out: NewEvent[] = []
      for (const row of rows) {
        const refund = yield* refundOnCancel(sql, row, null, now)
        const applied = yield* Effect.orDie(
          store.apply(row, { type: "cancel", at: at(now) }, now, { cancel_reason: reason, ...refund })
        )
        out.push(...applied.events)
        yield* mailTo("cancelled", applied.booking, note)
      }
      return out
    })

  /** Whether another time of the offering, to come, has room for this party. */
  const roomElsewhere = (row: BookingRow, now: Date) =>
    sql<{ ok: boolean }>`select exists(select 1 from sessions s
        where s.offering_id = ${row.offering_id} and s.state = 'scheduled' and s.starts_at > ${now} and s.id is distinct from ${row.session_id}
          and s.cap - ${bookedExpr(sql, now)} >= ${row.places}) as ok`.pipe(
      Effect.orDie,
      Effect.map((r) => r[0].ok)
    )

  const sessionCancelled = (
    session: SessionRef,
    guests: "refund" | "choose",
    note: string | null,
    again: boolean,
    zone: string
  ) =>
    Effect.gen(function* () {
      const now = yield* clock.now
      const out: NewEvent[] = []
      const singles = yield* lockRows(sql`b.session_id = ${session.id} and b.series_id is null`)
      if (again) {
        out.push(
          ...(yield* cancelAll(
            singles.filter((b) => b.choose_by !== null),
            now,
            "session_cancelled",
            note
          ))
        )
      } else if (guests === "refund") {
        out.push(...(yield* cancelAll(singles, now, "session_cancelled", note)))
      } else {
        out.push(
          ...(yield* cancelAll(
            singles.filter((b) => b.status === "held" || b.source === "octo"),
            now,
            "session_cancelled",
            note
          ))
        )
        const chooseBy = chooseByOf(now, zone)
        for (const row of singles.filter((b) => b.status === "confirmed" && b.source !== "octo")) {
          const room = yield* roomElsewhere(row, now)
          const applied = yield* Effect.orDie(
            store.apply(
              row,
              { type: "call_off", at: at(now), choose_by: chooseBy.toISOString() },
              now,
              {},
              { note, room }
            )
          )
          out.push(...applied.events)
          yield* mailTo("called_off", applied.booking, note)
        }
      }
      if (!again && session.series_id !== null) {
        const next = yield* sql<{
          id: string
          starts_at: Date
        }>`select id, starts_at from sessions where series_id = ${session.series_id}
          and state = 'scheduled' and starts_at > ${session.starts_at} and id <> ${session.id} order by starts_at limit 1`.pipe(
          Effect.orDie
        )
        const courses = yield* lockRows(
          sql`b.series_id = ${session.series_id} and b.starts_at <= ${session.starts_at} and b.keeps_place`
        )
        for (const row of courses) {
          const first = row.session_id === session.id && next[0] !== undefined
          const applied = yield* Effect.orDie(
            store.apply(
              row,
              {
                type: "time_cancelled",
                at: at(now),
                starts_at: first ? next[0].starts_at.toISOString() : row.starts_at.toISOString(),
                session_id: first ? next[0].id : row.session_id
              },
              now,
              {},
              {
                session: {
                  id: session.id,
                  starts_at: session.starts_at.toISOString(),
                  ends_at: session.ends_at.toISOString()
                },
                note
              }
            )
          )
          out.push(...applied.events)
          yield* mailTo("time_cancelled", applied.booking, note)
        }
      }
      yield* events.append(session.org_id, out)
    })

  /** Cancels every booking holding a place in these times (their own, or a course's seat). */
  const cancelOnSessions = (sessions: ReadonlyArray<SessionRef>, reason: string) =>
    Effect.gen(function* () {
      if (sessions.length === 0) return 0
      const now = yield* clock.now
      const ids = sessions.map((s) => s.id)
      const series = [...new Set(sessions.flatMap((s) => (s.series_id ? [s.series_id] : [])))]
      const rows = yield* lockRows(
        series.length > 0
          ? sql`(b.session_id in ${sql.in(ids)} or b.series_id in ${sql.in(series)}) and (b.keeps_place or b.choose_by is not null)`
          : sql`b.session_id in ${sql.in(ids)} and (b.keeps_place or b.choose_by is not null)`
      )
      const out = yield* cancelAll(rows, now, reason)
      yield* events.append(sessions[0].org_id, out)
      return rows.length
    })

  /**
   * Bookings on weekly hours inside a new closure: guests refund cancels and refunds them; choose cancels holds and
   * resellers' bookings and calls off the rest (their guests pick another time by choose_by, or cancel).
   */
  const closedOn = (
    orgId: string,
    ids: ReadonlyArray<string>,
    guests: "refund" | "choose",
    note: string | null,
    zone: string
  ) =>
    Effect.gen(function* () {
      if (ids.length === 0) return
      const now = yield* clock.now
      const rows = yield* lockRows(sql`b.org_id = ${orgId} and b.id in ${sql.in([...ids])}`)
      const cancelled = guests === "refund" ? rows : rows.filter((b) => b.status === "held" || b.source === "octo")
      const out = yield* cancelAll(cancelled, now, "closed", note)
      const chooseBy = chooseByOf(now, zone)
      for (const row of rows.filter((b) => !cancelled.includes(b))) {
        const applied = yield* Effect.orDie(
          store.apply(
            row,
            { type: "call_off", at: at(now), choose_by: chooseBy.toISOString() },
            now,
            {},
            { note, room: true }
          )
        )
        out.push(...applied.events)
        yield* mailTo("called_off", applied.booking, note)
      }
      yield* events.append(orgId, out)
    })

  /** Upcoming bookings and live holds of an offering (what deleting it would cancel). */
  const upcomingRows = (offeringId: string, now: Date) =>
    lockRows(
      sql`b.offering_id = ${offeringId} and b.ends_at > ${now} and (b.status = 'confirmed' or (b.keeps_place and b.expires_at > ${now}))`
    )

  return { sessionCancelled, cancelOnSessions, closedOn, cancelAll, upcomingRows, mailTo } as const
})
