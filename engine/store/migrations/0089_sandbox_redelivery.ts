import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The sandbox delivers a payment's or a refund's event again, as Stripe retries a webhook, until the engine has taken
 * it: a crash between the sandbox changing and the engine receiving its event no longer loses a payment, nor leaves a
 * settled refund waiting for the engine's hourly look.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    alter table sandbox_checkouts add column event_due_at timestamptz, add column event_attempts integer not null default 0;
    create index sandbox_checkouts_event_due on sandbox_checkouts (event_due_at) where event_due_at is not null;
    alter table sandbox_refunds add column event_due_at timestamptz, add column event_attempts integer not null default 0;
    create index sandbox_refunds_event_due on sandbox_refunds (event_due_at) where event_due_at is not null;
  `)
})
