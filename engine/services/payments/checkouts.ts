import type { SqlClient } from "@effect/sql"

/**
 * A booking stopped needing its open checkouts (it left its hold, confirmed or cancelled, or the hold lapsed): they are
 * marked `expiring` in the caller's transaction, and the payments.expire_checkouts job expires them at the processor
 * after the commit. A payment that still lands on one is a late payment (Payments.landed).
 */
export const closeCheckouts = (sql: SqlClient.SqlClient, bookingId: string) =>
  sql`update payment_checkouts set status = 'expiring' where booking_id = ${bookingId} and status = 'open'`
