import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Waiver signatures, one per person, kept on the booking they sign for (so a booking reads with them, no join):
 * [{id, name, for, version, signed_at}], in the order they were signed. waiver_signed counts them.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    alter table bookings add column waiver_signatures jsonb not null default '[]'::jsonb;
    alter table bookings add constraint waiver_signed_within check (waiver_needed is null or waiver_signed <= waiver_needed);
  `)
})
