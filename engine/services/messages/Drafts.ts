import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import { EngineClock } from "../../ports/Clock.ts"
import { Drafter, type DraftRequest } from "../../ports/Drafter.ts"
import {
  changeDraft,
  claimDrafts,
  conversationSubject,
  conversationUpTo,
  type DraftDueRow as DueRow,
  draftDone,
  insertDraft,
  nextDraftAt
} from "../../store/messages.ts"
import { transaction } from "../../store/transaction.ts"
import { traced } from "../../tracing.ts"
import { Events } from "../Events.ts"
import { Jobs } from "../Jobs.ts"

/** Rows taken per pass, how long a taken row is left alone, how much of the conversation the drafter sees. */
const BATCH = 10
const LEASE_MS = 2 * 60_000
const CONTEXT_MESSAGES = 20
/** Waits before the 2nd, 3rd, 4th and 5th tries; then the draft is given up (failed). */
const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000]

/**
 * message.drafted: when a drafter is configured, each message a guest writes (by email or on their page) gets a
 * reply drafted in the background. The draft is kept and announced; nothing is sent to the guest.
 */
export class Drafts extends Effect.Service<Drafts>()("Drafts", {
  dependencies: [Events.Default, Jobs.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events
    const jobs = yield* Jobs
    const drafter = yield* Drafter

    /** Asks for a draft of a reply to a guest's message; runs in the transaction that keeps the message. */
    const request = (input: { org_id: string; conversation_id: string; message_id: string }) =>
      drafter.enabled
        ? Effect.flatMap(clock.now, (now) =>
            insertDraft(sql, {
              id: randomUUID(),
              org_id: input.org_id,
              conversation_id: input.conversation_id,
              in_reply_to: input.message_id,
              created_at: now,
              next_at: now
            })
          )
        : Effect.void

    const claim = Effect.gen(function* () {
      const now = yield* clock.now
      return yield* claimDrafts(sql, now, new Date(now.getTime() + LEASE_MS), BATCH).pipe(transaction(sql))
    })

    /** What the drafter sees: the org, the booking, and the conversation up to the guest's message. */
    const requestOf = (row: DueRow) =>
      Effect.gen(function* () {
        const [about] = yield* sql<{
          org_name: string
          timezone: string
          locale: string
          guest_name: string | null
          erased: boolean
          reference: string | null
          offering: string | null
          starts_at: Date | null
          status: string | null
        }>`select g.name as org_name, g.timezone, g.locale, c.name as guest_name, c.erased_at is not null as erased,
            b.reference, o.name as offering, b.starts_at, b.status
          from conversations v join orgs g on g.id = v.org_id join customers c on c.id = v.customer_id
          left join bookings b on b.id = v.booking_id left join offerings o on o.id = b.offering_id
          where v.id = ${row.conversation_id}`
        if (about === undefined || about.erased) return undefined
        const messages = yield* conversationUpTo(sql, row.conversation_id, row.in_reply_to, CONTEXT_MESSAGES)
        const request: DraftRequest = {
          org: { name: about.org_name, timezone: about.timezone, locale: about.locale },
          booking:
            about.reference === null
              ? null
              : {
                  reference: about.reference,
                  offering: about.offering ?? "",
                  starts_at: about.starts_at?.toISOString() ?? null,
                  status: about.status ?? ""
                },
          guest: { name: about.guest_name },
          conversation: [...messages].reverse().map((m) => ({
            from: m.direction === "inbound" ? ("guest" as const) : ("business" as const),
            body: m.body,
            at: m.created_at.toISOString()
          }))
        }
        return request
      })

    const settle = (row: DueRow) =>
      Effect.gen(function* () {
        const request = yield* requestOf(row)
        if (request === undefined) {
          yield* changeDraft(sql, row.id, { status: "failed", error: "the guest was erased", next_at: null })
          return
        }
        const result = yield* Effect.either(drafter.draft(request))
        const now = yield* clock.now
        if (Either.isLeft(result)) {
          const failure = result.left
          const wait = BACKOFF_MS[row.attempts]
          const again = failure.retry && wait !== undefined
          yield* Effect.logWarning(
            `message draft ${row.id}: ${failure.reason}${again ? "; will try again" : "; given up"}`
          )
          yield* changeDraft(sql, row.id, {
            attempts: row.attempts + 1,
            error: failure.reason.slice(0, 500),
            status: again ? "pending" : "failed",
            next_at: again ? new Date(now.getTime() + wait) : null
          })
          return
        }
        yield* Effect.gen(function* () {
          const v = yield* conversationSubject(sql, row.conversation_id)
          if (!(yield* draftDone(sql, row, result.right, now))) return
          yield* events.append(row.org_id, [
            {
              type: "message.drafted",
              data: {
                id: row.id,
                in_reply_to: row.in_reply_to,
                booking_id: v.booking_id,
                customer_id: v.customer_id,
                channel: "email",
                body: result.right,
                created_at: now.toISOString()
              }
            }
          ])
        }).pipe(transaction(sql))
      })

    const run = Effect.gen(function* () {
      if (!drafter.enabled) return
      const rows = yield* claim
      yield* Effect.forEach(rows, (row) => settle(row), { concurrency: 4, discard: true })
    }).pipe(Effect.orDie, traced("Drafts.run"))

    if (drafter.enabled) {
      yield* jobs.register({
        name: "messages.drafts",
        run,
        next: nextDraftAt(sql)
      })
    }

    return { request, run } as const
  })
}) {}
