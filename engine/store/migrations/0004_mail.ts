import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table mail_outbox (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      to_address text not null,
      subject text not null,
      body text not null,
      reply_to text,
      kind text not null,
      booking_id uuid,
      created_at timestamptz not null,
      sent_at timestamptz,
      failed_at timestamptz,
      attempts integer not null default 0,
      next_at timestamptz,
      last_error text
    );
    create index mail_outbox_due on mail_outbox (next_at) where sent_at is null and failed_at is null;
    create index mail_outbox_org_to on mail_outbox (org_id, lower(to_address));
    create index mail_outbox_booking on mail_outbox (booking_id) where booking_id is not null;
  `)
})
