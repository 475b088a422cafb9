import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Request counts per credential and minute, shared by every instance (each takes a share of a window at a time). */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table rate_windows (
      key text not null,
      window_start timestamptz not null,
      count integer not null,
      primary key (key, window_start)
    );
  `)
})
