import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * reports.revenue reads an org's bookings by the instant they were made; reports.occupancy its times by start;
 * reports.waitlist its entries by when they joined.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create index bookings_org_created on bookings (org_id, created_at) where confirmed_at is not null;
    create index sessions_org_start on sessions (org_id, starts_at) where state = 'scheduled';
    create index waitlist_org_created on waitlist_entries (org_id, created_at);
  `)
})
