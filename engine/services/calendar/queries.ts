import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { SeriesRow } from "./rows.ts"
import { toEntry } from "./rows.ts"

/** Row queries shared by the calendar services. Every one is scoped by org. */
export const calendarQueries = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const teacherJoin = (alias: string) => sql.unsafe(`left join members m on m.user_id = ${alias}.teacher_id`)

  const seriesOf = (orgId: string, offeringId: string) =>
    sql<SeriesRow>`select x.*, m.name as teacher_name, m.email as teacher_email
      from series x ${teacherJoin("x")}
      where x.org_id = ${orgId} and x.offering_id = ${offeringId} and x.deleted_at is null order by x.starts_on, x.created_at`

  const oneSeries = (orgId: string, id: string, lock: boolean) =>
    sql<SeriesRow>`select x.*, m.name as teacher_name, m.email as teacher_email
      from series x ${teacherJoin("x")}
      where x.org_id = ${orgId} and x.id = ${id}::uuid and x.deleted_at is null ${lock ? sql`for update of x` : sql``}`

  const entries = (orgId: string, offeringId: string) =>
    Effect.map(seriesOf(orgId, offeringId), (rows) => rows.map(toEntry))

  return { seriesOf, oneSeries, entries, teacherJoin } as const
})
