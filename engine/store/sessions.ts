import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { errorOf } from "../errors/index.ts"
import type { Accepted } from "../machines/decide.ts"
import {
  decideSession,
  type Guests,
  type SessionRow as MachineRow,
  type SessionContext,
  type SessionEvent,
  type SessionState,
  type sessionMachine,
  startSession
} from "../machines/session.ts"
import type { LocalDate } from "../time/local.ts"
import type { Repeat } from "../time/recurrence.ts"

// The store of `sessions` and `series` (a calendar's times and the entries that make them): the only code that
// writes them. A time's lifecycle columns change only through the session machine, and `columnsOf` is the one
// place they are derived from its result.

export type StoredSessionState = Exclude<SessionState, "new">

/** What the session machine decides of a `sessions` row. */
export interface SessionLife {
  readonly id: string
  readonly state: StoredSessionState
  readonly starts_at: Date
  readonly ends_at: Date
  readonly series_id: string | null
  readonly cancel_guests: Guests | null
  readonly cancel_note: string | null
  readonly cancelled_at: Date | null
}

type LifeColumns = Omit<SessionLife, "id" | "series_id">

/** The columns of a machine state: the one derivation of a time's row from the session machine. */
export const columnsOf = (state: SessionState, context: SessionContext): LifeColumns => ({
  // "new" is transient: start() leaves it at once, so a row is never in it.
  state: state === "new" ? "scheduled" : state,
  starts_at: new Date(context.starts_at),
  ends_at: new Date(context.ends_at),
  cancel_guests: context.guests,
  cancel_note: context.note,
  cancelled_at: context.cancelled_at === null ? null : new Date(context.cancelled_at)
})

/** The machine's row restored from the table's columns. */
export const machineRow = (r: Omit<SessionLife, "id">): MachineRow => ({
  value: r.state,
  context: {
    starts_at: r.starts_at.toISOString(),
    ends_at: r.ends_at.toISOString(),
    series_id: r.series_id,
    cancelled_at: r.cancelled_at?.toISOString() ?? null,
    guests: r.cancel_guests,
    note: r.cancel_note
  }
})

const same = (a: unknown, b: unknown) =>
  a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b

/** The lifecycle columns the machine's result changed on the row (none: it stays as it is). */
const changedBy = (row: SessionLife, accepted: Accepted<typeof sessionMachine>): Partial<LifeColumns> => {
  const before = columnsOf(row.state, machineRow(row).context)
  const after = columnsOf(accepted.state, accepted.context)
  return Object.fromEntries(Object.entries(after).filter(([k, v]) => !same(before[k as keyof LifeColumns], v)))
}

/** Columns of a time that no machine decides. */
export type SessionPatch = {
  readonly teacher_id?: string | null
  readonly capacity?: number | null
}

export interface TimeBase {
  readonly org_id: string
  readonly offering_id: string
  readonly series_id: string | null
  readonly capacity: number | null
  readonly teacher_id: string | null
}

export interface NewTime {
  readonly occurs_on: LocalDate
  readonly starts_at: Date
  readonly ends_at: Date
}

/** The columns of a `series` row an entry's create and update set. */
export type SeriesColumns = {
  readonly starts_on: LocalDate
  readonly start_time: string | null
  readonly end_time: string | null
  readonly span_days: number
  readonly repeat: Repeat
  readonly ends_on: LocalDate | null
  readonly capacity: number | null
  readonly teacher_id: string | null
  readonly made_until: LocalDate
}

