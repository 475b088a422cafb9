import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Guest mail rendered when sent: the outbox keeps its facts; the org gets a language and its own templates. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    alter table mail_outbox add column html text, add column vars jsonb;
    alter table orgs add column locale text not null default 'en', add column mail_templates jsonb not null default '{}'::jsonb;
  `)
})
