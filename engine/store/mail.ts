import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { PreparedStatement } from "../ports/Prepared.ts"
import { MAIL_DELIVERED, mailFailed } from "./messages.ts"

/**
 * Tables `mail_outbox` and `mail_queue`: every mail the engine writes, and the ids of those still to send, by when.
 * This store is their only writer. Every mail is written and queued in one statement (the sender reads only the
 * queue); a new booking does it in its own statement (engine/store/bookings.ts) with bookingMailText.
 */

export interface OutboxRow {
  readonly id: string
  readonly org_id: string
  readonly to_address: string
  readonly subject: string
  readonly body: string
  readonly reply_to: string | null
  readonly kind: string
  readonly booking_id: string | null
  readonly attempts: number
  readonly html?: string | null
  /** Guest mail facts (jsonb; a string on drivers that do not parse it). */
  readonly vars: unknown
  /** The org's timezone, locale and templates at claim time. */
  readonly org: unknown
  /** The recipient is a guest of the org who reported its mail as spam and has not written in since. */
  readonly complained?: boolean
}

/** Writes a mail and queues it (mail_queue, due at its next_at) in one statement, in the caller's transaction. */
export const insertMail = (
  sql: SqlClient.SqlClient,
  row: Parameters<SqlClient.SqlClient["insert"]>[0] & { readonly next_at: Date }
) =>
  sql`with m as (insert into mail_outbox ${sql.insert(row)} returning id, next_at)
    insert into mail_queue (mail_id, due_at) select id, next_at from m`

/** The values a new booking's mail is written with, as the placeholders of its statement name them. */
export interface BookingMailValues {
  readonly id: string
  readonly org: string
  readonly to: string
  readonly subject: string
  readonly body: string
  readonly kind: string
  readonly at: string
  readonly vars: string
}

/**
 * A new booking's mail, as common table expressions that follow its row's (`after`, naming the booking's id): m, the
 * mail (none when the address is null: a quiet booking), and mq, its place in the queue.
 */
export const bookingMailText = (after: string, v: BookingMailValues) => `m as (
      insert into mail_outbox (id, org_id, to_address, subject, body, kind, booking_id, created_at, attempts, next_at, vars)
      select ${v.id}, ${v.org}, ${v.to}, ${v.subject}, ${v.body}, ${v.kind}, ${after}.id, ${v.at}, 0, ${v.at}, ${v.vars} from ${after}
      where ${v.to} is not null
      returning id, next_at
    ), mq as (
      insert into mail_queue (mail_id, due_at) select id, next_at from m
      returning 1
    )`

/** The values of a mail written for each row of a common table expression (mailForEachText), as placeholders. */
export interface MailForEachValues {
  readonly id: string
  readonly to: string
  readonly subject: string
  readonly body: string
  readonly kind: string
  readonly at: string
}

/**
 * A mail to each row of `from` (a common table expression with an org_id), as common table expressions m, the mail,
 * and mq, its place in the queue: none when `from` has no row, in the same statement either way.
 */
export const mailForEachText = (from: string, v: MailForEachValues) => `m as (
      insert into mail_outbox (id, org_id, to_address, subject, body, kind, created_at, attempts, next_at)
      select ${v.id}, ${from}.org_id, ${v.to}, ${v.subject}, ${v.body}, ${v.kind}, ${v.at}, 0, ${v.at} from ${from}
      returning id, next_at
    ), mq as (
      insert into mail_queue (mail_id, due_at) select id, next_at from m
      returning 1
    )`

/**
 * The sender's two statements, prepared, with the batch's ids as one array: each runs once a batch, and through the
 * statement compiler (a new text for each number of ids) the sender spent about 10 µs more engine CPU a mail (20,000
 * mails drained: 88.5-91 against 98.5-101 µs). CLAIM takes due mail no other instance holds and leases it by moving
 * its due time in the queue ($1 the lease's end, $2 now, $3 how many), then reads those mails by id (joined, the
 * planner may read the whole outbox). SENT takes a batch off the queue and marks it sent ($2 its ids), and its messages
 * to a guest delivered ($3, often none); the outbox row changes no indexed column, so it is updated in place.
 */
