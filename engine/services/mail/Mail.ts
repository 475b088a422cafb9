import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Cause, Effect } from "effect"
import { EngineClock } from "../../ports/Clock.ts"
import { Mailer } from "../../ports/Mailer.ts"
import { Prepared, type PreparedStatement } from "../../ports/Prepared.ts"
import type { TextKind } from "../../schema/texting.ts"
import { MAIL_DELIVERED, mailFailed } from "../../store/messages.ts"
import { fn, traced } from "../../tracing.ts"
import { Jobs } from "../Jobs.ts"
import { bookingTexts } from "./bookingTexts.ts"
import {
  afterFailure,
  BATCH,
  COMPLAINED,
  insertMail,
  LEASE_SECONDS,
  MAX_BATCHES,
  type OutboxRow,
  VACUUM_EVERY
} from "./outbox.ts"
import { type MailVars, renderMail } from "./render.ts"

export interface NewMail {
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly replyTo?: string | null | undefined
  /** What the mail is about, e.g. "booking.confirmed"; kept for support and tests. */
  readonly kind: string
  readonly bookingId?: string | null | undefined
  /** The facts of a guest mail: rendered when sent, in the org's language and zone (see render.ts). */
  readonly vars?: MailVars | undefined
  /** Also a text of this kind, where the org turned it on (else the mail's own kind decides: bookingTexts.ts). */
  readonly textAs?: TextKind | undefined
}

/**
 * The sender's two statements, prepared, with the batch's ids as one array: each runs once a batch, and through the
 * statement compiler (a new text for each number of ids) the sender spent about 10 µs more engine CPU a mail (20,000
 * mails drained: 88.5-91 against 98.5-101 µs). CLAIM takes due mail no other instance holds and leases it by moving
 * its due time in the queue ($1 the lease's end, $2 now, $3 how many), then reads those mails by id (joined, the
 * planner may read the whole outbox). SENT takes a batch off the queue and marks it sent ($2 its ids), and its messages
 * to a guest delivered ($3, often none); the outbox row changes no indexed column, so it is updated in place.
 */
