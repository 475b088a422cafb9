import type { SqlClient } from "@effect/sql"

/**
 * The tenancy check of a lookup by id: `(<column> = <org>) is true`. It keeps the same rows as `<column> = <org>`, but
 * no index can serve it, so the lookup always goes through the id's primary key. Written plainly, an index that leads
 * with the org (an org's listing, its unique references) matches it too. For an org the planner's statistics put at
 * about one row (new since the last ANALYZE, or grown past it) such an index costs the planner the same as the key,
 * and when it wins the lookup reads every entry of the org (bench/README.md, 2026-11-27).
 */
export const ofOrg = (sql: SqlClient.SqlClient, column: string, orgId: string) =>
  sql`(${sql(column)} = ${orgId}::uuid) is true`
