import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { EngineClock } from "../../ports/Clock.ts"
import type { BookingRow } from "../../store/bookingRow.ts"
import { bookingStore } from "../../store/bookings.ts"
import { transaction } from "../../store/transaction.ts"
import { CalendarBookings } from "../calendar/hooks.ts"
import { Events, type NewEvent } from "../Events.ts"
import { Jobs } from "../Jobs.ts"
import { Mail } from "../mail/Mail.ts"
import { OfferingHooks } from "../offerings/hooks.ts"
import { Payments } from "../payments/Payments.ts"
import { refundOnCancel } from "../payments/refunds.ts"
import { endEntries } from "../waitlist/open.ts"
import { bookingCascade } from "./cascade.ts"
import { holdLapses } from "./lapse.ts"
import { waiverChange } from "./waiverChange.ts"

const zoneOf = (sql: SqlClient.SqlClient, orgId: string) =>
  sql<{ timezone: string }>`select timezone from orgs where id = ${orgId}`.pipe(
    Effect.orDie,
    Effect.map((r) => r[0].timezone)
  )

/** What calendars ask of bookings when times are cancelled or removed. */
export const CalendarBookingsLive = Layer.effect(
  CalendarBookings,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const cascade = yield* bookingCascade
    return {
      sessionCancelled: (session, guests, note, again) =>
        Effect.flatMap(zoneOf(sql, session.org_id), (zone) =>
          cascade.sessionCancelled(session, guests, note, again, zone)
        ),
      cancelOnSessions: cascade.cancelOnSessions,
      closedOn: (orgId, ids, guests, note) =>
        Effect.flatMap(zoneOf(sql, orgId), (zone) => cascade.closedOn(orgId, ids, guests, note, zone))
    }
  })
)

/** What offerings ask of bookings and calendars: upcoming counts, cancelling them, times to come. */
export const OfferingHooksLive = Layer.effect(
  OfferingHooks,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events
    const cascade = yield* bookingCascade
    const payments = yield* Payments
    const waiverChanged = waiverChange(sql, yield* bookingStore, cascade, yield* Mail)
    return {
      waiverChanged,
      hasTimesToCome: (offeringId) =>
        Effect.gen(function* () {
          const now = yield* clock.now
          const [r] = yield* sql<{ ok: boolean }>`select exists(select 1 from sessions where offering_id = ${offeringId}
          and state = 'scheduled' and starts_at > ${now}) as ok`.pipe(Effect.orDie)
          return r.ok
        }),
      upcoming: (offeringId) =>
        Effect.gen(function* () {
          const rows = yield* cascade.upcomingRows(offeringId, yield* clock.now)
          return {
            bookings: rows.filter((r) => r.status === "confirmed").length,
            holds: rows.filter((r) => r.status === "held").length
          }
        }),
      cancelUpcoming: (offeringId) =>
        Effect.gen(function* () {
          const now = yield* clock.now
          const rows = yield* cascade.upcomingRows(offeringId, now)
          const out = yield* cascade.cancelAll(rows, now, "offering_deleted")
          if (rows.length > 0) yield* events.append(rows[0].org_id, out)
          // Refunds are taken at the processor after this commits (refundNow).
          const payments = rows.filter((r) => r.payment_intent_id !== null && (r.charged_cents ?? 0) > 0)
          return { cancelled: rows.length, payments: payments.map((r) => r.payment_intent_id!) }
        }),
      refundNow: payments.refundNow,
      // The waitlist switched off: everyone waiting is told it closed (waitlist.left, reason closed).
      waitlistClosed: (offeringId) =>
        Effect.gen(function* () {
          const left = yield* endEntries(sql, { offering_id: offeringId }, "closed", yield* clock.now)
          if (left.length > 0)
            yield* events.append(
              left[0].org,
              left.map(({ type, data }) => ({ type, data }))
            )
        }).pipe(Effect.orDie)
    }
  })
)

/**
 * Background work on the engine clock: holds that pass expires_at stop keeping their place and their guest
 * is nudged once; guests called off who have not picked by choose_by are cancelled.
 */
export const BookingJobsLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events
    const jobs = yield* Jobs
    const store = yield* bookingStore
    const cascade = yield* bookingCascade
    const lapses = yield* holdLapses
    const byOrg = (out: ReadonlyArray<NewEvent & { org: string }>) =>
      Effect.forEach([...new Set(out.map((e) => e.org))], (org) =>
        events.append(
          org,
          out.filter((e) => e.org === org)
        )
      )

    const lapse = Effect.asVoid(lapses.lapse())

    const chooseExpired = Effect.gen(function* () {
      const now = yield* clock.now
      const due =
        yield* sql<BookingRow>`select * from bookings where status = 'confirmed' and choose_by is not null and choose_by <= ${now}
      order by choose_by limit 200 for update skip locked`
      const out: Array<NewEvent & { org: string }> = []
      for (const row of due) {
        const refund = yield* refundOnCancel(sql, row, null, now)
        const applied = yield* store.apply(row, { type: "choose_expired", at: now.toISOString() }, now, {
          cancel_reason: "choose_by_passed",
          ...refund
        })
        out.push(...applied.events.map((e) => ({ ...e, org: row.org_id })))
        yield* cascade.mailTo("cancelled", applied.booking)
      }
      yield* byOrg(out)
    }).pipe(transaction(sql), Effect.orDie)

    yield* jobs.register({
      name: "bookings.lapse",
      run: lapse,
      next: sql`(select min(expires_at) from bookings where status = 'held' and keeps_place)`
    })
    yield* jobs.register({
      name: "bookings.choose_expired",
      run: chooseExpired,
      next: sql`(select min(choose_by) from bookings where choose_by is not null and status = 'confirmed')`
    })
  })
)
