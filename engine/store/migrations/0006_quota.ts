import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table booking_quota (
      org_id uuid not null references orgs(id),
      month text not null,
      used integer not null check (used >= 0),
      primary key (org_id, month)
    );
  `)
})
