import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The engine's hosted booking page (/book?offering_id=…, the waitlist mail's link) embeds the widget with a
 * publishable key the engine makes for the org and keeps here (publishable keys are safe in a web page); and a
 * token per waitlist entry for the guest's "leave the waitlist" link.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table hosted_pages (
      org_id uuid primary key references orgs(id),
      publishable_key text not null
    );
    alter table waitlist_entries add column leave_token text unique;
  `)
})
