import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Table `demo_site`: the /demo page's org and publishable key (one row), made on a newcomer's first start. This store
 * is its only writer.
 */

/** The demo page's org and key, kept for the page (app/demo.ts makes them once). */
export const rememberDemo = (sql: SqlClient.SqlClient, orgId: string, publishableKey: string) =>
  sql`insert into demo_site (org_id, publishable_key) values (${orgId}, ${publishableKey})`.pipe(Effect.asVoid)

/** The demo site's publishable key, if there is one. */
export const demoKey = (sql: SqlClient.SqlClient) =>
  sql<{ publishable_key: string }>`select publishable_key from demo_site where id = 1`.pipe(
    Effect.map((rows) => rows[0]?.publishable_key),
    Effect.orDie
  )

/** The email of the demo org's first owner still in it, if there is a demo org. */
export const demoOwnerEmail = (sql: SqlClient.SqlClient) =>
  sql<{ email: string }>`select m.email from demo_site d join members m on m.org_id = d.org_id
      where m.role = 'owner' and m.removed_at is null order by m.created_at limit 1`.pipe(
    Effect.map((rows) => rows[0]?.email)
  )
