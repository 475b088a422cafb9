import { SqlClient } from "@effect/sql"
import { Effect, FiberSet } from "effect"
import { EngineClock } from "../../ports/Clock.ts"
import { Links } from "../../ports/Links.ts"
import { Texter, type TextFailed } from "../../ports/Texter.ts"
import { toSentText } from "../../store/textRow.ts"
import { type NewText, textStore } from "../../store/texts.ts"
import { fn, traced } from "../../tracing.ts"
import { Jobs } from "../Jobs.ts"
import { reminderTexts } from "./reminders.ts"

/** Where Twilio reports a text's delivery, and posts the texts guests send (transports/texts/routes.ts). */
export const TEXT_STATUS_PATH = "/texts/twilio/status"
export const TEXT_INBOUND_PATH = "/texts/twilio/inbound"

/** Waits after failed attempts 1..4 (a provider that did not answer); the fifth failure gives up. */
const BACKOFF_SECONDS = [60, 300, 1800, 7200]
const LEASE_SECONDS = 600
const BATCH = 50

/** Twilio's final states of a text: delivered, or not (undelivered: the carrier refused it; failed: it never left). */
export const statusOutcome = (status: string): "delivered" | "failed" | undefined =>
  status === "delivered" || status === "read"
    ? "delivered"
    : status === "failed" || status === "undelivered"
      ? "failed"
      : undefined

/**
 * The text outbox. enqueue writes a text in the caller's transaction (refused at once for a number that replied STOP);
 * the `texts.send` job hands due texts to the Texter, at least once, with retries; the provider's reports set
 * delivered or failed on the text and on its message.
 */
export class Texts extends Effect.Service<Texts>()("Texts", {
  dependencies: [Jobs.Default],
  scoped: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const store = yield* textStore
    const clock = yield* EngineClock
    const texter = yield* Texter
    const jobs = yield* Jobs
    const links = yield* Links
    const statusCallback = texter.provider === "twilio" ? `${links.publicUrl}${TEXT_STATUS_PATH}` : undefined

    const enqueue = fn("Texts.enqueue")(function* (text: NewText) {
      const queued = yield* store.enqueue(text, yield* clock.now).pipe(Effect.orDie)
      return queued!
    })

    const deliver = (row: { id: string; to_phone: string; body: string; attempts: number }) =>
      texter.send({ to: row.to_phone, body: row.body, statusCallback }).pipe(
        Effect.matchEffect({
          onSuccess: (sent) => Effect.flatMap(clock.now, (now) => store.sent(row.id, sent.id, sent.delivered, now)),
          onFailure: (e: TextFailed) =>
            Effect.flatMap(clock.now, (now) => {
              const attempts = row.attempts + 1
              const giveUp = e.permanent || attempts > BACKOFF_SECONDS.length
              const retryAt = giveUp ? null : new Date(now.getTime() + BACKOFF_SECONDS[attempts - 1] * 1000)
              const reason = e.optedOut
                ? `not sent: the carrier says the guest opted out of texts (${e.message.slice(0, 300)})`
                : e.message.slice(0, 500)
              return Effect.zipRight(
                e.optedOut ? store.optOut(row.to_phone, "STOP", now) : Effect.void,
                store.failed(row.id, reason, retryAt, now)
              )
            })
        }),
        traced("Texts.deliver", { attributes: { "text.id": row.id } })
      )

    // One pass at a time on this instance, the job's or a hand-over's: the second waits and finds what the first
    // left (so a test clock's pass that runs while a hand-over is under way returns once that text has gone).
    const oneAtATime = yield* Effect.makeSemaphore(1)
    const sendDue = Effect.gen(function* () {
      const now = yield* clock.now
      const rows = yield* store.claim(now, new Date(now.getTime() + LEASE_SECONDS * 1000), BATCH)
      yield* Effect.forEach(rows, deliver, { concurrency: 4, discard: true })
    }).pipe(oneAtATime.withPermits(1), Effect.orDie, traced("Texts.sendDue"))

    /**
     * Texts due now handed to the provider at once, after the commit that wrote them, without waiting for the job:
     * under the system clock and the test clock alike (which runs jobs only when moved). The caller does not wait.
     */
    const handOvers = yield* FiberSet.make()
    const handOver = FiberSet.run(
      handOvers,
      sendDue.pipe(Effect.catchAllCause((cause) => Effect.logWarning("texts: hand-over failed", cause)))
    ).pipe(Effect.asVoid)

    // Reminders first, so that one found due goes out in the same pass.
    yield* jobs.register({ name: "texts.remind", run: yield* reminderTexts })
    yield* jobs.register({
      name: "texts.send",
      run: sendDue,
      next: sql`(select min(next_at) from texts where next_at is not null)`
    })

    /** A provider's report on a text: true when the text is known. */
    const report = fn("Texts.report")(function* (input: { providerId: string; status: string; error?: string }) {
      const outcome = statusOutcome(input.status)
      if (outcome === undefined) return true
      const reason = outcome === "failed" ? `${input.status}${input.error ? ` (error ${input.error})` : ""}` : null
      const rows = yield* store.reported(input.providerId, outcome, reason, yield* clock.now).pipe(Effect.orDie)
      return rows.length > 0
    })

    /** Whether a text Twilio delivered (by MessageSid) is new here: false for a retry of one already taken. */
    const received = fn("Texts.received")(function* (messageSid: string) {
      return yield* store.received(messageSid, yield* clock.now).pipe(Effect.orDie)
    })

    const optOut = fn("Texts.optOut")(function* (phone: string, keyword: string) {
      yield* store.optOut(phone, keyword, yield* clock.now).pipe(Effect.orDie)
    })
    const optIn = fn("Texts.optIn")(function* (phone: string) {
      yield* store.optIn(phone).pipe(Effect.orDie)
    })

    /** Texts to a number, newest first: for a newcomer or a test without Twilio (admin API), as /admin/v1/mail. */
    const sentTo = fn("Texts.sentTo")(function* (phone: string, limit = 50) {
      const rows = yield* store.sentTo(phone, limit).pipe(Effect.orDie)
      const out = yield* store.optOutOf(phone).pipe(Effect.orDie)
      return {
        data: rows.map(toSentText),
        opted_out: out === undefined ? null : { keyword: out.keyword, at: out.opted_out_at.toISOString() }
      }
    })

    return { enqueue, sendDue, handOver, report, received, optOut, optIn, sentTo, provider: texter.provider } as const
  })
}) {}
