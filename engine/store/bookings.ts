import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Context, Effect } from "effect"
import { errorOf, notFound } from "../errors/index.ts"
import { type BookingEvent, decideBooking } from "../machines/booking.ts"
import { Prepared } from "../ports/Prepared.ts"
import type { NewEvent } from "../schema/event.ts"
import { type BookingRow, type Joined, lifecycleColumns, machineRow, signaturesOf, toBooking } from "./bookingRow.ts"
import { type BookingWriteValues, guestOf } from "./bookingWriteValues.ts"
import { CUSTOMER_WRITE, type CustomerMode } from "./customers.ts"
import { bookingEventsText } from "./events.ts"
import { bookingMailText } from "./mail.ts"
import { type NamedStatement, namedStatement } from "./named.ts"
import { type CapacityRefusal, conflictOrDie } from "./refusals.ts"
import { ofOrg } from "./tenancy.ts"

export type { BookingWriteValues } from "./bookingWriteValues.ts"

import { isTransient } from "./transaction.ts"

/**
 * The bookings table's one writer. A booking's lifecycle changes only through its machine (apply): the columns the
 * machine governs are derived from its result (lifecycleColumns, engine/store/bookingRow.ts), and a transition's
 * other facts are the few BookingFacts below. Everything else a booking records (what a new booking adds after its
 * WRITE, a reseller's references, its money's progress after it was cancelled) has a named operation here.
 */

/** What a transition records besides the machine's own columns. */
export type BookingFacts = {
  readonly cancel_reason?: string | null
  readonly refund_cents?: number | null
  readonly refund_next_at?: Date | null
  readonly paid_cents?: number | null
  readonly payment_intent_id?: string | null
  readonly charged_cents?: number | null
  readonly checkout_url?: string | null
  readonly gift_taken_at?: Date | null
  readonly gift_returned_at?: Date | null
  readonly waiver_signed?: number
  readonly waiver_signatures?: string
}

/**
 * What a booking's change does elsewhere, in its transaction, after the row is written: a booking that leaves gives
 * back its gift card's part and opens its places to the waitlist, one that leaves its hold closes its checkouts. The
 * bookings service provides it (engine/services/bookings/reactions.ts), so that payments and waivers, which
 * change bookings through this store, never import the bookings service.
 */
export class BookingReactions extends Context.Tag("BookingReactions")<
  BookingReactions,
  {
    readonly changed: (
      before: BookingRow,
      after: BookingRow,
      event: BookingEvent,
      now: Date
    ) => Effect.Effect<{
      readonly facts: BookingFacts
      readonly events: ReadonlyArray<NewEvent>
    }>
  }
>() {}

/**
 * The booking path's WRITE, for each way of meeting the guest (CUSTOMER_WRITE): everything a new booking changes, in
 * one statement and so one transaction: the customer, the booking (the booking_places trigger takes its places or
 * refuses), its mail and the mail's place in mail_queue (bookingMailText; none for a quiet booking), then the org's
 * event clock row, which also counts the month's bookings against the plan's quota, and the booking's events stamped
 * under it, their ids queued for the relay (bookingEventsText). They run in the order the final select reads them (a
 * CTE nothing reads runs last): the customer, the booking (the time's row is locked from here to commit), its mail,
 * and only then the org's row, which every booking of the org waits on, so it is held for the least: the events, the
 * commit. Its parameters are named (namedStatement): the values are an object of BookingWriteValues.
 */
