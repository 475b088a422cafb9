import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The /demo page's org and publishable key (safe in a web page), made on a newcomer's first start. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table demo_site (
      id integer primary key default 1 check (id = 1),
      org_id uuid not null references orgs(id),
      publishable_key text not null
    );
  `)
})
