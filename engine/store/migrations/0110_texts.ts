import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Text messages (SMS). `texts` is the outbox and the log at once, like mail_outbox: each text to a phone (a message, or
 * a booking's confirmation, reminder or call-off) with its segments, its provider's id once sent, and when it was
 * delivered or failed and why; a text that may not go out (the guest replied STOP) is written failed at once, so the
 * business sees why. `text_optouts` holds the numbers that replied STOP (or a synonym) until they reply START: the
 * sender number is the deployment's, so an opt-out holds for every org. Messages gain the text they went as and its
 * segments; orgs their own phone, the channel they prefer for messages, and which booking mails also go as texts.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table texts (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      to_phone text not null,
      body text not null,
      kind text not null,
      booking_id uuid,
      segments integer not null,
      encoding text not null,
      created_at timestamptz not null,
      next_at timestamptz,
      attempts integer not null default 0,
      sent_at timestamptz,
      delivered_at timestamptz,
      failed_at timestamptz,
      failure_reason text,
      provider_id text
    );
    create index texts_due on texts (next_at) where next_at is not null;
    create index texts_to on texts (to_phone, created_at desc);
    create unique index texts_provider on texts (provider_id) where provider_id is not null;
    create unique index texts_reminder on texts (booking_id) where kind = 'booking.reminder';
    create table text_optouts (
      phone text primary key,
      keyword text not null,
      opted_out_at timestamptz not null
    );
    alter table messages add column text_id uuid, add column segments integer;
    create index messages_text on messages (text_id) where text_id is not null;
    alter table messages drop constraint messages_channel_check;
    alter table messages add constraint messages_channel_check check (channel in ('email', 'system', 'page', 'text'));
    alter table orgs add column phone text,
      add column preferred_channel text not null default 'email' check (preferred_channel in ('email', 'text')),
      add column text_kinds text[] not null default '{}',
      add column reminder_hours integer not null default 24 check (reminder_hours between 1 and 168);
    create index customers_phone on customers (org_id, phone) where phone is not null and erased_at is null;
  `)
})
