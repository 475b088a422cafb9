import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { textsDelivered, textsFailed } from "./messages.ts"
import { optedOutReason, segmentsOf, type TextRow } from "./textRow.ts"

export interface NewText {
  readonly orgId: string
  /** E.164. */
  readonly to: string
  readonly body: string
  readonly kind: string
  readonly bookingId?: string | null | undefined
}

/** How long a received text's MessageSid is kept to recognise Twilio's retries of it. */
const RECEIPT_DAYS = 7

/** What became of a text written to the outbox: queued, or refused at once (the number opted out) and why. */
export interface Queued {
  readonly id: string
  readonly segments: number
  readonly encoding: string
  readonly refused: string | null
}

/**
 * The one writer of `texts` and `text_optouts` (and of a text message's delivery on `messages`, as the mail outbox
 * writes a mail's). A text to a number that replied STOP is written failed at once, with the reason.
 */
export const textStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const optOutOf = (phone: string) =>
    sql<{
      keyword: string
      opted_out_at: Date
    }>`select keyword, opted_out_at from text_optouts where phone = ${phone}`.pipe(Effect.map((rows) => rows[0]))

  /** In the caller's transaction: the text, due now, or failed now when its number opted out. */
  const enqueue = (text: NewText, now: Date) =>
    Effect.gen(function* () {
      const out = yield* optOutOf(text.to)
      const refused = out === undefined ? null : optedOutReason(out.keyword, out.opted_out_at)
      const { segments, encoding } = segmentsOf(text.body)
      const id = randomUUID()
      const inserted = yield* sql`insert into texts ${sql.insert({
        id,
        org_id: text.orgId,
        to_phone: text.to,
        body: text.body,
        kind: text.kind,
        booking_id: text.bookingId ?? null,
        segments,
        encoding,
        created_at: now,
        next_at: refused === null ? now : null,
        failed_at: refused === null ? null : now,
        failure_reason: refused
      })} on conflict do nothing returning id`
      return inserted.length === 0 ? undefined : ({ id, segments, encoding, refused } satisfies Queued)
    })

  /** Due texts no other instance holds, leased until `lease` (a text survives an instance that dies mid-send). */
  const claim = (now: Date, lease: Date, batch: number) =>
    sql<TextRow>`update texts set next_at = ${lease} where id in (
        select id from texts where next_at <= ${now} order by next_at limit ${batch} for update skip locked
      ) returning *`

  /** The provider took it; the log, or a provider that says so at once, also delivered it. */
  const sent = (id: string, providerId: string, delivered: boolean, now: Date) =>
    sql`with t as (
        update texts set sent_at = ${now}, next_at = null, attempts = attempts + 1, provider_id = ${providerId},
          failure_reason = null, delivered_at = ${delivered ? now : null}
        where id = ${id} returning id
      )
      ${textsDelivered(sql, sql`select id from t`, now, { when: delivered })}`

  /** A failed attempt: retried at `retryAt`, or given up (failed, with the reason on the text and its message). */
  const failed = (id: string, reason: string, retryAt: Date | null, now: Date) =>
    retryAt !== null
      ? sql`update texts set next_at = ${retryAt}, attempts = attempts + 1, failure_reason = ${reason} where id = ${id}`
      : sql`with t as (
          update texts set next_at = null, attempts = attempts + 1, failed_at = ${now}, failure_reason = ${reason}
          where id = ${id} returning id
        )
        ${textsFailed(sql, sql`select id from t`, reason, now)}`

  /**
   * The provider's report on a text it took: delivered, or failed (undelivered) with its reason. Each applies once: a
   * repeated report (Twilio retries its callbacks) leaves the time and reason of the first.
   */
  const reported = (providerId: string, outcome: "delivered" | "failed", reason: string | null, now: Date) =>
    outcome === "delivered"
      ? sql<{ id: string }>`with t as (
          update texts set delivered_at = coalesce(delivered_at, ${now}) where provider_id = ${providerId} returning id
        ), m as (${textsDelivered(sql, sql`select id from t`, now, { first: true })})
        select id from t`
      : sql<{ id: string }>`with t as (
          update texts set failed_at = coalesce(failed_at, ${now}),
            failure_reason = case when failed_at is null then ${reason} else failure_reason end
          where provider_id = ${providerId} returning id
        ), m as (${textsFailed(sql, sql`select id from t`, reason, now, true)})
        select id from t`

  /**
   * A text Twilio delivered, by its MessageSid: true the first time, false for a repeat (Twilio retries, and its
   * signatures carry no time). Receipts older than RECEIPT_DAYS are let go now and then.
   */
  const received = (messageSid: string, now: Date) =>
    Effect.gen(function* () {
      if (Math.random() < 0.01)
        yield* sql`delete from text_receipts where received_at < ${new Date(now.getTime() - RECEIPT_DAYS * 86_400_000)}`
      const rows = yield* sql`insert into text_receipts (message_sid, received_at) values (${messageSid}, ${now})
        on conflict do nothing returning message_sid`
      return rows.length > 0
    })

  /** STOP (or a synonym): no text goes to the number until it replies START. */
  const optOut = (phone: string, keyword: string, now: Date) =>
    sql`insert into text_optouts (phone, keyword, opted_out_at) values (${phone}, ${keyword}, ${now})
      on conflict (phone) do update set keyword = excluded.keyword, opted_out_at = excluded.opted_out_at`
  /** START (or a synonym): texts may go to the number again; those refused while it was out stay refused. */
  const optIn = (phone: string) => sql`delete from text_optouts where phone = ${phone}`

  /** Erasure: the org's texts to a number (sent or not) leave the outbox and its log. */
  const forget = (orgId: string, phone: string) =>
    sql`delete from texts where org_id = ${orgId} and to_phone = ${phone}`

  const sentTo = (phone: string, limit: number) =>
    sql<TextRow>`select * from texts where to_phone = ${phone} order by created_at desc, id desc limit ${limit}`

  return { optOutOf, enqueue, claim, sent, failed, reported, received, optOut, optIn, forget, sentTo } as const
})