const writeFor = (mode: CustomerMode) =>
  namedStatement<BookingWriteValues>(`booking_write_${mode}`, (v) => {
    const org = `${v.org_id}::uuid`
    const at = `${v.at}::timestamptz`
    return `with c as (
      ${CUSTOMER_WRITE[mode](guestOf(v, org, at))}
    ), b as (
      insert into bookings (id, org_id, offering_id, customer_id, session_id, series_id, starts_at, ends_at, quantity, places, state, machine,
        status, keeps_place, expires_at, total_cents, reference, handle, source, notes, answers, metadata, confirmed_at, created_at,
        waiver_token, waiver_needed, guest_cancel_hours)
      select ${v.id}::uuid, ${org}, ${v.offering_id}::uuid, c.id, ${v.session_id}::uuid, ${v.series_id}::uuid, ${v.starts_at}::timestamptz,
        ${v.ends_at}::timestamptz, ${v.quantity}::int, ${v.places}::int, ${v.state}::text, ${v.machine}::jsonb, ${v.status}::text, true,
        ${v.expires_at}::timestamptz, ${v.total_cents}::int, ${v.reference}::text, ${v.handle}::text, ${v.source}::text, ${v.notes}::text,
        ${v.answers}::jsonb, ${v.metadata}::jsonb, ${v.confirmed_at}::timestamptz, ${at}, ${v.waiver_token}::text, ${v.waiver_needed}::int,
        ${v.guest_cancel_hours}::int
      from c
      returning id
    ), ${bookingMailText("b", {
      id: `${v.mail_id}::uuid`,
      org,
      to: `${v.mail_to}::text`,
      subject: `${v.mail_subject}::text`,
      body: `${v.mail_body}::text`,
      kind: `${v.mail_kind}::text`,
      at,
      vars: `${v.mail_vars}::jsonb`
    })}, ${bookingEventsText("b", {
      org,
      at,
      month: `${v.month}::text`,
      quota: `${v.quota}::int`,
      types: `${v.event_types}::text[]`,
      data: `${v.event_data}::jsonb`,
      actor: `${v.actor}::jsonb`
    })}
    select (select count(*) from b)::int as written, (select count(*) from mq)::int as mails, (select count(*) from e)::int as events`
  })

export const WRITE: Record<CustomerMode, NamedStatement<BookingWriteValues>> = {
  new: writeFor("new"),
  fill: writeFor("fill"),
  keep: writeFor("keep")
}

const joined = (sql: SqlClient.SqlClient) =>
  sql`select b.*, c.name as c_name, c.email as c_email, c.phone as c_phone, o.name as o_name, o.kind as o_kind, o.questions as o_questions
      from bookings b join customers c on c.id = b.customer_id join offerings o on o.id = b.offering_id`

/** The statements of find and lock (bookings/lookups.test.ts reads their plans). */
export const findStatement = (sql: SqlClient.SqlClient, orgId: string, id: string) =>
  sql<BookingRow & Joined>`${joined(sql)} where b.id = ${id}::uuid and ${ofOrg(sql, "b.org_id", orgId)}`
export const lockStatement = (sql: SqlClient.SqlClient, orgId: string, id: string) =>
  sql<BookingRow>`select * from bookings where id = ${id}::uuid and ${ofOrg(sql, "org_id", orgId)} for update`

/** A reseller's own references (OCTO), kept beside the booking; the contact may move the booking to another guest. */
export type ResellerFacts = {
  readonly octo_uuid?: string
  readonly customer_id?: string
  readonly reseller_reference?: string | null
  readonly octo_contact?: string | null
  readonly octo_units?: string
  readonly notes?: string
}

