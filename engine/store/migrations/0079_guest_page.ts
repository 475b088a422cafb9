import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The guest page: the org's rule for how late a guest may cancel or move on their page (hours before the start;
 * null: never by themselves), kept on each booking as it is made; and messages a guest writes on their page.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    alter table orgs add column guest_cancel_hours integer default 24 check (guest_cancel_hours between 0 and 8760);
    alter table messages drop constraint messages_channel_check;
    alter table messages add constraint messages_channel_check check (channel in ('email', 'system', 'page'));
  `)
})
