import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * API keys belong to a team member and carry their role (a key with no member is an owner key, as the admin API
 * makes); a name says what a key is for. The embedded database's holder is recorded so the CLI can refuse to write
 * behind a running server's back.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    alter table api_keys add column name text;
    alter table api_keys add column user_id uuid references members(user_id) on delete cascade;
    create index api_keys_user on api_keys (user_id) where user_id is not null;
  `)
})