export const CLAIM: PreparedStatement = {
  name: "mail_claim",
  text: `with c as (
      update mail_queue set due_at = $1::timestamptz
      where mail_id in (
        select mail_id from mail_queue where due_at <= $2::timestamptz
        order by due_at, mail_id limit $3::int for update skip locked
      )
      returning mail_id
    )
    select m.id, m.org_id, m.to_address, m.subject, m.body, m.reply_to, m.kind, m.booking_id, m.attempts, m.vars,
      (select row_to_json(x) from (select timezone, locale, mail_templates as templates from orgs where id = m.org_id) x) as org,
      exists (select 1 from customers u where u.org_id = m.org_id and lower(u.email) = lower(m.to_address)
        and u.erased_at is null and u.complained_at is not null) as complained
    from mail_outbox m where m.id = any(array(select mail_id from c))`
}
export const SENT: PreparedStatement = {
  name: "mail_sent",
  text: `with q as (
      delete from mail_queue where mail_id = any($2::uuid[])
    ), sent as (
      update mail_outbox set sent_at = $1::timestamptz, next_at = null, attempts = attempts + 1, last_error = null where id = any($2::uuid[])
    )
    ${MAIL_DELIVERED}`
}

/** Erasure: mail to an address (sent or not) leaves the org's outbox. */
export const forgetAddress = (sql: SqlClient.SqlClient, orgId: string, address: string) =>
  sql`with m as (delete from mail_outbox where org_id = ${orgId} and lower(to_address) = lower(${address}) returning id)
    delete from mail_queue where mail_id in (select id from m)`.pipe(Effect.asVoid)

/** A mail not sent on purpose: off the queue, failed with the reason, and so is its message. */
export const holdBack = (sql: SqlClient.SqlClient, row: OutboxRow, reason: string, now: Date) =>
  sql`with q as (delete from mail_queue where mail_id = ${row.id}), o as (
      update mail_outbox set attempts = ${row.attempts + 1}, last_error = ${reason}, failed_at = ${now}, next_at = null
      where id = ${row.id})
    ${mailFailed(sql, row.id, reason, now)}`.pipe(Effect.asVoid)

/** A failed attempt: the mail due again at next_at, or (null) off the queue and given up. */
export const attemptFailed = (
  sql: SqlClient.SqlClient,
  row: OutboxRow,
  error: string,
  next: { readonly next_at: Date | null; readonly failed_at: Date | null }
) => {
  const queue =
    next.next_at === null
      ? sql`delete from mail_queue where mail_id = ${row.id}`
      : sql`update mail_queue set due_at = ${next.next_at} where mail_id = ${row.id}`
  return sql`with q as (${queue}) update mail_outbox set ${sql.update({
    attempts: row.attempts + 1,
    last_error: error,
    ...next
  })} where id = ${row.id}`.pipe(Effect.asVoid)
}

/** Reclaims the queue's dead rows (outside any transaction). */
export const vacuumMailQueue = (sql: SqlClient.SqlClient) => sql.unsafe("vacuum mail_queue")

/** When the next mail is due (the jobs' wake-up). */
export const nextMailDue = (sql: SqlClient.SqlClient) => sql`(select min(due_at) from mail_queue)`

/** Mail to an address, newest first, with its org's zone, language and templates. */
export const mailTo = (sql: SqlClient.SqlClient, address: string, limit: number) =>
  sql<OutboxRow & { created_at: Date; sent_at: Date | null }>`
    select id, org_id, to_address, subject, body, reply_to, kind, booking_id, attempts, vars, created_at, sent_at,
      (select row_to_json(x) from (select timezone, locale, mail_templates as templates from orgs where id = mail_outbox.org_id) x) as org
    from mail_outbox where lower(to_address) = lower(${address}) order by created_at desc, id desc limit ${limit}`