/** Booking rows: load (scoped by org), lock, write a new one, and apply one machine event, collecting its events. */
export const bookingStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const prepared = yield* Prepared
  const reactions = yield* BookingReactions

  const one = <A>(rows: ReadonlyArray<A>) =>
    rows[0] === undefined ? Effect.fail(notFound("booking")) : Effect.succeed(rows[0])

  const find = (orgId: string, id: string) => findStatement(sql, orgId, id).pipe(Effect.orDie, Effect.flatMap(one))
  const lock = (orgId: string, id: string) => lockStatement(sql, orgId, id).pipe(Effect.orDie, Effect.flatMap(one))

  /** A refusal of the database (no room) is the change's 409; a deadlock stays an SqlError (to run again); else a defect. */
  const refusal = (e: SqlError): Effect.Effect<never, CapacityRefusal | SqlError> =>
    isTransient(e) ? Effect.fail(e) : conflictOrDie(e)
  const write = (id: string, columns: Record<string, unknown>) =>
    sql`update bookings set ${sql.update(columns)} where id = ${id}`.pipe(Effect.catchTag("SqlError", refusal))

  /**
   * Runs the booking machine on a locked row; when it accepts, writes the columns it governs and `facts` in one
   * statement, then what the change does elsewhere (BookingReactions). A booking no longer held shows no checkout.
   * Returns the booking after it and the events to append. A change that gains places where there is no room is
   * refused by the database (booking_places): 409 sold_out.
   */
  const apply = (
    row: BookingRow,
    event: BookingEvent,
    now: Date,
    facts: BookingFacts = {},
    extra: Record<string, unknown> = {}
  ) =>
    Effect.gen(function* () {
      const decided = decideBooking(machineRow(row), event)
      if (!decided.ok) return yield* errorOf(decided.code, decided.message)
      const after = lifecycleColumns(decided.state, decided.context)
      yield* write(row.id, {
        ...after,
        ...(after.status !== "held" ? { checkout_url: null } : {}),
        ...facts,
        updated_at: now
      })
      const reacted = yield* reactions.changed(
        row,
        { ...row, ...after, machine: decided.context, previous: decided.context.previous },
        event,
        now
      )
      if (Object.keys(reacted.facts).length > 0) yield* write(row.id, reacted.facts)
      const booking = yield* find(row.org_id, row.id)
      const events: NewEvent[] = [
        ...decided.emits.map((type) => ({ type, data: { ...toBooking(booking), ...extra } })),
        ...reacted.events
      ]
      return { booking, events, decided }
    })

  /**
   * A checkout the processor opened for the booking (its machine's checkout_opened, accepted while it is held): its
   * address is shown on the booking. False when the booking no longer takes it (confirmed or cancelled meanwhile).
   */
  const checkoutOpened = (orgId: string, id: string, url: string, now: Date) =>
    Effect.gen(function* () {
      const row = yield* lock(orgId, id)
      if (!decideBooking(machineRow(row), { type: "checkout_opened", at: now.toISOString() }).ok) return false
      yield* write(row.id, { checkout_url: url })
      return true
    }).pipe(Effect.catchTag("NotFound", () => Effect.succeed(false)))

  /** WRITE: a new booking with everything it changes (its places taken or refused by the database). */
  const insert = (mode: CustomerMode, values: BookingWriteValues) =>
    prepared.run<{ written: number }>(WRITE[mode].statement, WRITE[mode].values(values))

  /** What a new booking adds in its transaction after WRITE: a promo code's discount, a gift card's part, signatures. */
  const recordExtras = (row: BookingRow) =>
    sql`update bookings set ${sql.update({
      promo_code: row.promo_code,
      discount_cents: row.discount_cents,
      gift_card_id: row.gift_card_id,
      gift_cents: row.gift_cents,
      gift_taken_at: row.gift_taken_at ?? null,
      paid_cents: row.paid_cents,
      paid_at: row.paid_at,
      waiver_signed: row.waiver_signed,
      waiver_signatures: JSON.stringify(signaturesOf(row))
    })} where id = ${row.id}`

  const recordReseller = (orgId: string, id: string, facts: ResellerFacts, now: Date) =>
    sql`update bookings set ${sql.update({ ...facts, updated_at: now })} where id = ${id} and org_id = ${orgId}`

  /**
   * The money of a booking as its payment's ledger moves after the booking's last transition: a refund's progress,
   * or a payment that landed after it was cancelled. Only the row of that payment (payment_intent_id) is touched;
   * `adopt` makes a cancelled booking without a payment take this one (it is refunded in full).
   */
  const recordMoney = (
    id: string,
    paymentIntentId: string,
    facts: BookingFacts & {
      readonly refund_id?: string | null
      readonly refunded_at?: Date | null
      readonly refund_failed_at?: Date | null
      readonly refund_error?: string | null
    },
    adopt = false
  ) =>
    sql`update bookings set ${sql.update(facts)} where id = ${id} and ${
      adopt ? sql`status = 'cancelled' and payment_intent_id is null` : sql`payment_intent_id = ${paymentIntentId}`
    }`

  /** The offering's waiver changed: a booking to come is asked for its signatures (a token, how many), or no longer is. */
  const setWaiver = (
    id: string,
    waiver: { readonly waiver_token: string | null; readonly waiver_needed: number | null },
    now: Date
  ) => write(id, { ...waiver, updated_at: now }).pipe(Effect.orDie)

  return {
    find,
    lock,
    apply,
    setWaiver,
    checkoutOpened,
    insert,
    recordExtras,
    recordReseller,
    recordMoney,
    joined: () => joined(sql)
  } as const
})

export type BookingStore = Effect.Effect.Success<typeof bookingStore>
export type Applied = { readonly booking: BookingRow & Joined; readonly events: ReadonlyArray<NewEvent> }
