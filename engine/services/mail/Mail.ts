import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Cause, Effect } from "effect"
import { EngineClock } from "../../ports/Clock.ts"
import { Mailer } from "../../ports/Mailer.ts"
import { Prepared } from "../../ports/Prepared.ts"
import type { TextKind } from "../../schema/texting.ts"
import {
  attemptFailed,
  CLAIM,
  forgetAddress,
  holdBack as holdBackRow,
  insertMail,
  mailTo,
  nextMailDue,
  type OutboxRow,
  SENT,
  vacuumMailQueue
} from "../../store/mail.ts"
import { fn, traced } from "../../tracing.ts"
import { Jobs } from "../Jobs.ts"
import { bookingTexts } from "./bookingTexts.ts"
import { afterFailure, BATCH, COMPLAINED, LEASE_SECONDS, MAX_BATCHES, VACUUM_EVERY } from "./outbox.ts"
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
      yield* forgetAddress(sql, orgId, address).pipe(Effect.orDie)
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
      Effect.flatMap(clock.now, (now) => holdBackRow(sql, row, COMPLAINED, now)).pipe(Effect.orDie, Effect.as(false))

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
                Effect.flatMap(clock.now, (now) =>
                  attemptFailed(sql, row, e.message.slice(0, 1000), afterFailure(row.attempts + 1, now)).pipe(
                    Effect.as(false)
                  )
                )
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
      return vacuumMailQueue(sql).pipe(
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
      next: nextMailDue(sql)
    })

    /**
     * Mail to an address, newest first, as it reads (guest mail rendered as it is sent), with the links it carries:
     * for a newcomer or a test without a mail server (admin API).
     */
    const sentTo = fn("Mail.sentTo")(function* (address: string, limit = 50) {
      const rows = yield* mailTo(sql, address, limit).pipe(Effect.orDie)
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
