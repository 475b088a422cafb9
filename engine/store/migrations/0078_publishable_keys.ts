import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Publishable keys (pk_…, safe in a web page, for the public booking surface only) and the origins allowed to use them. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    alter table api_keys add column kind text not null default 'secret' check (kind in ('secret', 'publishable'));
    alter table orgs add column allowed_origins text[] not null default '{}';
  `)
})
