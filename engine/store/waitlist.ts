import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Table `waitlist_entries`: guests waiting for a full calendar time, until they book, leave, are removed, or the time
 * is called off or closes. This store is its only writer.
 */

export type EndReason = "removed" | "left" | "booked" | "called_off" | "closed"

/** An entry with its time's start and its guest's name and email, as lists show it. */
export interface EntryRow {
  readonly id: string
  readonly offering_id: string
  readonly session_id: string
  readonly starts_at: Date
  readonly customer_id: string
  readonly c_name: string | null
  readonly c_email: string | null
  readonly places: number
  readonly created_at: Date
  readonly told_at: Date | null
  readonly ended_at: Date | null
  readonly end_reason: EndReason | null
}

/** A live entry with its guest's address, as the notices need it. */
export interface LiveEntry {
  readonly id: string
  readonly org_id: string
  readonly session_id: string
  readonly offering_id: string
  readonly customer_id: string
  readonly places: number
  readonly email: string | null
  readonly name: string | null
  readonly leave_token?: string | null
}

export interface NewEntry {
  readonly id: string
  readonly org_id: string
  readonly offering_id: string
  readonly session_id: string
  readonly customer_id: string
  readonly places: number
  readonly created_at: Date
  readonly leave_token: string
}

/** Which entries: those given, or all of a time, or all of an offering. */
export type EntryScope =
  | { readonly ids: ReadonlyArray<string> }
  | { readonly session_id: string }
  | { readonly offering_id: string }

/** Entries with their time and guest, in the order they joined. */
export const entryRows = (sql: SqlClient.SqlClient, where: ReturnType<SqlClient.SqlClient["and"]>) =>
  sql<EntryRow>`select e.*, s.starts_at, c.name as c_name, c.email as c_email
    from waitlist_entries e join sessions s on s.id = e.session_id join customers c on c.id = e.customer_id
    where ${where} order by e.seq`

/**
 * One statement: a new entry, or the guest's live one with the places they now ask for (the unique index
 * waitlist_live orders two joins of one guest at once).
 */
export const joinEntry = (sql: SqlClient.SqlClient, entry: NewEntry) =>
  sql<{ id: string; places: number; created_at: Date; told_at: Date | null }>`
    insert into waitlist_entries ${sql.insert({ ...entry })}
    on conflict (session_id, customer_id) where ended_at is null do update set places = excluded.places, updated_at = excluded.created_at
    returning id, places, created_at, told_at`.pipe(Effect.map((rows) => rows[0]))

/** The entry of a "leave the waitlist" link, with its time, offering and org's zone. */
export const entryByToken = (sql: SqlClient.SqlClient, token: string) =>
  sql<{
    id: string
    org_id: string
    ended_at: Date | null
    end_reason: string | null
    starts_at: Date
    name: string
    timezone: string
  }>`
    select e.id, e.org_id, e.ended_at, e.end_reason, s.starts_at, o.name, g.timezone from waitlist_entries e
    join sessions s on s.id = e.session_id join offerings o on o.id = e.offering_id join orgs g on g.id = e.org_id
    where e.leave_token = ${token}`.pipe(Effect.map((rows) => rows[0]))

/** The guest's live entry for a time, if they wait for it. */
export const liveEntryOf = (sql: SqlClient.SqlClient, sessionId: string | null, customerId: string) =>
  sql<{ id: string }>`select id from waitlist_entries
    where session_id = ${sessionId} and customer_id = ${customerId} and ended_at is null`.pipe(
    Effect.map((rows) => rows[0]?.id)
  )

/** Ends the live entries of the scope with a reason; answers them with their guest, time and offering's name. */
export const endLive = (sql: SqlClient.SqlClient, where: EntryScope, reason: EndReason, now: Date) => {
  const scope =
    "ids" in where
      ? sql`e.id in ${sql.in([...where.ids])}`
      : "session_id" in where
        ? sql`e.session_id = ${where.session_id}`
        : sql`e.offering_id = ${where.offering_id}`
  return sql<LiveEntry & { starts_at: Date; offering_name: string }>`
    update waitlist_entries e set ended_at = ${now}, end_reason = ${reason}, updated_at = ${now}
    from customers c, sessions s, offerings o
    where ${scope} and e.ended_at is null and c.id = e.customer_id and s.id = e.session_id and o.id = e.offering_id
    returning e.*, c.email, c.name, s.starts_at, o.name as offering_name`
}

/**
 * Marks told the live entries of a time whose party fits in `remaining` places (any party at an appointment, which
 * takes one) and who were not told since the time last took a booking; answers them with their guest.
 */
export const tellFitting = (
  sql: SqlClient.SqlClient,
  sessionId: string,
  remaining: number,
  appointment: boolean,
  now: Date
) => {
  const fits = appointment ? sql`1 <= ${remaining}` : sql`e.places <= ${remaining}`
  return sql<LiveEntry>`
    update waitlist_entries e set told_at = ${now}
    from customers c
    where e.session_id = ${sessionId} and e.ended_at is null and c.id = e.customer_id and ${fits}
      and (e.told_at is null or e.told_at < coalesce((select max(b.created_at) from bookings b where b.session_id = ${sessionId}), '-infinity'::timestamptz))
    returning e.*, c.email, c.name`
}

/** Times to come of an offering or a series, still scheduled, that someone waits for, soonest first. */
export const timesWaitedFor = (
  sql: SqlClient.SqlClient,
  where: { readonly offering_id: string } | { readonly series_id: string },
  now: Date
) => {
  const scope =
    "offering_id" in where ? sql`s.offering_id = ${where.offering_id}` : sql`s.series_id = ${where.series_id}`
  return sql<{ id: string }>`
    select s.id from sessions s
    where ${scope} and s.starts_at > ${now} and s.state = 'scheduled'
      and exists (select 1 from waitlist_entries e where e.session_id = s.id and e.ended_at is null)
    order by s.starts_at`
}
