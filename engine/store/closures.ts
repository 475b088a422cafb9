import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { ClosureSpan, OpenHours } from "../availability/closures.ts"

/**
 * Table `closures`: the dates an org, or one of its offerings, is closed (or open other hours). This store is its only
 * writer; availability and the booking path read the closures over a time through `closuresOver`.
 */

export interface ClosureRow extends ClosureSpan {
  readonly org_id: string
  readonly offering_id: string | null
  readonly starts_at: Date
  readonly ends_at: Date
  readonly created_at: Date
}

const columns = (sql: SqlClient.SqlClient) =>
  sql`id, org_id, offering_id, to_char(starts_on, 'YYYY-MM-DD') as starts_on, to_char(ends_on, 'YYYY-MM-DD') as ends_on,
    open_hours, note, starts_at, ends_at, created_at`

const parsed = (row: ClosureRow): ClosureRow => ({
  ...row,
  open_hours:
    typeof row.open_hours === "string" ? (JSON.parse(row.open_hours) as ReadonlyArray<OpenHours>) : row.open_hours
})

/** The org's closure by id. */
export const closureById = (sql: SqlClient.SqlClient, orgId: string, id: string) =>
  sql<ClosureRow>`select ${columns(sql)} from closures where org_id = ${orgId} and id = ${id}`.pipe(
    Effect.map((rows) => (rows[0] === undefined ? undefined : parsed(rows[0])))
  )

/** The org's closures (of one offering and the org's own, when told) whose dates meet [from, to], by date. */
export const closuresOf = (
  sql: SqlClient.SqlClient,
  orgId: string,
  query: {
    readonly offering_id?: string | undefined
    readonly from?: string | undefined
    readonly to?: string | undefined
  }
) =>
  sql<ClosureRow>`select ${columns(sql)} from closures where org_id = ${orgId}
    ${query.offering_id === undefined ? sql`` : sql`and (offering_id is null or offering_id = ${query.offering_id})`}
    ${query.from === undefined ? sql`` : sql`and ends_on >= ${query.from}::date`}
    ${query.to === undefined ? sql`` : sql`and starts_on <= ${query.to}::date`}
    order by starts_on, created_at, id limit 1000`.pipe(Effect.map((rows) => rows.map(parsed)))

/**
 * The closures over [start, end) that apply to an offering (its own and its org's), found by the instants of their
 * spans; `offeringId` alone names the org too.
 */
export const closuresOver = (sql: SqlClient.SqlClient, offeringId: string, start: Date, end: Date) =>
  sql<ClosureRow>`select ${columns(sql)} from closures
    where org_id = (select org_id from offerings where id = ${offeringId})
      and (offering_id is null or offering_id = ${offeringId}) and starts_at < ${end} and ends_at > ${start}
    order by starts_on, created_at, id`.pipe(Effect.map((rows) => rows.map(parsed)))

/** A new closure. */
export const insertClosure = (sql: SqlClient.SqlClient, row: ClosureRow) =>
  sql`insert into closures ${sql.insert({ ...row, open_hours: JSON.stringify(row.open_hours) })}`.pipe(Effect.asVoid)

/** Deleted for good; answers the closure as it was, if the org had it. */
export const deleteClosure = (sql: SqlClient.SqlClient, orgId: string, id: string) =>
  sql<ClosureRow>`delete from closures where org_id = ${orgId} and id = ${id} returning ${columns(sql)}`.pipe(
    Effect.map((rows) => (rows[0] === undefined ? undefined : parsed(rows[0])))
  )
