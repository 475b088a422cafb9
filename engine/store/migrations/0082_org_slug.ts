import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** An org's public slug: the address of its assistant booking channel (/api/mcp/book/{slug}). */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    alter table orgs add column slug text unique check (slug ~ '^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$');
  `)
})
