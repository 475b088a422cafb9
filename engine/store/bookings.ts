import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { type BookingEvent, bookingStatus, decideBooking } from "../../machines/booking.ts"
import { type Conflict, conflict, notFound } from "../../schema/errors.ts"
import type { NewEvent } from "../Events.ts"
import { conflictOrDie, isTransient } from "./refusals.ts"
import { giveBackGift } from "../gifts/moves.ts"
import { Links } from "../Links.ts"
import { openings } from "../waitlist/open.ts"
import { type BookingRow, type Joined, machineRow, stateText, toBooking } from "./row.ts"
import { ofOrg } from "../../store/tenancy.ts"
import { closeCheckouts } from "../payments/checkouts.ts"

const joined = (sql: SqlClient.SqlClient) =>
  sql`select b.*, c.name as c_name, c.email as c_email, c.phone as c_phone, o.name as o_name, o.kind as o_kind, o.questions as o_questions
      from bookings b join customers c on c.id = b.customer_id join offerings o on o.id = b.offering_id`

/** Booking rows: load (scoped by org), lock, and apply one machine event, collecting its outbox events. */
export const bookingStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const links = yield* Links

  /** The statements of find and lock (bookings/lookups.test.ts reads their plans). */
  const findStatement = (orgId: string, id: string) => sql<BookingRow & Joined>`${joined(sql)} where b.id = ${id}::uuid and ${ofOrg(sql, "b.org_id", orgId)}`
  const lockStatement = (orgId: string, id: string) => sql<BookingRow>`select * from bookings where id = ${id}::uuid and ${ofOrg(sql, "org_id", orgId)} for update`

  const find = (orgId: string, id: string) =>
    findStatement(orgId, id).pipe(
      Effect.orDie,
      Effect.flatMap((rows) => (rows[0] === undefined ? Effect.fail(notFound("booking")) : Effect.succeed(rows[0])))
    )

  const lock = (orgId: string, id: string) =>
    lockStatement(orgId, id).pipe(
      Effect.orDie,
      Effect.flatMap((rows) => (rows[0] === undefined ? Effect.fail(notFound("booking")) : Effect.succeed(rows[0])))
    )

  /**
   * Runs the booking machine on a locked row; when it accepts, writes the next state, the machine's
   * context and `changes` in one statement. A booking that leaves its hold (confirmed, paid or cancelled) or whose hold
   * lapses no longer needs a checkout: its open ones close (closeCheckouts), and one no longer held shows none. Returns
   * the booking after it and the events to append. A change that gains places where there is no room is refused by the
   * database (bookings_places): 409 sold_out. A deadlock stays an SqlError, for the caller's transaction to run again
   * (retryTransient); other SQL errors are defects.
   */
  const apply = (row: BookingRow, event: BookingEvent, changes: Record<string, unknown>, now: Date, extra: Record<string, unknown> = {}) =>
    Effect.gen(function*() {
      const decided = decideBooking(machineRow(row), event)
      if (!decided.ok) return yield* conflict(decided.code, decided.message)
      const status = bookingStatus(decided.state)
      const leftHold = row.status === "held" && status !== "held"
      yield* sql`update bookings set ${
        sql.update({
          state: stateText(decided.state),
          machine: JSON.stringify(decided.context),
          status,
          ...(status === "cancelled" ? { keeps_place: false, choose_by: null } : {}),
          ...(leftHold ? { checkout_url: null } : {}),
          ...changes,
          updated_at: now
        })
      } where id = ${row.id}`.pipe(Effect.catchTag("SqlError", (e): Effect.Effect<never, Conflict | SqlError> => (isTransient(e) ? Effect.fail(e) : conflictOrDie(e))))
      if (leftHold || event.type === "lapse") yield* closeCheckouts(sql, row.id).pipe(Effect.orDie)
      // A booking that leaves gives back what its gift card paid (once), and the places it held open to the waitlist.
      const leaves = status === "cancelled" || event.type === "lapse"
      const returned = leaves ? yield* giveBackGift(sql, row, now).pipe(Effect.orDie) : []
      const opened = (leaves || event.type === "move") && row.session_id !== null && row.keeps_place
        ? (yield* openings(sql, row.session_id, now, links.publicUrl).pipe(Effect.orDie)).map(({ type, data }) => ({ type, data }))
        : []
      const booking = yield* find(row.org_id, row.id)
      const events: NewEvent[] = [...decided.emits.map((type) => ({ type, data: { ...toBooking(booking), ...extra } })), ...returned, ...opened]
      return { booking, events, decided }
    })

  return { find, lock, apply, joined: () => joined(sql), findStatement, lockStatement } as const
})

export type Applied = { readonly booking: BookingRow & Joined; readonly events: ReadonlyArray<NewEvent> }
