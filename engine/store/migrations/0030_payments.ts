import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Online payments. orgs.payments: online (a priced booking gets a checkout) or offline. payment_checkouts: every
 * checkout opened at the processor for a booking. payments: the ledger of money that landed online, one row per
 * processor payment (payment_intent_id unique, so a payment lands once), with the refund of it: its amount, state
 * (pending: to take, taken: on its way, refunded, failed: for good), attempts and when it is next looked at.
 * processor_events: inbound events already handled, by the processor's event id.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    alter table orgs add column payments text not null default 'online' check (payments in ('online', 'offline'));
    create table payment_checkouts (
      id text primary key,
      org_id uuid not null references orgs(id),
      booking_id uuid not null references bookings(id),
      amount_cents integer not null check (amount_cents > 0),
      currency text not null,
      url text not null,
      expires_at timestamptz not null,
      status text not null default 'open' check (status in ('open', 'expiring', 'expired', 'complete')),
      created_at timestamptz not null
    );
    create index payment_checkouts_booking on payment_checkouts (booking_id);
    create index payment_checkouts_expiring on payment_checkouts (created_at) where status = 'expiring';
    create table payments (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      booking_id uuid not null references bookings(id),
      checkout_id text not null,
      payment_intent_id text not null unique,
      amount_cents integer not null check (amount_cents > 0),
      currency text not null,
      created_at timestamptz not null,
      refund_cents integer not null default 0 check (refund_cents >= 0 and refund_cents <= amount_cents),
      refund_state text check (refund_state in ('pending', 'taken', 'refunded', 'failed')),
      refund_id text,
      refund_attempts integer not null default 0,
      refund_next_at timestamptz,
      refund_error text,
      refunded_at timestamptz,
      refund_failed_at timestamptz
    );
    create index payments_booking on payments (booking_id);
    create index payments_refund_due on payments (refund_next_at) where refund_state in ('pending', 'taken');
    create index payments_refund_id on payments (refund_id);
    create table processor_events (
      id text primary key,
      type text not null,
      received_at timestamptz not null
    );
  `)
})
