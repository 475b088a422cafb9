import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Replies drafted for a guest's message (when a drafter is configured): asked for when the message arrives, made by a
 * background job, kept here and announced as message.drafted. Nothing in this table is ever sent to the guest.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table message_drafts (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      conversation_id uuid not null references conversations(id),
      in_reply_to uuid not null references messages(id),
      status text not null default 'pending' check (status in ('pending', 'drafted', 'failed')),
      body text,
      error text,
      attempts integer not null default 0,
      next_at timestamptz,
      created_at timestamptz not null,
      drafted_at timestamptz
    );
    create index message_drafts_due on message_drafts (next_at) where status = 'pending';
    create unique index message_drafts_reply on message_drafts (in_reply_to);
  `)
})
