import { randomUUID } from "node:crypto"
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { type EndReason, type EntryScope, endLive, tellFitting, timesWaitedFor } from "../../store/waitlist.ts"
import type { NewEvent } from "../Events.ts"
import { insertMail } from "../mail/outbox.ts"

/** Guest mail without the rendered templates: plain facts, written beside the change that causes it. */
const mailRow = (orgId: string, to: string, kind: string, subject: string, body: string, now: Date) => ({
  id: randomUUID(),
  org_id: orgId,
  to_address: to,
  subject,
  body,
  kind,
  created_at: now,
  attempts: 0,
  next_at: now
})

/** Ends live entries (all of a time, or those given) with a reason: waitlist.left for each; `closed` ones are emailed. */
export const endEntries = (sql: SqlClient.SqlClient, where: EntryScope, reason: EndReason, now: Date) =>
  Effect.gen(function* () {
    const ended = yield* endLive(sql, where, reason, now)
    for (const e of ended) {
      if (reason === "closed" && e.email !== null) {
        yield* insertMail(
          sql,
          mailRow(
            e.org_id,
            e.email,
            "waitlist.closed",
            `The waitlist for ${e.offering_name} has closed`,
            `The waitlist for ${e.offering_name} at ${e.starts_at.toISOString()} has closed: you are no longer waiting for a place.`,
            now
          )
        )
      }
    }
    return ended.map((e): NewEvent & { org: string } => ({
      org: e.org_id,
      type: "waitlist.left",
      data: {
        id: e.id,
        session_id: e.session_id,
        offering_id: e.offering_id,
        customer_id: e.customer_id,
        places: e.places,
        reason
      }
    }))
  })

/**
 * Places opened at a time (a cancel, a lapsed hold, a move away, more capacity): everyone waiting whose party now fits, and who was
 * not told since the time last took a booking, is emailed at once, in one waitlist.opened. A cancelled time ends its
 * entries (called_off) instead. Runs in the transaction that freed the places; returns the events to append.
 */
export const openings = (sql: SqlClient.SqlClient, sessionId: string, now: Date, publicUrl: string) =>
  Effect.gen(function* () {
    const [t] = yield* sql<{
      id: string
      org_id: string
      offering_id: string
      starts_at: Date
      state: string
      cap: number
      booked: number
      kind: string
      name: string
      waitlist_enabled: boolean
    }>`select s.id, s.org_id, s.offering_id, s.starts_at, s.state, s.cap, s.booked, o.kind, o.name, o.waitlist_enabled
      from sessions s join offerings o on o.id = s.offering_id where s.id = ${sessionId}`
    if (t === undefined) return [] as ReadonlyArray<NewEvent & { org: string }>
    if (t.state !== "scheduled") return yield* endEntries(sql, { session_id: sessionId }, "called_off", now)
    const remaining = t.cap - t.booked
    if (!t.waitlist_enabled || remaining <= 0) return []
    const told = yield* tellFitting(sql, sessionId, remaining, t.kind === "appointment", now)
    if (told.length === 0) return []
    const link = `${publicUrl}/book?offering_id=${t.offering_id}&session_id=${sessionId}`
    for (const e of told) {
      if (e.email === null) continue
      yield* insertMail(
        sql,
        mailRow(
          t.org_id,
          e.email,
          "waitlist.opened",
          `A place opened: ${t.name}`,
          `${remaining} place(s) opened for ${t.name} at ${t.starts_at.toISOString()}. Whoever books first gets them: ${link}` +
            (e.leave_token ? `\n\nNot interested any more? Leave the waitlist: ${publicUrl}/wl/${e.leave_token}` : ""),
          now
        )
      )
    }
    return [
      {
        org: t.org_id,
        type: "waitlist.opened",
        data: {
          session_id: sessionId,
          offering_id: t.offering_id,
          starts_at: t.starts_at.toISOString(),
          remaining,
          told: told.length,
          entry_ids: told.map((e) => e.id)
        }
      }
    ]
  })

/**
 * Capacity changed on an offering or a series: each of its times to come that someone waits for is checked as if
 * places had opened there (a time that gained none tells nobody; an entry told since the time last took a booking is
 * not told again). Runs in the transaction that changed the capacity, after the change.
 */
export const openingsWhere = (
  sql: SqlClient.SqlClient,
  where: { offering_id: string } | { series_id: string },
  now: Date,
  publicUrl: string
) =>
  Effect.gen(function* () {
    const times = yield* timesWaitedFor(sql, where, now)
    const out: Array<NewEvent & { org: string }> = []
    for (const t of times) out.push(...(yield* openings(sql, t.id, now, publicUrl)))
    return out
  })
