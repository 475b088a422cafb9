import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The index that lists an org's customers can no longer serve a lookup by email. A booking finds its guest by
 * (org, lower(email)), which customers_org_email answers with one entry. customers_org (org_id, created_at) matched
 * the org half of that lookup too, and when the statistics said an org had about one customer (a new org, or one that
 * grew since the last ANALYZE), Postgres chose it and read every customer of the org, on each booking: measured at
 * 2,900 rows per booking (1.1 million in one 3-second round) for an org with 2,900 customers, so each booking cost
 * more as the org gained guests. The listing index is now partial on a condition that only the listing states
 * (`created_at < 'infinity'`, true of every row), so the planner cannot use it for a lookup by email; the listing
 * (org, not erased, by created_at then id) reads it in order, as before.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create index customers_listed on customers (org_id, created_at, id) where erased_at is null and created_at < 'infinity';
    drop index customers_org;
  `)
})
