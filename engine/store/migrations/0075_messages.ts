import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Two-way messages with a guest: a conversation per guest and booking (or per guest alone), with its own reply
 * address reply+<reply_token>@<domain>; each message out or in, by email or from the system, with its delivery.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table conversations (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      customer_id uuid not null references customers(id),
      booking_id uuid references bookings(id),
      reply_token text not null unique,
      created_at timestamptz not null
    );
    create unique index conversations_key on conversations (org_id, customer_id, coalesce(booking_id, '00000000-0000-0000-0000-000000000000'::uuid));
    create table messages (
      id uuid primary key,
      seq bigint generated always as identity,
      org_id uuid not null references orgs(id),
      conversation_id uuid not null references conversations(id),
      booking_id uuid,
      customer_id uuid not null,
      direction text not null check (direction in ('outbound', 'inbound')),
      channel text not null check (channel in ('email', 'system')),
      body text not null,
      mail_id uuid,
      created_at timestamptz not null,
      delivered_at timestamptz,
      failed_at timestamptz,
      failure_reason text
    );
    create index messages_conversation on messages (conversation_id, seq);
    create index messages_mail on messages (mail_id) where mail_id is not null;
    alter table orgs add column auto_acknowledge boolean not null default false, add column reply_to_domain text;
  `)
})