const CLAIM: PreparedStatement = {
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
const SENT: PreparedStatement = {
  name: "mail_sent",
  text: `with q as (
      delete from mail_queue where mail_id = any($2::uuid[])
    ), sent as (
      update mail_outbox set sent_at = $1::timestamptz, next_at = null, attempts = attempts + 1, last_error = null where id = any($2::uuid[])
    )
    ${MAIL_DELIVERED}`
}

/**
 * The mail outbox. enqueue writes a row in the caller's transaction, so a mail exists exactly when the
 * change that wants it commits; the `mail.send` job delivers due rows through the Mailer, at least once.
 */
export class Mail extends Effect.Service<Mail>()("Mail", {
  dependencies: [Jobs.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const mailer = yield* Mailer
    const prepared = yield* Prepared
    const parallel = mailer.parallel ?? 4
    const jobs = yield* Jobs
    const texts = yield* bookingTexts

    const enqueue = fn("Mail.enqueue")(function* (orgId: string, mail: NewMail) {
      const at = yield* clock.now
      const id = randomUUID()
      yield* insertMail(sql, {
        id,
        org_id: orgId,
        to_address: mail.to,
        subject: mail.subject,
        body: mail.text,
        reply_to: mail.replyTo ?? null,
        kind: mail.kind,
        booking_id: mail.bookingId ?? null,
        vars: mail.vars === undefined ? null : JSON.stringify(mail.vars),
        created_at: at,
        attempts: 0,
        next_at: at
      }).pipe(Effect.orDie)
      yield* texts.alongside(orgId, mail)
      return id
    })

    /** Erasure: mail to an address (sent or not) leaves the org's outbox. */
    const forget = fn("Mail.forget")(function* (orgId: string, address: string) {
      yield* sql`with m as (delete from mail_outbox where org_id = ${orgId} and lower(to_address) = lower(${address}) returning id)
        delete from mail_queue where mail_id in (select id from m)`.pipe(Effect.orDie)
    })

    /** One statement: takes due mail no other instance holds and leases it by moving its due time in the queue. */
    const claim = Effect.gen(function* () {
      const now = yield* clock.now
      const lease = new Date(now.getTime() + LEASE_SECONDS * 1000)
      return yield* prepared.run<OutboxRow>(CLAIM, [lease, now, BATCH])
    })

    /** A guest mail in the org's language, zone and templates as they are now; other mail as written. */
    const contentOf = (row: OutboxRow) => {
      const vars = typeof row.vars === "string" ? JSON.parse(row.vars) : row.vars
      const org = typeof row.org === "string" ? JSON.parse(row.org) : row.org
      if (vars === null || org === null) return { subject: row.subject, text: row.body, html: row.html ?? undefined }
      return renderMail(vars, { timezone: org.timezone, locale: org.locale, templates: org.templates ?? {} })
    }

    /** A mail to a guest who complained is not sent: it fails at once, and so does its message (with the reason). */
    const holdBack = (row: OutboxRow) =>
      Effect.flatMap(
        clock.now,
        (now) => sql`with q as (delete from mail_queue where mail_id = ${row.id}), o as (
            update mail_outbox set attempts = ${row.attempts + 1}, last_error = ${COMPLAINED}, failed_at = ${now}, next_at = null
            where id = ${row.id})
          ${mailFailed(sql, row.id, COMPLAINED, now)}`
      ).pipe(Effect.orDie, Effect.as(false))

    /** Sends one; true when the mail server took it (marked sent with the others of its batch), else its retry is saved. */
    const deliver = (row: OutboxRow) =>
      row.complained === true
        ? holdBack(row)
        : Effect.suspend(() =>
            mailer.send({ to: row.to_address, ...contentOf(row), replyTo: row.reply_to ?? undefined })
          ).pipe(
            Effect.matchEffect({
              onSuccess: () => Effect.succeed(true),
              onFailure: (e) =>
                Effect.flatMap(clock.now, (now) => {
                  const next = afterFailure(row.attempts + 1, now)
                  const queue =
                    next.next_at === null
                      ? sql`delete from mail_queue where mail_id = ${row.id}`
                      : sql`update mail_queue set due_at = ${next.next_at} where mail_id = ${row.id}`
                  return sql`with q as (${queue}) update mail_outbox set ${sql.update({
                    attempts: row.attempts + 1,
                    last_error: e.message.slice(0, 1000),
                    ...next
                  })} where id = ${row.id}`.pipe(Effect.as(false))
                })
            }),
            traced("Mail.deliver", { attributes: { "mail.id": row.id, "mail.kind": row.kind } })
          )

    let sinceVacuum = 0 // mails marked sent since the queue was last vacuumed

    /** The batch's sent mail in one statement; a message to a guest is delivered when the mail server accepts it. */
    const markSent = (rows: ReadonlyArray<OutboxRow>) =>
      Effect.gen(function* () {
        if (rows.length === 0) return
        const now = yield* clock.now
        yield* prepared.run(SENT, [
          now,
          rows.map((r) => r.id),
          rows.filter((r) => r.kind === "message").map((r) => r.id)
        ])
        sinceVacuum += rows.length
      })

    /** The queue vacuumed every VACUUM_EVERY mails sent (outbox.ts says why), outside any transaction. */
    const vacuumQueue = Effect.suspend(() => {
      if (sinceVacuum < VACUUM_EVERY) return Effect.void
      sinceVacuum = 0
      return sql
        .unsafe("vacuum mail_queue")
        .pipe(
          Effect.catchAllCause((cause) => Effect.logWarning("mail: vacuum of its queue failed", Cause.squash(cause)))
        )
    })

    /** One batch: claimed, sent, marked; true when it came full and the mail server took every mail. */
    const sendBatch = Effect.gen(function* () {
      const rows = yield* claim
      const sent = yield* Effect.forEach(rows, deliver, parallel > 1 ? { concurrency: parallel } : undefined)
      const took = rows.filter((_, i) => sent[i])
      yield* markSent(took)
      return rows.length === BATCH && took.length === rows.length
    })

    // Batch after batch while they come full, up to MAX_BATCHES a pass: the scheduler passes at most once a second,
    // and one batch a pass capped mail at 50 a second per instance (a steady 300 bookings a second left it ever
    // further behind). A batch with a failure ends the pass: while the mail server is down (each attempt may wait for
    // its time-out) a pass stays one batch long, so the other jobs of the pass (holds lapsing) are not held up.
    const sendDue = Effect.gen(function* () {
      for (let i = 0; i < MAX_BATCHES; i++) if (!(yield* sendBatch)) break
      yield* vacuumQueue
    }).pipe(Effect.orDie, traced("Mail.sendDue"))

    yield* jobs.register({
      name: "mail.send",
      run: sendDue,
      next: sql`(select min(due_at) from mail_queue)`
    })

    /**
     * Mail to an address, newest first, as it reads (guest mail rendered as it is sent), with the links it carries:
     * for a newcomer or a test without a mail server (admin API).
     */
    const sentTo = fn("Mail.sentTo")(function* (address: string, limit = 50) {
      const rows = yield* sql<OutboxRow & { created_at: Date; sent_at: Date | null }>`
        select id, org_id, to_address, subject, body, reply_to, kind, booking_id, attempts, vars, created_at, sent_at,
          (select row_to_json(x) from (select timezone, locale, mail_templates as templates from orgs where id = mail_outbox.org_id) x) as org
        from mail_outbox where lower(to_address) = lower(${address}) order by created_at desc, id desc limit ${limit}`.pipe(
        Effect.orDie
      )
      return {
        data: rows.map((r) => {
          const content = contentOf(r)
          return {
            id: r.id,
            org_id: r.org_id,
            to: r.to_address,
            kind: r.kind,
            subject: content.subject,
            text: content.text,
            reply_to: r.reply_to,
            booking_id: r.booking_id,
            created_at: r.created_at.toISOString(),
            sent_at: r.sent_at?.toISOString() ?? null,
            links: [...new Set(content.text.match(/https?:\/\/[^\s<>"')]+/g) ?? [])]
          }
        })
      }
    })

    return { enqueue, forget, sendDue, sentTo, alsoText: texts.alongside } as const
  })
}) {}
