import { SqlClient, type Statement } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { EngineClock } from "../../ports/Clock.ts"
import type { BookingRow } from "../../store/bookingRow.ts"
import { bookingStore } from "../../store/bookings.ts"
import { giveBackUse } from "../../store/promos.ts"
import { retryTransient } from "../../store/transaction.ts"
import { Events, type NewEvent } from "../Events.ts"
import { bookingCascade } from "./cascade.ts"

/**
 * Holds past expires_at stop keeping their place, and the guest of each is nudged once (a link to finish booking;
 * reseller holds are not). The job runs it for every due hold; a booking that finds a time full runs it for the
 * holds of that time first, so a place a lapsed hold no longer keeps is free at once. Several instances share the
 * work (skip locked). A deadlock (the lapse takes the rows of the holds' times one after another, while a move or
 * another lapse may take two of them the other way round) runs it again, up to three times: it was a 500 for the
 * request that lapsed on its way. Returns how many holds lapsed.
 */
export const holdLapses = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const clock = yield* EngineClock
  const events = yield* Events
  const store = yield* bookingStore
  const cascade = yield* bookingCascade

  /**
   * One locked hold past its expiry: lapsed, and its guest nudged (once). Returns the row after, and the events. An
   * SQL error stays an error (a deadlock is for the caller's transaction to run again); anything else is a defect.
   */
  const lapseRow = (row: BookingRow, now: Date) =>
    Effect.gen(function* () {
      // Its checkout closes with it (store.apply; the payments job expires it at the processor after this commits).
      const lapsed = yield* store.apply(row, { type: "lapse", at: now.toISOString() }, now)
      // The promo code's use is given back (a code deleted since has nothing to give back to).
      if (row.promo_code !== null) {
        yield* giveBackUse(sql, row.org_id, row.promo_code)
      }
      if (lapsed.booking.nudged_at !== null || lapsed.booking.source === "octo")
        return { booking: lapsed.booking, events: lapsed.events }
      const nudged = yield* store.apply(lapsed.booking, { type: "nudge", at: now.toISOString() }, now)
      yield* cascade.mailTo("nudged", nudged.booking)
      return { booking: nudged.booking, events: [...lapsed.events, ...nudged.events] }
    }).pipe(Effect.catchAll((e) => (e instanceof SqlError ? Effect.fail(e) : Effect.die(e))))

  const lapse = (only: Statement.Fragment = sql`true`) =>
    Effect.gen(function* () {
      const now = yield* clock.now
      const due =
        yield* sql<BookingRow>`select * from bookings where status = 'held' and keeps_place and expires_at <= ${now} and ${only}
        order by expires_at limit 200 for update skip locked`
      const out: Array<NewEvent & { org: string }> = []
      for (const row of due) out.push(...(yield* lapseRow(row, now)).events.map((e) => ({ ...e, org: row.org_id })))
      for (const org of new Set(out.map((e) => e.org)))
        yield* events.append(
          org,
          out.filter((e) => e.org === org)
        )
      return due.length
    }).pipe(sql.withTransaction, retryTransient(3), Effect.orDie)

  return { lapse, lapseRow } as const
})
