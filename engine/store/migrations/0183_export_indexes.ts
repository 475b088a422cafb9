import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * exports.payments reads an org's payments in the order they landed, and their refunds in the order they were
 * settled (a refund on its way by its payment's time), keyset-paged on the time and the payment's id.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create index payments_org_created on payments (org_id, created_at, id);
    create index payments_org_refund_at on payments (org_id, (coalesce(refunded_at, refund_failed_at, created_at)), id)
      where refund_state is not null and refund_cents > 0;
  `)
})
