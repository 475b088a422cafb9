import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Whether the database answers a trivial statement (readiness); fails as the statement does. */
export const databaseAnswers = (sql: SqlClient.SqlClient) => sql`select 1`.pipe(Effect.asVoid)

/** The demo site's publishable key (table `demo_site`, one row, written by its migration), if there is one. */
export const demoKey = (sql: SqlClient.SqlClient) =>
  sql<{ publishable_key: string }>`select publishable_key from demo_site where id = 1`.pipe(
    Effect.map((rows) => rows[0]?.publishable_key),
    Effect.orDie
  )