export const sessionStore = (sql: SqlClient.SqlClient) => {
  /** New times, each as the machine starts it; a series' time already made for its day is kept, not repeated. */
  const insertTimes = (base: TimeBase, times: ReadonlyArray<NewTime>, at: Date) =>
    times.length === 0
      ? Effect.succeed([] as ReadonlyArray<{ readonly id: string }>)
      : sql<{ readonly id: string }>`insert into sessions ${sql.insert(
          times.map((t) => {
            const started = startSession({
              starts_at: t.starts_at.toISOString(),
              ends_at: t.ends_at.toISOString(),
              series_id: base.series_id
            })
            return {
              id: crypto.randomUUID(),
              ...base,
              occurs_on: base.series_id === null ? null : t.occurs_on,
              ...columnsOf(started.state, started.context),
              created_at: at
            }
          })
        )} on conflict do nothing returning *`

  /**
   * Writes what an accepted result changed on the row. With `patch` (an update of the time) the row is written, its
   * updated_at too, even when the machine changed nothing; without, a result that changes nothing writes nothing.
   */
  const persist = (row: SessionLife, accepted: Accepted<typeof sessionMachine>, now: Date, patch?: SessionPatch) => {
    const columns = { ...changedBy(row, accepted), ...patch }
    return patch === undefined && Object.keys(columns).length === 0
      ? Effect.void
      : sql`update sessions set ${sql.update({ ...columns, updated_at: now })} where id = ${row.id}`.pipe(Effect.asVoid)
  }

  /** One machine event on a locked row: refused is 409 with the machine's code; accepted is written (persist). */
  const apply = (row: SessionLife, event: SessionEvent, now: Date, patch?: SessionPatch) =>
    Effect.gen(function* () {
      const decided = decideSession(machineRow(row), event)
      if (!decided.ok) return yield* errorOf(decided.code, decided.message)
      yield* persist(row, decided, now, patch)
      return decided
    })

  /**
   * The same event on many locked rows (a series' times): those the machine refuses stay as they are; those it
   * accepts are written, one statement for each set of changes (one, for the same event on like rows).
   */
  const applyAll = (rows: ReadonlyArray<SessionLife>, event: SessionEvent, now: Date) =>
    Effect.gen(function* () {
      const groups = new Map<string, { columns: Partial<LifeColumns>; ids: Array<string> }>()
      for (const row of rows) {
        const decided = decideSession(machineRow(row), event)
        if (!decided.ok) continue
        const columns = changedBy(row, decided)
        if (Object.keys(columns).length === 0) continue
        const key = JSON.stringify(columns)
        const group = groups.get(key) ?? { columns, ids: [] }
        group.ids.push(row.id)
        groups.set(key, group)
      }
      for (const { columns, ids } of groups.values()) {
        yield* sql`update sessions set ${sql.update({ ...columns, updated_at: now })} where id in ${sql.in(ids)}`
      }
    })

  /** Columns no machine decides (teacher, capacity) of one time. */
  const patch = (id: string, columns: SessionPatch, now: Date) =>
    sql`update sessions set ${sql.update({ ...columns, updated_at: now })} where id = ${id}`.pipe(Effect.asVoid)

  /** A series' teacher or capacity reaches its times still to come. */
  const patchFuture = (seriesId: string, columns: SessionPatch, now: Date) =>
    sql`update sessions set ${sql.update({ ...columns, updated_at: now })}
      where series_id = ${seriesId} and starts_at > ${now} and state <> 'removed'`.pipe(Effect.asVoid)

  /** A member left the team: their times and entries keep no teacher. */
  const clearTeacher = (userId: string) =>
    Effect.gen(function* () {
      yield* sql`update sessions set teacher_id = null where teacher_id = ${userId}`
      yield* sql`update series set teacher_id = null where teacher_id = ${userId}`
    })

  const insertSeries = (
    row: SeriesColumns & {
      readonly id: string
      readonly org_id: string
      readonly offering_id: string
      readonly created_at: Date
    }
  ) => sql`insert into series ${sql.insert(row)}`.pipe(Effect.asVoid)

  const updateSeries = (id: string, columns: SeriesColumns, now: Date) =>
    sql`update series set ${sql.update({ ...columns, updated_at: now })} where id = ${id}`.pipe(Effect.asVoid)

  /** An entry's times are made through `until` (the repeat job). */
  const madeUntil = (id: string, until: LocalDate) =>
    sql`update series set made_until = ${until} where id = ${id}`.pipe(Effect.asVoid)

  /** An entry is deleted: it stays on record, as do its times. */
  const deleteSeries = (id: string, now: Date) =>
    sql`update series set deleted_at = ${now} where id = ${id}`.pipe(Effect.asVoid)

  return {
    insertTimes,
    persist,
    apply,
    applyAll,
    patch,
    patchFuture,
    clearTeacher,
    insertSeries,
    updateSeries,
    madeUntil,
    deleteSeries
  } as const
}

export type SessionStore = ReturnType<typeof sessionStore>
