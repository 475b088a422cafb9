import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Who made each change (docs/events.md, "Who did it"): the actor of an event, written with it from the request that
 * made it (a person, an API key, a guest, or the system). Null on the events written before; adding a nullable column
 * without a default rewrites no row.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`alter table events add column actor jsonb;`)
})
