import type { SqlClient, Statement } from "@effect/sql"
import { Effect } from "effect"

/**
 * Tables `conversations`, `messages` and `message_drafts`: a conversation with a guest, what was written in it either
 * way, and the replies drafted for the guest's messages. This store is their only writer. A message sent by mail or
 * text follows its mail's or text's fate; the mail and text stores do that in the statement that records it, with the
 * parts below (MAIL_DELIVERED, textsDelivered, ...), so the fate of both is one statement.
 */

export type MessageRow = {
  readonly id: string
  readonly org_id: string
  readonly conversation_id: string
  readonly booking_id: string | null
  readonly customer_id: string
  readonly direction: "outbound" | "inbound"
  readonly channel: "email" | "system" | "page" | "text"
  readonly body: string
  readonly mail_id: string | null
  readonly text_id?: string | null
  readonly segments?: number | null
  readonly created_at: Date
  readonly delivered_at: Date | null
  readonly failed_at: Date | null
  readonly failure_reason: string | null
}

export interface DraftDueRow {
  readonly id: string
  readonly org_id: string
  readonly conversation_id: string
  readonly in_reply_to: string
  readonly attempts: number
}

export const insertConversation = (sql: SqlClient.SqlClient, row: Record<string, unknown>) =>
  sql`insert into conversations ${sql.insert(row)} on conflict do nothing`.pipe(Effect.asVoid)

/** A conversation's guest and booking. */
export const conversationSubject = (sql: SqlClient.SqlClient, id: string) =>
  sql<{ booking_id: string | null; customer_id: string }>`
    select booking_id, customer_id from conversations where id = ${id}`.pipe(Effect.map((rows) => rows[0]))

export const insertMessage = (sql: SqlClient.SqlClient, row: MessageRow) =>
  sql`insert into messages ${sql.insert(row)}`.pipe(Effect.asVoid)

/** The messages with a guest, about a booking or (booking null) about none, in order. */
export const messagesWith = (sql: SqlClient.SqlClient, orgId: string, customerId: string, bookingId: string | null) =>
  sql<MessageRow>`select m.* from messages m join conversations v on v.id = m.conversation_id
    where v.org_id = ${orgId} and v.customer_id = ${customerId}
    and ${bookingId === null ? sql`v.booking_id is null` : sql`v.booking_id = ${bookingId}`}
    order by m.seq`

/** The latest outbound message of a conversation (by its reply token) not yet failed, failed: whether there was one. */
export const failLatest = (sql: SqlClient.SqlClient, token: string, reason: string, now: Date) =>
  sql<{ id: string }>`update messages set failed_at = ${now}, failure_reason = ${reason.slice(0, 500)}
    where id = (select m.id from messages m join conversations v on v.id = m.conversation_id
      where v.reply_token = ${token} and m.direction = 'outbound' and m.channel <> 'system' and m.failed_at is null
      order by m.seq desc limit 1)
    returning id`.pipe(Effect.map((rows) => rows.length > 0))

/** The conversation up to a message, newest first. */
export const conversationUpTo = (sql: SqlClient.SqlClient, conversationId: string, messageId: string, limit: number) =>
  sql<{ direction: string; body: string; created_at: Date }>`
    select direction, body, created_at from messages
    where conversation_id = ${conversationId} and seq <= (select seq from messages where id = ${messageId})
    order by seq desc limit ${limit}`

/** Erasure: the guest's messages keep their place in the thread without their words; their drafts are dropped. */
export const forgetGuest = (sql: SqlClient.SqlClient, orgId: string, customerId: string) =>
  Effect.gen(function* () {
    yield* sql`update messages set body = '', failure_reason = null where org_id = ${orgId} and customer_id = ${customerId}`
    yield* sql`update message_drafts set body = null, error = null, next_at = null,
        status = case when status = 'pending' then 'failed' else status end
      where conversation_id in (select id from conversations where org_id = ${orgId} and customer_id = ${customerId})`
  })

/** The messages of mails sent: $1 when, $3 the mails' ids (a part of the mail store's statement mail_sent). */
export const MAIL_DELIVERED = "update messages set delivered_at = $1::timestamptz where mail_id = any($3::uuid[])"

/** The message of a mail held back, failed with the reason (if it was not already). */
export const mailFailed = (sql: SqlClient.SqlClient, mailId: string, reason: string, now: Date) =>
  sql`update messages set failed_at = ${now}, failure_reason = ${reason} where mail_id = ${mailId} and failed_at is null`

/**
 * The messages of the texts in `texts` (a statement's part naming their ids) delivered at `now` (kept if they were
 * already, with `first`); none when `when` is false.
 */
export const textsDelivered = (
  sql: SqlClient.SqlClient,
  texts: Statement.Fragment,
  now: Date,
  options: { readonly first?: boolean; readonly when?: boolean } = {}
) =>
  options.first === true
    ? sql`update messages set delivered_at = coalesce(delivered_at, ${now}) where text_id in (${texts})`
    : sql`update messages set delivered_at = ${now} where ${options.when ?? true} and text_id in (${texts})`

/** The messages of the texts in `texts` failed at `now` with the reason (the first failure's time when `first`). */
export const textsFailed = (
  sql: SqlClient.SqlClient,
  texts: Statement.Fragment,
  reason: string | null,
  now: Date,
  first = false
) =>
  first
    ? sql`update messages set failed_at = ${now}, failure_reason = ${reason} where text_id in (${texts}) and failed_at is null`
    : sql`update messages set failed_at = ${now}, failure_reason = ${reason} where text_id in (${texts})`

/** Asks for a draft of a reply to a guest's message (once per message). */
export const insertDraft = (sql: SqlClient.SqlClient, row: Record<string, unknown>) =>
  sql`insert into message_drafts ${sql.insert(row)} on conflict do nothing`.pipe(Effect.asVoid)

/** Due drafts no other instance holds, leased until `lease`. */
export const claimDrafts = (sql: SqlClient.SqlClient, now: Date, lease: Date, batch: number) =>
  sql<DraftDueRow>`
    update message_drafts set next_at = ${lease}
    where id in (select id from message_drafts where status = 'pending' and next_at <= ${now} order by next_at, id limit ${batch} for update skip locked)
    returning id, org_id, conversation_id, in_reply_to, attempts`

export const changeDraft = (sql: SqlClient.SqlClient, id: string, changes: Record<string, unknown>) =>
  sql`update message_drafts set ${sql.update(changes)} where id = ${id}`.pipe(Effect.asVoid)

/** The drafted reply kept, if the draft is still pending: whether it was. */
export const draftDone = (sql: SqlClient.SqlClient, row: DraftDueRow, body: string, now: Date) =>
  sql`update message_drafts set status = 'drafted', body = ${body}, drafted_at = ${now},
    attempts = ${row.attempts + 1}, error = null, next_at = null where id = ${row.id} and status = 'pending' returning id`.pipe(
    Effect.map((rows) => rows.length > 0)
  )

/** When the next pending draft is due (the jobs' wake-up). */
export const nextDraftAt = (sql: SqlClient.SqlClient) =>
  sql`(select min(next_at) from message_drafts where status = 'pending')`
