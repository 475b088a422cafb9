import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The built-in sandbox processor's own state: its checkouts, and its refunds (settled a moment later by a job). */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table sandbox_checkouts (
      id text primary key,
      org_id uuid not null,
      booking_id uuid not null,
      amount_cents integer not null,
      currency text not null,
      description text not null,
      starts_at timestamptz,
      expires_at timestamptz not null,
      status text not null default 'open' check (status in ('open', 'complete', 'expired')),
      payment_intent_id text unique,
      card_last4 text,
      declines integer not null default 0,
      created_at timestamptz not null
    );
    create table sandbox_refunds (
      id text primary key,
      payment_intent_id text not null,
      amount_cents integer not null check (amount_cents > 0),
      idempotency_key text not null unique,
      status text not null check (status in ('pending', 'succeeded', 'failed')),
      failure_reason text,
      due_at timestamptz not null,
      created_at timestamptz not null
    );
    create index sandbox_refunds_due on sandbox_refunds (due_at) where status = 'pending';
  `)
})
